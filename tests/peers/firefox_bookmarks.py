#!/usr/bin/env python3
"""markport's own Firefox driver for the live tests (Python 3 standard library only).

A real Firefox (firefox-esr, headless) in a throw-away profile takes bookmark files in
with its own code and writes its own files back, driven over Marionette on a loopback
port. The profile is owner-only and removed on every exit, signals included.

Usage:
  firefox_bookmarks.py IN [--html | --json-input] [--json OUT] [--jsonlz4 OUT]
                          [--html-out OUT] [--places OUT]
  firefox_bookmarks.py --jobs JOBS.json

One file: IN is a Firefox JSON backup (.json or .jsonlz4; restored with
BookmarkJSONUtils.importFromFile, {replace: true}) unless it ends in .html/.htm or
--html is given (imported with BookmarkHTMLUtils.importFromFile, {replace: true}).
Then Firefox writes, each when asked: --json its JSON backup, --jsonlz4 the compressed
backup, --html-out its bookmarks HTML, --places its places.sqlite after a clean quit.
Prints {"ok": true, "firefox": VERSION, "tree": PlacesUtils.promiseBookmarksTree()},
or {"ok": false, "error": ...}. Exit 0 when Firefox took the file, 1 when it refused
it, 2 when Firefox could not run.

Many files, one Firefox: JOBS.json is a list of {"input", "html" (bool), "json",
"jsonlz4", "html_out"} (outputs optional); each is imported with {replace: true} in
turn. Prints {"firefox": VERSION, "results": [{"ok", "error"?}...]} (no trees), exit 0
when Firefox ran (each job says whether it was taken), 2 when it could not.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# Runs in Firefox's privileged (chrome) scope; the last argument is Marionette's callback.
IMPORT_EXPORT = r"""
const done = arguments[arguments.length - 1];
const [job, wantTree] = arguments;
const load = (m) => ChromeUtils.importESModule("resource://gre/modules/" + m + ".sys.mjs");
const { BookmarkHTMLUtils } = load("BookmarkHTMLUtils");
const { BookmarkJSONUtils } = load("BookmarkJSONUtils");
const { PlacesUtils } = load("PlacesUtils");
(async () => {
  if (job.html) {
    await BookmarkHTMLUtils.importFromFile(job.input, { replace: true });
  } else {
    await BookmarkJSONUtils.importFromFile(job.input, { replace: true });
  }
  if (job.json) await BookmarkJSONUtils.exportToFile(job.json);
  if (job.jsonlz4) await BookmarkJSONUtils.exportToFile(job.jsonlz4, { compress: true });
  if (job.html_out) await BookmarkHTMLUtils.exportToFile(job.html_out);
  const out = { ok: true };
  if (wantTree) out.tree = await PlacesUtils.promiseBookmarksTree();
  return out;
})().then(
  (out) => done(JSON.stringify(out)),
  (e) => done(JSON.stringify({ ok: false, error: String(e) })),
);
"""

# Firefox preferences of the throw-away profile: the Marionette port, and nothing that
# would put bookmarks of its own in (default bookmarks, an HTML import at start-up) or
# talk to the network on its own.
def prefs(port):
    return {
        "marionette.port": port,
        "browser.shell.checkDefaultBrowser": False,
        "browser.places.importBookmarksHTML": False,
        "browser.bookmarks.restore_default_bookmarks": False,
        "browser.bookmarks.autoExportHTML": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.enabled": False,
        "app.update.enabled": False,
        "browser.startup.homepage_override.mstone": "ignore",
    }


class Stop(Exception):
    """A signal asked us to stop: unwinds so that the profile is removed."""


def on_signal(signum, _frame):
    raise Stop(f"stopped by signal {signum}")


class Marionette:
    """The client side of Marionette's protocol: `LENGTH:JSON` frames over TCP,
    commands `[0, id, name, params]`, answers `[1, id, error, result]`."""

    def __init__(self, port, deadline):
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("Firefox never opened its Marionette port")
                time.sleep(0.1)
        self.sock.settimeout(None)
        self.buf = b""
        self.next_id = 0
        self.frame()  # the greeting: {"applicationType": "gecko", ...}

    def read_exactly(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("Firefox closed the Marionette connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def frame(self):
        length = b""
        while True:
            c = self.read_exactly(1)
            if c == b":":
                break
            if not c.isdigit() or len(length) > 12:
                raise RuntimeError("not a Marionette frame")
            length += c
        return json.loads(self.read_exactly(int(length)))

    def command(self, name, params=None):
        self.next_id += 1
        body = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        while True:
            kind, msg_id, error, result = self.frame()
            if kind == 1 and msg_id == self.next_id:
                break
        if error:
            raise RuntimeError(f"{name}: {error.get('error')}: {error.get('message')}")
        return result


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_firefox(given):
    for name in [given] if given else ["firefox-esr", "firefox"]:
        path = shutil.which(name) or (name if os.path.isfile(name) else None)
        if path:
            return path
    return None


def run(firefox, jobs, want_tree, places_out, timeout):
    """Start Firefox, run every job, quit; (version, results). Removes the profile."""
    profile = tempfile.mkdtemp(prefix="markport-firefox-")  # mode 0700
    proc = None
    try:
        port = free_port()
        with open(os.path.join(profile, "user.js"), "w", encoding="utf-8") as f:
            for k, v in prefs(port).items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        proc = subprocess.Popen(
            [firefox, "--headless", "--marionette", "-remote-allow-system-access",
             "--no-remote", "--profile", profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, MOZ_HEADLESS="1"), start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        m = Marionette(port, deadline)
        version = m.command("WebDriver:NewSession")["capabilities"]["browserVersion"]
        m.command("WebDriver:SetTimeouts", {"script": int(timeout * 1000)})
        m.command("Marionette:SetContext", {"value": "chrome"})
        results = []
        for job in jobs:
            answer = m.command("WebDriver:ExecuteAsyncScript",
                               {"script": IMPORT_EXPORT, "args": [job, want_tree]})
            results.append(json.loads(answer["value"]))
        try:
            m.command("Marionette:Quit", {"flags": ["eAttemptQuit"]})
        except RuntimeError:
            pass  # Firefox may close the connection before it answers
        proc.wait(timeout=max(5.0, deadline - time.monotonic()))
        if places_out and results and results[-1].get("ok"):
            shutil.copyfile(os.path.join(profile, "places.sqlite"), places_out)
        return version, results
    finally:
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?")
    ap.add_argument("--html", action="store_true", help="IN is bookmarks HTML")
    ap.add_argument("--json-input", action="store_true", help="IN is a JSON backup")
    ap.add_argument("--json")
    ap.add_argument("--jsonlz4")
    ap.add_argument("--html-out")
    ap.add_argument("--places")
    ap.add_argument("--jobs")
    ap.add_argument("--firefox")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    if bool(a.input) == bool(a.jobs):
        ap.error("give one input file or --jobs")
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    firefox = find_firefox(a.firefox)
    if not firefox:
        print(json.dumps({"ok": False, "error": "no Firefox: apt-get install firefox-esr"}))
        return 2
    absolute = lambda p: os.path.abspath(p) if p else None  # noqa: E731
    if a.jobs:
        with open(a.jobs, encoding="utf-8") as f:
            jobs = json.load(f)
        for job in jobs:
            for k in ("input", "json", "jsonlz4", "html_out"):
                job[k] = absolute(job.get(k))
            job["html"] = bool(job.get("html"))
    else:
        html = a.html or (not a.json_input and a.input.lower().endswith((".html", ".htm")))
        jobs = [{"input": absolute(a.input), "html": html, "json": absolute(a.json),
                 "jsonlz4": absolute(a.jsonlz4), "html_out": absolute(a.html_out)}]
    try:
        version, results = run(firefox, jobs, not a.jobs, absolute(a.places), a.timeout)
    except (Exception, Stop) as e:  # noqa: BLE001 - whatever stopped Firefox is the answer
        print(json.dumps({"ok": False, "error": f"Firefox did not run: {e}"}))
        return 2
    if a.jobs:
        print(json.dumps({"firefox": version, "results": results}, ensure_ascii=False))
        return 0
    result = dict(results[0], firefox=version)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
