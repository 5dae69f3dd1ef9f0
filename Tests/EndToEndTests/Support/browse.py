#!/usr/bin/env python3
"""Opens a page in headless Chromium, driven over the DevTools protocol on a pipe, and reports
what happened on it as JSON.

    browse.py URL [ACTION]...

URL is any address Chromium opens (file://...); a plain path is made a file:// URL. After the
page's load event, each ACTION is processed in the order given:

    --wait EXPR      poll the JS expression (every 100 ms) until it is truthy; fails after --timeout
                     (EXPR is not awaited, and one that throws counts as false)
    --eval EXPR      evaluate the JS expression (awaiting a promise) and record its value
    --shot FILE      save a PNG screenshot of the viewport
    --size W,H       viewport size (default 1000,800), applied before navigating
    --timeout S      seconds for the page load and for each action (default 30)

--size and --timeout are settings for the whole run wherever they appear (the last one counts).
Console messages, uncaught exceptions, log entries and failed loads are collected all along.
Prints one JSON object:

    {"console": [{"level", "text"}], "exceptions": [str], "log": [{"level", "source", "text", "url"}],
     "failed": [{"url", "error"}], "values": [each --eval's value, or {"error": ...} if it threw],
     "ok": bool, "error": null or why not ok}

"ok" is false when the page did not load, a --wait or --eval timed out or a --shot could not be
written; the remaining actions are then skipped. Exits 0 when the browser ran (whatever "ok"
says), 1 when it could not be started or died, 2 on bad arguments, 77 when there is no chromium
or chromium-browser on PATH. The browser is always closed, and nothing waits past a deadline.
"""
import base64, contextlib, fcntl, json, os, pathlib, select, shutil, signal, subprocess, sys, tempfile, time


FLAGS = ("--wait", "--eval", "--shot", "--size", "--timeout")


class Died(Exception):  # the browser is gone or does not answer: exit 1
    pass


class Failed(Exception):  # the page did not load, a --shot failed, a command was refused: "ok" false
    pass


class Browser:
    def __init__(self, exe):
        self.dir = tempfile.mkdtemp(prefix="browse-")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def onto_3_and_4():  # in the child: --remote-debugging-pipe reads fd 3 and writes fd 4
            a, b = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_r, from_w))  # out of the way first
            os.dup2(a, 3)
            os.dup2(b, 4)

        flags = ["--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--remote-debugging-pipe",
                 "--no-first-run", "--no-default-browser-check", "--user-data-dir=" + self.dir,
                 "--disable-background-networking", "about:blank"]
        try:
            self.proc = subprocess.Popen([exe] + flags, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=onto_3_and_4,
                                         start_new_session=True)  # its own group, to kill its helpers too
        except OSError as e:
            shutil.rmtree(self.dir)
            raise Died(f"cannot start {exe}: {e}")
        os.close(to_r)
        os.close(from_w)
        self.buf, self.last_id, self.session, self.loaded, self.requests = b"", 0, None, False, {}
        self.out = dict(console=[], exceptions=[], log=[], failed=[], values=[], ok=True, error=None)

    def send(self, method, params=None):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params or {}, "sessionId": self.session}
        data = json.dumps({k: v for k, v in msg.items() if v is not None}).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self.to_w, data):]
        except OSError as e:
            raise Died(f"cannot write to the browser: {e}")
        return self.last_id

    def pump(self, deadline):
        """Reads one message, recording it if it is an event; None at the deadline."""
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                return None
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise Died("the browser closed its pipe (crashed?)")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        msg = json.loads(raw)
        if "method" in msg:
            self.event(msg["method"], msg.get("params", {}))
        return msg

    def call(self, method, params=None, deadline=None):
        """Sends a command and returns its result; TimeoutError if it has none by the deadline."""
        wanted, deadline = self.send(method, params), deadline or time.monotonic() + 30
        while (msg := self.pump(deadline)) is not None:
            if msg.get("id") == wanted:
                if "error" in msg:
                    raise Failed(f"{method}: {msg['error'].get('message')}")
                return msg.get("result", {})
        raise TimeoutError

    def event(self, method, p):
        out = self.out
        if method == "Runtime.consoleAPICalled":
            text = " ".join(a["value"] if isinstance(a.get("value"), str) else json.dumps(a["value"])
                            if "value" in a else a.get("description", a["type"]) for a in p["args"])
            out["console"].append({"level": p["type"], "text": text})
        elif method == "Runtime.exceptionThrown":
            out["exceptions"].append(describe(p["exceptionDetails"]))
        elif method == "Log.entryAdded":
            out["log"].append({k: p["entry"].get(k) for k in ("level", "source", "text", "url")})
        elif method == "Network.requestWillBeSent":
            self.requests[p["requestId"]] = p["request"]["url"]
        elif method == "Network.loadingFailed":
            out["failed"].append({"url": self.requests.get(p["requestId"]), "error": p["errorText"]})
        elif method == "Network.responseReceived":
            r = p["response"]
            if r["url"].startswith(("http:", "https:")) and r["status"] >= 400:
                out["failed"].append({"url": r["url"], "error": f"HTTP {r['status']}"})
        elif method == "Page.loadEventFired":
            self.loaded = True

    def close(self):
        self.session = None
        with contextlib.suppress(Died):
            self.send("Browser.close")
        deadline = time.monotonic() + 5
        # Read and drop whatever comes until the browser closes its end, so it never blocks writing.
        while (left := deadline - time.monotonic()) > 0 and select.select([self.from_r], [], [], left)[0]:
            if not os.read(self.from_r, 1 << 20):
                break
        try:
            self.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for fd in (self.to_w, self.from_r):
            os.close(fd)
        shutil.rmtree(self.dir, ignore_errors=True)


