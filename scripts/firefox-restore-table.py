#!/usr/bin/env python3
"""What a real Firefox changes when it restores markport's `--to firefox` output.

Every sample of corpus/ (and, when ../shared is beside the checkout, the public Firefox
backups of the shared peer corpus) is converted with `markport convert --to firefox`;
one Firefox (tests/peers/firefox_bookmarks.py) restores each backup and writes its own
JSON backup; `markport diff --json` compares markport's backup with Firefox's, field by
field. Prints the table of docs/formats/firefox.md ("What Firefox's restore changes"):
each field Firefox changed, on how many nodes, in how many files.

Usage: scripts/firefox-restore-table.py [--markport PATH] [--values]
  --values  also print, per field, a few of the values Firefox changed (to see how)
Needs Python 3, firefox-esr and a built markport (default target/debug/markport).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inputs():
    out = []
    corpus = os.path.join(ROOT, "corpus")
    for fmt in sorted(os.listdir(corpus)):
        for dirpath, _, files in os.walk(os.path.join(corpus, fmt)):
            for f in sorted(files):
                if f.endswith((".expected.json", ".md")) or f.startswith("."):
                    continue
                out.append((fmt, os.path.join(dirpath, f)))
    peers = os.path.join(ROOT, "..", "shared", "corpus", "peers", "browsers", "firefox-json")
    if os.path.isdir(peers):
        for f in sorted(os.listdir(peers)):
            out.append(("firefox", os.path.join(peers, f)))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--markport", default=os.path.join(ROOT, "target", "debug", "markport"))
    ap.add_argument("--values", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="markport-ff-table-") as tmp:
        jobs, names = [], []
        for i, (fmt, path) in enumerate(inputs()):
            ours = os.path.join(tmp, f"{i}.json")
            r = subprocess.run([a.markport, "convert", path, "--from", fmt, "--to", "firefox",
                                "-o", ours, "-q"], capture_output=True)
            if r.returncode != 0:
                print(f"skipped {path}: {r.stderr.decode().strip()}", file=sys.stderr)
                continue
            jobs.append({"input": ours, "json": os.path.join(tmp, f"{i}.ff.json")})
            names.append(os.path.relpath(path, ROOT))
        with open(os.path.join(tmp, "jobs.json"), "w") as f:
            json.dump(jobs, f)
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "peers", "firefox_bookmarks.py"),
                            "--jobs", os.path.join(tmp, "jobs.json")], capture_output=True)
        answer = json.loads(r.stdout)
        if r.returncode != 0:
            sys.exit(f"Firefox did not run: {answer}")
        table = {}
        for name, job, res in zip(names, jobs, answer["results"]):
            if not res.get("ok"):
                table.setdefault("(refused)", [0, 0, []])
                t = table["(refused)"]
                t[0] += 1
                t[1] += 1
                t[2].append(f"{name}: {res.get('error')}")
                continue
            cmd = [a.markport, "diff", job["input"], job["json"], "--json", "-q"]
            if a.values:
                cmd.append("--values")
            d = subprocess.run(cmd, capture_output=True)
            for diff in json.loads(d.stdout)["differences"]:
                t = table.setdefault(diff["field"], [0, 0, []])
                t[0] += diff["count"]
                t[1] += 1
                if a.values:
                    for v in diff.get("values", [])[:3]:
                        t[2].append(f"{name}: {json.dumps(v, ensure_ascii=False)[:300]}")
    print(f"Firefox {answer['firefox']}, {len(jobs)} files")
    print()
    print("| field | nodes | files |")
    print("| --- | --- | --- |")
    for field, (nodes, files, _) in sorted(table.items()):
        print(f"| `{field}` | {nodes} | {files} |")
    if a.values:
        for field, (_, _, values) in sorted(table.items()):
            print(f"\n## {field}")
            for v in values[:12]:
                print(v)


if __name__ == "__main__":
    main()
