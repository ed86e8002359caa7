"""The comparison page in a real browser: headless Chromium driven through
ChromeDriver's WebDriver protocol (standard library only). It opens the built
page from disk, types text and checks every row's bytes against the CLI's
`encode`, edits a description with an error and finds the CLI's message,
damages a unit and finds the offset the CLI's `decode` reports, opens a
shared link, and takes the screenshots the README shows.

Usage: python3 web/tests/browser.py PAGE PLACEMAT SCREENSHOT_DIR
"""

import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1500,1500",
]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Browser:
    """A WebDriver session in headless Chromium."""

    def __init__(self, profile):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if self.request("GET", "/status")["ready"]:
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        options = {"binary": CHROMIUM, "args": FLAGS + [f"--user-data-dir={profile}"]}
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
        self.session = self.request("POST", "/session", caps)["sessionId"]

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise Failure(f"WebDriver {method} {path}: {e.read().decode()[:500]}") from None

    def do(self, method, path, body=None):
        return self.request(method, f"/session/{self.session}{path}", body)

    def open(self, url):
        self.do("POST", "/url", {"url": url})
        self.wait("document.body.dataset.firstRenderMs || document.body.dataset.failed")
        failed = self.js("return document.body.dataset.failed || null")
        check(failed is None, f"the page did not start: {failed}")

    def js(self, script, *args):
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait(self, condition, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.js(f"return !!({condition})"):
                return
            time.sleep(0.05)
        raise Failure(f"waited {seconds} s for {condition}")

    def find(self, css):
        element = self.do("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(element.values()))

    def type(self, css, text, clear=True):
        element = self.find(css)
        if clear:
            self.do("POST", f"/element/{element}/clear", {})
        self.do("POST", f"/element/{element}/value", {"text": text})

    def click(self, css):
        self.do("POST", f"/element/{self.find(css)}/click", {})

    def screenshot(self, css, path):
        png = self.do("GET", f"/element/{self.find(css)}/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def quit(self):
        try:
            self.do("DELETE", "")
        finally:
            self.driver.terminate()


def run(placemat, args, stdin=b""):
    return subprocess.run([placemat] + args, input=stdin, capture_output=True)


def page_text(browser):
    """The text box's text (WebDriver cannot carry a lone surrogate in a
    string: its code points can)."""
    points = browser.js("return Array.from(document.getElementById('text').value, (c) => c.codePointAt(0))")
    return "".join(map(chr, points))


def rows(browser):
    return browser.js("""return [...document.querySelectorAll('#rows tbody tr')].map(tr => ({
        codec: tr.dataset.codec, bytes: tr.dataset.bytes, spec: tr.dataset.spec === 'true',
        refused: tr.querySelectorAll('td.refused').length }))""")


def check_rows_against_encode(browser, placemat, text, codecs=None):
    """Every built-in codec's row (or those `codecs`, in that order) has the
    bytes `placemat encode` writes for `text`, or a refused cell where it
    refuses the text."""
    tokens = " ".join(str(ord(c)) for c in text).encode()
    seen = rows(browser)
    names = [r["codec"] for r in seen if not r["spec"]]
    if codecs is None:
        listed = run(placemat, ["list"]).stdout.decode().splitlines()
        codecs = [line.split()[0] for line in listed if line.strip()]
    check(names == codecs, f"the rows {names} are not the codecs {codecs}")
    for row in seen:
        if row["spec"]:
            continue
        cli = run(placemat, ["encode", row["codec"]], tokens)
        if cli.returncode == 0:
            check(row["bytes"] == cli.stdout.hex(" "),
                  f"{row['codec']}: the page shows {row['bytes']!r}, `encode` writes {cli.stdout.hex(' ')!r}")
            check(row["refused"] == 0, f"{row['codec']}: a refused cell for text `encode` takes")
        else:
            check(row["refused"] > 0, f"{row['codec']}: `encode` refuses the text, the page does not: "
                  + cli.stderr.decode())
    return len(seen)


BAD_SPEC = """pub Two {
    name: "two",
    value: u33,
    range: 0 ..= 0x7FF,
    forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" },
}
"""


def check_editor(browser, placemat, workdir, screenshots):
    browser.type("#spec", BAD_SPEC)
    browser.wait("document.getElementById('spec-errors').textContent.length > 0")
    shown = browser.js("return document.getElementById('spec-errors').textContent")
    path = os.path.join(workdir, "two.placemat")
    with open(path, "w") as f:
        f.write(BAD_SPEC)
    cli = run(placemat, ["encode", "--spec", path])
    check(cli.returncode != 0, "the CLI accepted the bad description")
    for line in shown.strip().splitlines():
        expected = line.replace("description.placemat", path)
        check(expected in cli.stderr.decode(), f"the page says {line!r}; the CLI says {cli.stderr.decode()!r}")
    check(":3:12: error:" in shown, f"the error is not at line 3, column 12: {shown!r}")
    browser.screenshot("#editor", os.path.join(screenshots, "editor-error.png"))
    # Mend it: the row of the description joins the comparison.
    good = BAD_SPEC.replace("u33", "u32")
    browser.type("#spec", good)
    browser.wait("document.querySelector('#rows tr[data-spec=\"true\"]')")
    browser.wait("document.querySelector('#spec-facts [data-states]')")
    with open(path, "w") as f:
        f.write(good)
    row = [r for r in rows(browser) if r["spec"]][0]
    text = page_text(browser)
    tokens = " ".join(str(ord(c)) for c in text).encode()
    cli = run(placemat, ["encode", "--spec", path], tokens)
    if cli.returncode == 0:
        check(row["bytes"] == cli.stdout.hex(" "), f"the description's row {row['bytes']!r} != {cli.stdout.hex(' ')!r}")
    else:
        check(row["refused"] > 0, "the CLI refuses the text for the description, the page does not")
    states = browser.js("return document.querySelector('#spec-facts [data-states]').dataset.states")
    check(states == "3", f"two forms make 3 states (the dead state included), the page says {states}")
    browser.screenshot("#editor", os.path.join(screenshots, "editor.png"))


def check_hex_box(browser, placemat):
    """WTF-8 bytes of a lone surrogate typed in the hex box become the text;
    the rows then show which codecs cannot encode it, and why."""
    browser.js("const s = document.getElementById('hex-codec'); s.value = 'wtf8'; "
               "s.dispatchEvent(new Event('change'))")
    browser.type("#hex", "ed a0 80 41")
    browser.wait("document.getElementById('text').value === '\\ud800A'")
    check_rows_against_encode(browser, placemat, page_text(browser))
    why = browser.js("return document.querySelector(\"#rows tr[data-codec='utf8'] td.why\").textContent")
    check(why.startswith("U+D800 cannot be encoded by utf8"), f"utf8's reason: {why!r}")


def check_damage(browser, placemat, codec, at, action, screenshots=None):
    browser.click(f"#rows tr[data-codec='{codec}'][data-spec='false'] th button")
    browser.wait(f"document.getElementById('detail').dataset.codec === '{codec}'")
    browser.type("#damage-at", str(at))
    browser.js("document.getElementById('damage-action').value = arguments[0]", action)
    browser.click("#damage-apply")
    browser.wait("document.getElementById('damage').dataset.bytes !== undefined")
    damaged = browser.js("return document.getElementById('damage').dataset.bytes")
    offset = browser.js("return document.getElementById('damage').dataset.errorOffset")
    cli = run(placemat, ["decode", codec], bytes.fromhex(damaged))
    if cli.returncode == 0:
        check(offset == "", f"{codec}: `decode` finds no error in {damaged}, the page at {offset}")
    else:
        message = cli.stderr.decode()
        check(f"input at offset {offset}:" in message, f"{codec}: the page says offset {offset!r}; `decode`: {message}")
    if screenshots:
        browser.screenshot("#detail", os.path.join(screenshots, "automaton.png"))
    return offset


def main():
    page, placemat, screenshots = sys.argv[1:4]
    os.makedirs(screenshots, exist_ok=True)
    page_url = "file://" + os.path.abspath(page)
    with tempfile.TemporaryDirectory() as workdir:
        browser = Browser(os.path.join(workdir, "profile"))
        try:
            browser.open(page_url)
            first = browser.js("return Number(document.body.dataset.firstRenderMs)")
            text = "Añ€ Ωμ ok"
            browser.type("#text", text)
            browser.wait(f"document.querySelector('#rows thead').textContent.includes('U+03BC')")
            n = check_rows_against_encode(browser, placemat, text)
            print(f"ok: typed text, {n} rows agree with `placemat encode`")
            browser.screenshot("#comparison", os.path.join(screenshots, "comparison.png"))
            offset = check_damage(browser, placemat, "utf8", 2, "flip", screenshots)
            print(f"ok: utf8 with bit 7 of byte 2 flipped: error at offset {offset}, as `placemat decode` says")
            offset = check_damage(browser, placemat, "utf16le", 3, "drop")
            print(f"ok: utf16le with byte 3 dropped: error at offset {offset!r}, as `placemat decode` says")
            check_hex_box(browser, placemat)
            print("ok: bytes typed in hex are decoded into the text; a lone surrogate is refused where `encode` refuses it")
            check_editor(browser, placemat, workdir, screenshots)
            print("ok: a description with an error shows the CLI's message; mended, its row agrees with `encode --spec`")
            # A shared link opens at its state, emoji included.
            shared = "Ü😀"
            fragment = urllib.parse.urlencode({"text": shared, "codecs": "utf8,cesu8,utf16be", "codec": "cesu8"})
            browser.open(page_url + "?shared#" + fragment)
            check_rows_against_encode(browser, placemat, shared, ["utf8", "cesu8", "utf16be"])
            selected = browser.js("return document.getElementById('detail').dataset.codec")
            check(selected == "cesu8", f"the link selects cesu8, the page {selected}")
            print("ok: a shared link opens at its text, codecs and selected codec")
            print(f"first rendering: {first} ms after the page began loading; page size {os.path.getsize(page)} bytes")
        finally:
            browser.quit()


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
