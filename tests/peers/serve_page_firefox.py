#!/usr/bin/env python3
"""markport's own driver of `markport serve`'s page in a real Firefox (headless), over
Marionette's WebDriver commands on a loopback port (the client of firefox_bookmarks.py).
Standard library only.

  serve_page_firefox.py URL FILE --to FORMAT --downloads DIR [--for DEST] [--no-script]
                        [--screenshot PNG] [--profile ID]
      Opens URL (the address `markport serve` printed, with its token), sets FILE on the
      page's file input (as a person picking it), chooses FORMAT (and DEST), waits for the
      page to show what was read, converts, and clicks the download the page offers, which
      Firefox saves into DIR. With --profile, the browser profile ID is chosen in the
      page's list instead, and FILE (say -) is not used.
      With --no-script, JavaScript is off: the options are clicked, the form's own button
      posts it, and Firefox saves the answer itself. Prints {"ok": true, "firefox": VERSION,
      "downloaded": PATH, "read": TEXT, "summary": TEXT, "result": TEXT}.

Firefox runs in a throw-away profile (owner-only, removed on exit) with its background
requests off; the page is on loopback, and nothing else is loaded.
Exit status: 0 done; 1 the page did not do it in time (--timeout); 2 Firefox cannot run.
"""
import argparse
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from firefox_bookmarks import Marionette, find_firefox, free_port, prefs  # noqa: E402

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

def page_prefs(port, downloads, script):
    p = prefs(port)
    p.update({
        "javascript.enabled": script,
        # A download goes into DIR without a dialog.
        "browser.download.folderList": 2,
        "browser.download.dir": downloads,
        "browser.download.useDownloadDir": True,
        "browser.download.always_ask_before_handling_new_types": False,
        "browser.helperApps.neverAsk.saveToDisk": "application/octet-stream",
        "browser.download.manager.showWhenStarting": False,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "extensions.update.enabled": False,
        "browser.safebrowsing.malware.enabled": False,
        "browser.safebrowsing.phishing.enabled": False,
        "browser.safebrowsing.downloads.enabled": False,
    })
    return p


def script(m, source, *args):
    return m.command("WebDriver:ExecuteScript", {"script": source, "args": list(args)})["value"]


def find(m, selector):
    return m.command("WebDriver:FindElement",
                     {"using": "css selector", "value": selector})["value"][ELEMENT]


def text(m, selector):
    return m.command("WebDriver:GetElementText", {"id": find(m, selector)})["value"]


def wait_for(m, expression, deadline, what):
    while time.monotonic() < deadline:
        try:
            if script(m, "return " + expression):
                return
        except RuntimeError:
            pass  # a page being replaced (while it loads)
        time.sleep(0.1)
    raise TimeoutError(f"the page did not {what} in time")


def wait_for_element(m, selector, deadline, what):
    while time.monotonic() < deadline:
        try:
            return find(m, selector)
        except RuntimeError:
            time.sleep(0.1)
    raise TimeoutError(f"the page did not {what} in time")


def wait_for_download(directory, deadline):
    while time.monotonic() < deadline:
        names = [n for n in os.listdir(directory) if not n.endswith(".part")]
        parts = [n for n in os.listdir(directory) if n.endswith(".part")]
        if names and not parts:
            return os.path.join(directory, names[0])
        time.sleep(0.1)
    raise TimeoutError("no download in time")


def run(a, firefox, profile):
    port = free_port()
    downloads = os.path.abspath(a.downloads)
    os.makedirs(downloads, exist_ok=True)
    with open(os.path.join(profile, "user.js"), "w", encoding="utf-8") as f:
        for k, v in page_prefs(port, downloads, not a.no_script).items():
            f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
    proc = subprocess.Popen(
        [firefox, "--headless", "--marionette", "--no-remote", "--profile", profile,
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=dict(os.environ, MOZ_HEADLESS="1"), start_new_session=True,
    )
    deadline = time.monotonic() + a.timeout
    try:
        m = Marionette(port, deadline)
        version = m.command("WebDriver:NewSession")["capabilities"]["browserVersion"]
        m.command("WebDriver:SetTimeouts", {"script": int(a.timeout * 1000)})
        m.command("WebDriver:SetWindowRect", {"width": 900, "height": 1400})
        m.command("WebDriver:Navigate", {"url": a.url})
        wait_for_element(m, "#file", deadline, "load")
        if a.profile:
            # Chosen in the list the page was served with.
            m.command("WebDriver:ElementClick",
                      {"id": find(m, f"#profile option[value='{a.profile}']")})
        else:
            # As a person picks a file: the path typed into the file input.
            m.command("WebDriver:ElementSendKeys", {"id": find(m, "#file"),
                                                    "text": os.path.abspath(a.file)})
        # The options by clicking them, which needs no script of the page.
        m.command("WebDriver:ElementClick", {"id": find(m, f"#to option[value='{a.to}']")})
        if a.dest:
            m.command("WebDriver:ElementClick",
                      {"id": find(m, f"#for option[value='{a.dest}']")})
            m.command("WebDriver:ElementClick", {"id": find(m, f"#to option[value='{a.to}']")})
        read_text = summary = result = ""
        if a.no_script:
            m.command("WebDriver:ElementClick", {"id": find(m, "#go")})
            downloaded = wait_for_download(downloads, deadline)
        else:
            wait_for_element(m, "#read .file-name", deadline, "show what was read")
            read_text = text(m, "#read")
            m.command("WebDriver:ElementClick", {"id": find(m, "#go")})
            wait_for_element(m, "#download", deadline, "offer the download")
            summary = text(m, "#summary")
            result = text(m, "#result")
            if a.screenshot:
                shot = m.command("WebDriver:TakeScreenshot", {"full": True})["value"]
                with open(a.screenshot, "wb") as f:
                    f.write(base64.b64decode(shot))
            # The link, clicked as a person clicks it: Firefox saves the file.
            m.command("WebDriver:ElementClick", {"id": find(m, "#download")})
            downloaded = wait_for_download(downloads, deadline)
        print(json.dumps({"ok": True, "firefox": version, "downloaded": downloaded,
                          "read": read_text, "summary": summary, "result": result}))
        return 0
    except (TimeoutError, RuntimeError) as e:
        print(json.dumps({"ok": False, "error": str(e)}))
        return 1
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("file")
    ap.add_argument("--to", required=True)
    ap.add_argument("--for", dest="dest")
    ap.add_argument("--downloads", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--no-script", action="store_true")
    ap.add_argument("--profile")
    ap.add_argument("--firefox")
    ap.add_argument("--timeout", type=float, default=90)
    a = ap.parse_args()
    firefox = find_firefox(a.firefox)
    if not firefox:
        print(json.dumps({"ok": False, "error": "no firefox on PATH"}))
        return 2
    profile = tempfile.mkdtemp(prefix="markport-serve-firefox-")  # mode 0700
    try:
        return run(a, firefox, profile)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