def describe(details):
    return details.get("exception", {}).get("description") or details.get("text", "")


def run(b, url, actions, timeout, size):
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})
        b.session = b.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            b.call(domain + ".enable")
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    except (TimeoutError, Failed) as e:
        raise Died(f"the browser did not set up a page: {str(e) or 'no answer within 30 s'}")
    step = "the page load"
    try:
        deadline = time.monotonic() + timeout
        b.loaded = False  # only a load event after this navigation counts
        if error := b.call("Page.navigate", {"url": url}, deadline).get("errorText"):
            raise Failed(f"the page did not load: {error}")
        while not b.loaded:
            if b.pump(deadline) is None:
                raise TimeoutError
        for flag, value in actions:
            step, deadline = f"{flag} {value}", time.monotonic() + timeout
            if flag == "--wait":
                # The newline keeps a trailing // comment in EXPR from eating the parenthesis.
                expr = {"expression": f"!!({value}\n)", "returnByValue": True}
                while not b.call("Runtime.evaluate", expr, deadline)["result"].get("value"):
                    pause = min(deadline, time.monotonic() + 0.1)
                    while b.pump(pause) is not None:  # record events meanwhile
                        pass
            elif flag == "--eval":
                r = b.call("Runtime.evaluate", {"expression": value, "awaitPromise": True, "returnByValue": True},
                           deadline)
                v = r["result"].get("value", r["result"].get("unserializableValue"))  # NaN, 1n...
                b.out["values"].append({"error": describe(r["exceptionDetails"])} if "exceptionDetails" in r else v)
            elif flag == "--shot":
                png = b.call("Page.captureScreenshot", {"format": "png"}, deadline)["data"]
                try:
                    pathlib.Path(value).write_bytes(base64.b64decode(png))
                except OSError as e:
                    raise Failed(f"--shot: {e}")
    except Failed as e:
        b.out.update(ok=False, error=str(e))
    except TimeoutError:
        b.out.update(ok=False, error=f"{step}: timed out after {timeout:g} s")


def parse(argv):
    pairs = list(zip(argv[1::2], argv[2::2]))
    try:
        settings = dict(pairs)  # the last --size and --timeout count, wherever they are
        timeout = float(settings.get("--timeout", 30))
        w, h = (int(n) for n in settings.get("--size", "1000,800").split(","))
        ok = len(argv) % 2 and not argv[0].startswith("--") and all(f in FLAGS for f, _ in pairs)
    except ValueError:
        ok = False
    if not ok:
        print("usage: browse.py URL [--wait EXPR | --eval EXPR | --shot FILE | --size W,H | --timeout S]...",
              file=sys.stderr)
        sys.exit(2)
    url = argv[0] if ":" in argv[0] else pathlib.Path(argv[0]).resolve().as_uri()
    return url, [(f, v) for f, v in pairs if f in FLAGS[:3]], timeout, (w, h)


def main(argv):
    url, actions, timeout, size = parse(argv)
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("browse.py: no chromium or chromium-browser on PATH", file=sys.stderr)
        return 77
    b = None
    try:
        b = Browser(exe)
        run(b, url, actions, timeout, size)
    except Died as e:
        print(f"browse.py: {e}", file=sys.stderr)
        return 1
    finally:
        if b:
            b.close()
    print(json.dumps(b.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
