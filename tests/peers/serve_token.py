#!/usr/bin/env python3
"""markport's driver of where `markport serve`'s token goes, in a real Chromium (headless,
over the DevTools pipe of serve_page.py). Standard library only.

  serve_token.py URL OTHER
      Opens URL (the address `markport serve` printed, the token in its path), then leaves
      the page for OTHER (a server on another port of 127.0.0.1) each way a person leaves
      it: a link on the page clicked (OTHER + "link"), the page sending the browser there
      (OTHER + "script"), and an address typed (OTHER + "typed"), opening the page again
      before each. Prints {"ok": true, "chromium": VERSION, "visited": [URL, ...]}; what
      OTHER received is the caller's to check (a cookie of 127.0.0.1 would go with each of
      these requests, whatever its port; a referrer with the first two).

Chromium runs with a throw-away profile (removed on exit) and its background requests off.
Exit status: 0 done; 1 not in time; 2 Chromium cannot run.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_page import close, evaluate, in_chromium, launch, open_page, wait_for  # noqa: E402


def arrive(pipe, session, url, deadline):
    """Wait until the tab shows `url`, loaded."""
    wait_for(pipe, session,
             f"location.href === {json.dumps(url)} && document.readyState === 'complete'",
             deadline, f"reach {url}")


def run(a, profile):
    proc, pipe = launch(a.chromium, profile)
    deadline = time.time() + a.timeout
    visited = []
    try:
        version = pipe.call("Browser.getVersion")["product"]
        session = open_page(pipe, a.url, deadline)
        # A link on the page, clicked.
        away = a.other + "link"
        evaluate(pipe, session,
                 "(function () { var l = document.createElement('a');"
                 f" l.href = {json.dumps(away)}; l.textContent = 'away';"
                 " document.body.appendChild(l); l.click(); })()")
        arrive(pipe, session, away, deadline)
        visited.append(away)
        # The page itself sending the browser away.
        pipe.call("Page.navigate", {"url": a.url}, session)
        arrive(pipe, session, a.url, deadline)
        away = a.other + "script"
        evaluate(pipe, session, f"location.href = {json.dumps(away)}")
        arrive(pipe, session, away, deadline)
        visited.append(away)
        # An address typed after the page.
        pipe.call("Page.navigate", {"url": a.url}, session)
        arrive(pipe, session, a.url, deadline)
        away = a.other + "typed"
        pipe.call("Page.navigate", {"url": away, "transitionType": "typed"}, session)
        arrive(pipe, session, away, deadline)
        visited.append(away)
        print(json.dumps({"ok": True, "chromium": version, "visited": visited}))
        return 0
    except (TimeoutError, EOFError) as e:
        print(json.dumps({"ok": False, "error": str(e), "visited": visited}))
        return 1
    finally:
        close(pipe, proc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("other")
    return in_chromium(ap, run)


if __name__ == "__main__":
    sys.exit(main())
