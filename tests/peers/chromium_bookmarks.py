#!/usr/bin/env python3
"""markport's own driver for a real Chromium (headless): load, write or re-save a `Bookmarks` file.

Standard library only. Chromium runs with a throw-away profile (an owner-only temporary
directory, removed on every exit, SIGTERM and SIGHUP included) and a small unpacked extension
with the "bookmarks" permission; the extension fetches its job from, and posts its answer to,
a loopback HTTP server this script runs.

  chromium_bookmarks.py load BOOKMARKS
      Chromium starts with BOOKMARKS as the profile's Default/Bookmarks. Prints
      {"ok": true, "chromium": VERSION, "tree": chrome.bookmarks.getTree()}.
  chromium_bookmarks.py write SPEC.json -o OUT
      Chromium creates SPEC's nodes ({"bookmark_bar": [NODE...], "other": [...]}, NODE
      {"title", "url"} or {"title", "children": [...]}) through chrome.bookmarks.create,
      then saves its own Bookmarks file; that file is copied to OUT.
  chromium_bookmarks.py resave BOOKMARKS -o OUT
      Chromium loads BOOKMARKS, the extension creates one marker bookmark (its url in the
      answer's "marker") at the end of "Other bookmarks", which makes Chromium save; once the
      saved file holds the marker, it is copied to OUT: what Chromium keeps of BOOKMARKS.

Exit status: 0 done; 1 Chromium did not answer or save in time (--timeout); 2 it cannot run.
"""
import argparse
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# The marker `resave` creates: a url no corpus file holds.
MARKER_URL = "https://markport.invalid/resave-marker"
MARKER_TITLE = "markport resave marker"

# The extension's service worker. `%PORT%` is the loopback port of this script.
WORKER = r"""
const answer = "http://127.0.0.1:%PORT%/";
async function create(parentId, nodes) {
  for (const n of nodes) {
    const made = await chrome.bookmarks.create(
        n.children ? {parentId, title: n.title || ""} : {parentId, title: n.title || "", url: n.url});
    if (n.children) await create(made.id, n.children);
  }
}
async function run() {
  const job = await (await fetch(answer + "job")).json();
  const roots = {};
  for (const r of (await chrome.bookmarks.getTree())[0].children) roots[r.folderType] = r.id;
  let marker = null;
  if (job.spec) {
    await create(roots["bookmarks-bar"], job.spec.bookmark_bar || []);
    await create(roots["other"], job.spec.other || []);
  }
  if (job.marker) marker = await chrome.bookmarks.create({parentId: roots["other"], ...job.marker});
  return {ok: true, tree: await chrome.bookmarks.getTree(), marker};
}
run().catch(e => ({ok: false, error: String(e)})).then(result =>
  fetch(answer + "done", {method: "POST", body: JSON.stringify(result)}));
"""


class Cleanup(Exception):
    """Raised by SIGTERM/SIGHUP so that `finally` removes the profile."""


def on_signal(signum, _frame):
    raise Cleanup(f"signal {signum}")


def chromium_version(binary):
    run = subprocess.run([binary, "--version"], capture_output=True, text=True)
    return run.stdout.strip()


def serve(job):
    """A loopback server: GET gives `job`, POST sets the answer. Returns (server, answer, event)."""
    answer, answered = {}, threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, body=b""):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.reply(json.dumps(job).encode())

        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            answer.update(json.loads(self.rfile.read(length)))
            self.reply()
            answered.set()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, answer, answered


def saved_file(path, holds, deadline):
    """The bytes of Chromium's Bookmarks file once `holds(text)` is true; None at the deadline.
    Chromium writes the file a few seconds after a change, through a rename."""
    while time.time() < deadline:
        try:
            with open(path, "rb") as f:
                data = f.read()
            if holds(data.decode("utf-8")):
                return data
        except (OSError, UnicodeDecodeError):
            pass
        time.sleep(0.25)
    return None


def drive(a, work):
    profile, ext = os.path.join(work, "profile"), os.path.join(work, "ext")
    os.makedirs(os.path.join(profile, "Default"))
    os.makedirs(ext)
    bookmarks = os.path.join(profile, "Default", "Bookmarks")
    job = {}
    if a.mode in ("load", "resave"):
        shutil.copyfile(a.input, bookmarks)
    else:
        with open(a.input, encoding="utf-8") as f:
            job["spec"] = json.load(f)
    if a.mode == "resave":
        job["marker"] = {"title": MARKER_TITLE, "url": MARKER_URL}
    server, answer, answered = serve(job)
    try:
        with open(os.path.join(ext, "manifest.json"), "w") as f:
            json.dump({"manifest_version": 3, "name": "markport bookmarks driver", "version": "1",
                       "permissions": ["bookmarks"], "host_permissions": ["http://127.0.0.1/*"],
                       "background": {"service_worker": "worker.js"}}, f)
        with open(os.path.join(ext, "worker.js"), "w") as f:
            f.write(WORKER.replace("%PORT%", str(server.server_address[1])))
        browser = subprocess.Popen(
            [a.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--user-data-dir=" + profile,
             "--load-extension=" + ext, "--disable-extensions-except=" + ext, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.time() + a.timeout
            if not answered.wait(a.timeout):
                return {"ok": False, "error": f"Chromium did not answer in {a.timeout:.0f} s"}, 1
            result = dict(answer)
            if not result.get("ok"):
                return result, 1
            if a.mode != "load":
                if a.mode == "write":
                    urls = json.dumps(job["spec"]).count('"url"')
                    holds = lambda text: text.count('"type": "url"') >= urls
                else:
                    holds = lambda text: MARKER_URL in text
                data = saved_file(bookmarks, holds, max(deadline, time.time() + 30))
                if data is None:
                    return {"ok": False, "error": "Chromium did not save its Bookmarks file"}, 1
                with open(a.output, "wb") as f:
                    f.write(data)
            return result, 0
        finally:
            try:
                os.killpg(browser.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            browser.wait()
    finally:
        server.shutdown()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["load", "write", "resave"])
    ap.add_argument("input")
    ap.add_argument("-o", "--output")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--timeout", type=float, default=90)
    a = ap.parse_args()
    if a.mode != "load" and not a.output:
        ap.error(f"{a.mode} needs -o OUT")
    if not a.chromium:
        print(json.dumps({"ok": False, "error": "chromium is not installed"}))
        return 2
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    work = tempfile.mkdtemp(prefix="markport-chromium-")  # mode 0700
    try:
        result, code = drive(a, work)
    except Cleanup as e:
        result, code = {"ok": False, "error": f"stopped by {e}"}, 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result["chromium"] = chromium_version(a.chromium)
    print(json.dumps(result, ensure_ascii=False))
    return code


if __name__ == "__main__":
    sys.exit(main())
