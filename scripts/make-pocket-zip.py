#!/usr/bin/env python3
"""Write corpus/pocket/pocket-export.zip: a small Pocket export ZIP in the
layout Pocket mailed from 2024-10 (part_NNNNNN.csv with the cursor column,
annotations/part_NNNNNN.json beside them), made-up bookmarks only.

The parts are listed out of order and part 10 follows part 2, so a reader
that sorts by name instead of number, or takes the archive's order, reads
them wrongly. Entry dates are fixed so that the archive only changes when
its content does.

Usage: scripts/make-pocket-zip.py [OUT]   (default corpus/pocket/pocket-export.zip)
"""
import json
import os
import sys
import zipfile

HEADER = "title,url,time_added,cursor,tags,status\n"

PARTS = {
    "part_000000.csv": HEADER
    + "Rust Programming Language,https://www.rust-lang.org/,1700000000,MTcwMDAwMDAwMA,rust|languages,unread\n"
    + '"Quotes, ""commas"" and\na line break",https://example.org/quoted,1700000100,MTcwMDAwMDEwMA,,unread\n',
    "part_000002.csv": HEADER
    + "LWN.net,https://lwn.net/,1600000000,MTYwMDAwMDAwMA,news,archive\n",
    "part_000010.csv": HEADER
    + "https://untitled.example/,https://untitled.example/,1700000200,MTcwMDAwMDIwMA,,unread\n"
    + "Zürich café,https://example.ch/caf%C3%A9,1700000300,MTcwMDAwMDMwMA,travel|food,archive\n",
}

ANNOTATIONS = {
    "annotations/part_000000.json": [
        {
            "url": "https://www.rust-lang.org/",
            "title": "Rust Programming Language",
            "highlights": [
                {"quote": "A language empowering everyone", "created_at": 1700000500},
                {"quote": "to build reliable and efficient software.", "created_at": 1700000600},
            ],
        },
        {
            "url": "https://gone.example/",
            "title": "An article no part lists",
            "highlights": [{"quote": "lost?", "created_at": 1700000700}],
        },
    ],
}


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "corpus/pocket/pocket-export.zip")
    entries = [
        ("part_000010.csv", PARTS["part_000010.csv"]),
        ("part_000000.csv", PARTS["part_000000.csv"]),
        ("annotations/", None),
        ("annotations/part_000000.json", json.dumps(ANNOTATIONS["annotations/part_000000.json"], indent=1)),
        ("part_000002.csv", PARTS["part_000002.csv"]),
    ]
    with zipfile.ZipFile(out, "w") as z:
        for name, text in entries:
            info = zipfile.ZipInfo(name, date_time=(2025, 7, 1, 12, 0, 0))
            if text is None:
                info.external_attr = 0o40755 << 16 | 0x10
                z.writestr(info, b"")
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, text.encode("utf-8"))


if __name__ == "__main__":
    main()
