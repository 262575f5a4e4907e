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
  chromium_bookmarks.py import HTML
      Chromium's own HTML import (the importer behind "Import bookmarks and settings",
      bookmark_html_reader) reads HTML on a first run: the initial preferences' key
      distribution.import_bookmarks_from_file names the file. Debian's Chromium takes its
      initial preferences only from /etc/chromium/master_preferences, so the driver runs
      itself again in a private mount namespace (`unshare --mount`, root or a user namespace)
      where a copy of that file naming HTML is bind-mounted over it: nothing outside the
      namespace sees the change. Prints {"ok": true, "chromium": VERSION, "tree": getTree()}
      once the imported bookmarks have stopped changing.

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
async function settled() {
  // The first-run import may still be adding bookmarks when the worker starts: wait until
  // the tree has children and has not changed for two seconds.
  let last = "", since = Date.now();
  for (;;) {
    const now = JSON.stringify(await chrome.bookmarks.getTree());
    if (now !== last) { last = now; since = Date.now(); }
    else if (Date.now() - since > 2000 && now.includes('"url"')) return;
    await new Promise(r => setTimeout(r, 250));
  }
}
async function run() {
  const job = await (await fetch(answer + "job")).json();
  if (job.settle) await settled();
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
    elif a.mode == "import":
        job["settle"] = True
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
        # The import runs only on a first run.
        first_run = "--force-first-run" if a.mode == "import" else "--no-first-run"
        browser = subprocess.Popen(
            [a.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", first_run,
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
            if a.mode not in ("load", "import"):
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


PREFERENCES = "/etc/chromium/master_preferences"


def in_namespace(a):
    """Runs this script again, mode `import`, in a private mount namespace where Chromium's
    initial preferences name `a.input`; returns its answer and exit status."""
    try:
        with open(PREFERENCES, encoding="utf-8") as f:
            prefs = json.load(f)
    except (OSError, ValueError) as e:
        return {"ok": False, "error": f"no initial preferences to name the file in ({e})"}, 2
    prefs.setdefault("distribution", {})["import_bookmarks_from_file"] = os.path.abspath(a.input)
    prefs["distribution"]["import_bookmarks"] = False
    work = tempfile.mkdtemp(prefix="markport-chromium-prefs-")
    try:
        mine = os.path.join(work, "master_preferences")
        with open(mine, "w", encoding="utf-8") as f:
            json.dump(prefs, f)
        os.chmod(work, 0o755)
        os.chmod(mine, 0o644)
        inner = [sys.executable, os.path.abspath(__file__), "import", os.path.abspath(a.input),
                 "--chromium", a.chromium, "--timeout", str(a.timeout), "--inside"]
        # Root unshares directly; anyone else through a user namespace (mapped to root).
        user = [] if os.geteuid() == 0 else ["--map-root-user"]
        cmd = ["unshare", "--mount", "--propagation", "private", *user, "sh", "-c",
               'mount --bind "$0" "$1" && shift && exec "$@"', mine, PREFERENCES, *inner]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout + 60)
        try:
            return json.loads(run.stdout), run.returncode
        except ValueError:
            return {"ok": False, "error": "cannot give Chromium the file to import in a private "
                    f"mount namespace: {run.stderr.strip() or run.stdout.strip()}"}, 2
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["load", "write", "resave", "import"])
    ap.add_argument("input")
    ap.add_argument("-o", "--output")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--timeout", type=float, default=90)
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.mode not in ("load", "import") and not a.output:
        ap.error(f"{a.mode} needs -o OUT")
    if not a.chromium:
        print(json.dumps({"ok": False, "error": "chromium is not installed"}))
        return 2
    if a.mode == "import" and not a.inside:
        result, code = in_namespace(a)
        print(json.dumps(result, ensure_ascii=False))
        return code
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
