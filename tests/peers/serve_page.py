#!/usr/bin/env python3
"""markport's own driver of `markport serve`'s page in a real Chromium (headless), over the
DevTools protocol on a pipe (--remote-debugging-pipe: fds 3 and 4, one JSON message per NUL),
so no port and no WebSocket library are needed. Standard library only.

  serve_page.py URL FILE --to FORMAT --downloads DIR [--screenshot PNG] [--no-script]
      Opens URL (the address `markport serve` printed, with its token), sets FILE on the
      page's file input, chooses FORMAT, waits for the page to show what was read, converts,
      saves a screenshot of the page with its report (--screenshot), and downloads the file
      into DIR. With --no-script, JavaScript is off and the plain form is submitted: the
      browser downloads the answer itself. Prints {"ok": true, "chromium": VERSION,
      "downloaded": PATH, "read": TEXT, "result": TEXT}.

Chromium runs with a throw-away profile (an owner-only temporary directory, removed on exit)
and every background request off; the page is on loopback, and nothing else is loaded.
Exit status: 0 done; 1 the page did not do it in time (--timeout); 2 Chromium cannot run.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse


class Pipe:
    """The DevTools protocol over Chromium's pipe: commands and the events met meanwhile."""

    def __init__(self, proc, to_chromium, from_chromium):
        self.proc = proc
        self.out = to_chromium
        self.inp = from_chromium
        self.next_id = 0
        self.buffer = b""
        self.events = []

    def _message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.inp, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)


def evaluate(pipe, session, expression):
    r = pipe.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    if "exceptionDetails" in r:
        raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
    return r["result"].get("value")


def wait_for(pipe, session, expression, deadline, what):
    while time.time() < deadline:
        try:
            if evaluate(pipe, session, expression):
                return
        except RuntimeError:
            pass  # a page being replaced (while it loads)
        time.sleep(0.1)
    raise TimeoutError(f"the page did not {what} in time")


def wait_for_download(directory, deadline):
    while time.time() < deadline:
        names = [n for n in os.listdir(directory) if not n.endswith(".crdownload")]
        if names:
            return os.path.join(directory, names[0])
        time.sleep(0.1)
    raise TimeoutError("no download in time")


def launch(chromium, profile):
    """Chromium, headless in `profile`, and the DevTools pipe to it."""
    r_chromium, w_driver = os.pipe()   # what Chromium reads: its fd 3
    r_driver, w_chromium = os.pipe()   # what Chromium writes: its fd 4
    args = [chromium, "--headless=new", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--user-data-dir=" + profile,
            "--remote-debugging-pipe", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps",
            "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
            "about:blank"]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")

    def fds():
        # Chromium's ends move to 3 and 4 through fresh numbers, so neither
        # is overwritten by the other; dup2 leaves them open across exec,
        # and every other descriptor of this script closes on exec.
        high = [os.dup(r_chromium), os.dup(w_chromium)]
        os.dup2(high[0], 3)
        os.dup2(high[1], 4)

    proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(r_chromium)
    os.close(w_chromium)
    return proc, Pipe(proc, w_driver, r_driver)


def close(pipe, proc):
    """Chromium closed, and waited for (killed if it does not go)."""
    try:
        pipe.call("Browser.close", timeout=5)
    except Exception:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def open_page(pipe, url, deadline, no_script=False):
    """A tab at `url` (the page under its token), loaded: its session."""
    target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = pipe.call("Target.attachToTarget",
                        {"targetId": target, "flatten": True})["sessionId"]
    pipe.call("Page.enable", session=session)
    pipe.call("Runtime.enable", session=session)
    pipe.call("Emulation.setDeviceMetricsOverride",
              {"width": 900, "height": 1400, "deviceScaleFactor": 1, "mobile": False},
              session)
    if no_script:
        pipe.call("Emulation.setScriptExecutionDisabled", {"value": True}, session)
    pipe.call("Page.navigate", {"url": url}, session)
    # Evaluation runs even with the page's scripts off.
    path = urllib.parse.urlsplit(url).path
    wait_for(pipe, session,
             f"location.pathname === {json.dumps(path)} && document.readyState === 'complete'"
             " && !!document.getElementById('file')", deadline, "load")
    return session


def run(a, profile):
    proc, pipe = launch(a.chromium, profile)
    deadline = time.time() + a.timeout
    try:
        version = pipe.call("Browser.getVersion")["product"]
        os.makedirs(a.downloads, exist_ok=True)
        pipe.call("Browser.setDownloadBehavior",
                  {"behavior": "allow", "downloadPath": os.path.abspath(a.downloads)})
        session = open_page(pipe, a.url, deadline, a.no_script)
        doc = pipe.call("DOM.getDocument", session=session)["root"]["nodeId"]
        node = pipe.call("DOM.querySelector", {"nodeId": doc, "selector": "#file"},
                         session)["nodeId"]
        pipe.call("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(a.file)]},
                  session)
        evaluate(pipe, session, f"document.getElementById('to').value = {json.dumps(a.to)}")
        read_text = ""
        if not a.no_script:
            wait_for(pipe, session,
                     "document.querySelector('#read .file-name') !== null", deadline,
                     "show what was read")
            read_text = evaluate(pipe, session, "document.getElementById('read').innerText")
            evaluate(pipe, session, "document.getElementById('go').click()")
            wait_for(pipe, session, "document.getElementById('download') !== null", deadline,
                     "offer the download")
        result_text = evaluate(pipe, session, "document.getElementById('result').innerText") or ""
        if a.screenshot:
            shot = pipe.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                             session)
            with open(a.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        # The download: the page's link, or the form's own POST without script.
        if a.no_script:
            evaluate(pipe, session, "document.getElementById('convert').submit()")
        else:
            evaluate(pipe, session, "document.getElementById('download').click()")
        try:
            downloaded = wait_for_download(a.downloads, deadline)
        except TimeoutError:
            shown = evaluate(pipe, session, "location.href + ' ' + document.body.innerText.slice(0, 300)")
            raise TimeoutError(f"no download in time; the page shows {shown}")
        print(json.dumps({"ok": True, "chromium": version, "downloaded": downloaded,
                          "read": read_text, "result": result_text}))
        return 0
    except (TimeoutError, EOFError) as e:
        print(json.dumps({"ok": False, "error": str(e)}))
        return 1
    finally:
        close(pipe, proc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("file")
    ap.add_argument("--to", required=True)
    ap.add_argument("--downloads", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--no-script", action="store_true")
    return in_chromium(ap, run)


def in_chromium(ap, run):
    """Parse `ap` with --chromium and --timeout added, and `run(args, profile)` in a
    throw-away owner-only profile: its exit status (2 when there is no Chromium)."""
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    if not a.chromium:
        print(json.dumps({"ok": False, "error": "no chromium on PATH"}))
        return 2
    with tempfile.TemporaryDirectory(prefix="markport-serve-page-") as profile:
        os.chmod(profile, 0o700)
        return run(a, profile)


if __name__ == "__main__":
    sys.exit(main())
