#!/usr/bin/env python3
"""Write corpus/omnivore/omnivore-export.zip: a small Omnivore export ZIP in
the layout of Omnivore's last exporter (packages/api/src/jobs/export.ts):
metadata_<cursor>_to_<end>.json files (each a JSON array of items, written
with two-space indentation), content/<slug>.html (or .pdf) for the saved
pages and highlights/<slug>.md for the highlights, in Markdown as the
exporter's highlightToMarkdown writes them. Made-up items only.

The metadata files are listed out of order and their cursors skip, so that
metadata_10_to_11.json sorts before metadata_2_to_4.json by name: a reader
that sorts by name instead of number, or takes the archive's order, reads
them wrongly. Entry dates are fixed so that the archive only changes when
its content does.

Usage: scripts/make-omnivore-zip.py [OUT]   (default corpus/omnivore/omnivore-export.zip)
"""
import json
import os
import sys
import zipfile


def item(n, slug, title, url, state, labels, description=None, author=None):
    return {
        "id": f"5f0c0a7e-0000-4000-8000-00000000000{n}",
        "slug": slug,
        "title": title,
        "description": description,
        "author": author,
        "url": url,
        "state": state,
        "readingProgress": 0 if state == "Active" else 100,
        "thumbnail": None,
        "labels": labels,
        "savedAt": f"2024-0{n}-10T09:00:00.000Z",
        "updatedAt": f"2024-0{n}-11T18:30:00.000Z",
        "publishedAt": None,
    }


METADATA = {
    "metadata_0_to_2.json": [
        item(1, "the-rust-book-18f0a1b2c01", "The Rust Programming Language",
             "https://doc.rust-lang.org/book/", "Active", ["rust", "books"],
             description="An introductory book about Rust.", author="A. Writer"),
        item(2, "lwn-net-18f0a1b2c02", "LWN.net", "https://lwn.net/", "Archived", ["news"]),
    ],
    "metadata_2_to_4.json": [
        item(3, "a-paper-18f0a1b2c03", "A paper, as a PDF",
             "https://example.org/paper.pdf", "Active", []),
        item(4, "creme-brulee-18f0a1b2c04", "Crème brûlée – the classic way",
             "https://example.fr/cr%C3%A8me", "Archived", ["cooking", "français"]),
    ],
    "metadata_10_to_11.json": [
        item(5, "no-highlights-18f0a1b2c05", "Read later, no highlights",
             "https://example.com/later?x=1&y=2", "Active", ["later"]),
    ],
}

HIGHLIGHTS = {
    # A quote with a label, and a quote with a note, joined by a blank line.
    "highlights/the-rust-book-18f0a1b2c01.md":
        "> Rust is a language empowering everyone \n\n#quote\n\n"
        "> to build reliable and efficient software. \n\nThe book's promise.",
    # An item without a description: the highlights are all of it.
    "highlights/creme-brulee-18f0a1b2c04.md": "> Caramelise the sugar at the last minute. ",
}

CONTENT = {
    "content/the-rust-book-18f0a1b2c01.html": "<div><p>The saved page.</p></div>",
    "content/lwn-net-18f0a1b2c02.html": "<div><p>LWN's front page.</p></div>",
    "content/a-paper-18f0a1b2c03.pdf": "%PDF-1.4\n% not a real PDF\n",
    "content/creme-brulee-18f0a1b2c04.html": "<div><p>Crème brûlée.</p></div>",
    "content/no-highlights-18f0a1b2c05.html": "<div><p>Later.</p></div>",
}


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "corpus/omnivore/omnivore-export.zip")
    # In the exporter's order, a batch at a time (its metadata, then its
    # pages and highlights), but the batches out of order.
    entries = []
    for meta in ["metadata_2_to_4.json", "metadata_10_to_11.json", "metadata_0_to_2.json"]:
        items = METADATA[meta]
        entries.append((meta, json.dumps(items, indent=2, ensure_ascii=False)))
        for it in items:
            for folder, files in (("content", CONTENT), ("highlights", HIGHLIGHTS)):
                for name, text in files.items():
                    if name.startswith(f"{folder}/{it['slug']}."):
                        entries.append((name, text))
    with zipfile.ZipFile(out, "w") as z:
        for name, text in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 11, 1, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text.encode("utf-8"))


if __name__ == "__main__":
    main()
