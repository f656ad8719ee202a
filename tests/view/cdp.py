"""A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe):
the standard library is the whole client. Records console errors, uncaught exceptions, log
entries and every network request of the page, and takes screenshots."""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("Chromium is not installed (Debian: chromium; scripts/install-deps.sh installs it)")


class Browser:
    def __init__(self, width=1100, height=700):
        self._profile = tempfile.TemporaryDirectory(prefix="interlink-view-chromium-")
        to_browser_read, to_browser_write = os.pipe()
        from_browser_read, from_browser_write = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4. The pipe ends are first moved
        # above 4 so that placing one cannot overwrite the other; dup2 makes them inheritable, and
        # every other descriptor of this process is close-on-exec (Python's default).
        high_in = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD_CLOEXEC, 10)
        high_out = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD_CLOEXEC, 10)

        def child_fds():
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self.process = subprocess.Popen(
            [chromium_path(), "--headless=new", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
             "--remote-debugging-pipe", "--user-data-dir=" + self._profile.name, "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--mute-audio",
             f"--window-size={width},{height}", "about:blank"],
            close_fds=False, preexec_fn=child_fds, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        for fd in {to_browser_read, from_browser_write, high_in, high_out}:
            os.close(fd)
        self._write = to_browser_write
        self._read = from_browser_read
        self._buffer = b""
        self._next_id = 0
        self.events = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)
        self._profile.cleanup()

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from Chromium")
            ready, _, _ = select.select([self._read], [], [], left)
            if ready:
                chunk = os.read(self._read, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, timeout=60, **params):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        seen = len(self.events)
        while True:
            for event in self.events[seen:]:
                if event["method"] == method:
                    return event
            seen = len(self.events)
            self.events.append(self._receive(deadline))

    def navigate(self, url, timeout=60):
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_event("Page.loadEventFired", timeout)

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (promises awaited); JavaScript exceptions raise."""
        result = self.call("Runtime.evaluate", session=True, timeout=timeout, expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def errors(self):
        """Console errors, uncaught exceptions and error log entries (CSP violations, failed loads)."""
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
            elif method == "Runtime.exceptionThrown":
                found.append("exception: " + json.dumps(params["exceptionDetails"])[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append("log: " + params["entry"]["text"])
        return found

    def requests(self):
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]


# Counts pixels of the 3D view that differ from its background colour (#eef1f4).
DRAWN_PIXELS = """(() => {
  const c = document.querySelector('#il-view canvas');
  const copy = document.createElement('canvas'); copy.width = c.width; copy.height = c.height;
  const g = copy.getContext('2d'); g.drawImage(c, 0, 0);
  const px = g.getImageData(0, 0, c.width, c.height).data;
  let drawn = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (Math.abs(px[i] - 0xee) + Math.abs(px[i + 1] - 0xf1) + Math.abs(px[i + 2] - 0xf4) > 24) drawn++;
  }
  return drawn / (c.width * c.height);
})()"""
