#!/usr/bin/env python3
"""A real Chromium's HTML import, through the project's own driver
(tests/peers/chromium_bookmarks.py import): Chromium reads IN on a first run
with its own importer (bookmark_html_reader), and what it then holds
(chrome.bookmarks.getTree()) is written to OUT as markport's JSON model.

Usage: chromium-html.py IN OUT   (--from netscape --to json)

Measures Chromium's reader of Netscape HTML: where it puts what it imports
(the bar, or an "Imported" folder) counts, as it would for a person.
"""
import datetime
import json
import os
import subprocess
import sys

ROLES = {"bookmarks-bar": "toolbar", "other": "unfiled", "mobile": "mobile"}


def main():
    src, out = sys.argv[1], sys.argv[2]
    driver = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tests/peers/chromium_bookmarks.py")
    done = subprocess.run([sys.executable, driver, "import", src], stdout=subprocess.PIPE, check=False)
    if done.returncode != 0:
        sys.exit(done.returncode)
    answer = json.loads(done.stdout)
    nodes = []
    # An explicit stack: no recursion on the depth of the tree.
    stack = [(child, None) for child in reversed(answer["tree"][0].get("children", []))]
    while stack:
        node, parent = stack.pop()
        item = {"title": node.get("title", "")}
        if parent is not None:
            item["parent"] = parent
        if "dateAdded" in node:
            when = datetime.datetime.fromtimestamp(node["dateAdded"] / 1000, datetime.timezone.utc)
            item["added"] = when.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if "url" in node:
            item = {"type": "bookmark", "href": node["url"], **item}
            nodes.append(item)
            continue
        item = {"type": "folder", **item}
        role = ROLES.get(node.get("folderType", ""))
        if role:
            item["role"] = role
        nodes.append(item)
        at = len(nodes) - 1
        stack.extend((child, at) for child in reversed(node.get("children", [])))
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"markport": 1, "nodes": nodes}, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
