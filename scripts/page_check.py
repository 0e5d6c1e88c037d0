#!/usr/bin/env python3
"""Loads pages in headless Chromium and prints what each shows, as JSON lines.

    page_check.py [--header NAME:VALUE] [--screenshots DIR] URL...

For each URL: the HTTP status, the title, the visible text, and the charts as drawn (how many
<svg class="chart"> with their rendered width, bars, alert marks and line paths). It talks to
Chromium over the DevTools protocol with the standard library only (a minimal WebSocket client),
so the check needs nothing but Debian's `chromium`. Used by the dashboards test; with
--screenshots it also saves a full-page PNG of each page there.
"""
import base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("page_check: no chromium on PATH (Debian: apt-get install chromium)")

class WebSocket:
    def __init__(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            byte = self.sock.recv(1)
            if not byte: raise RuntimeError("chromium closed the websocket during the handshake")
            head += byte
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"websocket handshake failed: {head[:100]!r}")

    def send(self, text):
        data = text.encode()
        header = bytes([0x81])
        n = len(data)
        header += bytes([0x80 | n]) if n < 126 else (bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise RuntimeError("websocket closed")
            out += chunk
        return out

    def receive(self):
        message = b""
        while True:
            b1, b2 = self.exact(2)
            n = b2 & 0x7F
            if n == 126: n = struct.unpack(">H", self.exact(2))[0]
            elif n == 127: n = struct.unpack(">Q", self.exact(8))[0]
            payload = self.exact(n)
            message += payload
            if b1 & 0x80:
                return message.decode()

class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="page-check-")
        # Chromium's own chatter goes to a file, never a pipe nobody drains (a full pipe would stop it);
        # the address to talk to is read from the DevToolsActivePort file it writes once it listens.
        self.log = open(os.path.join(self.profile, "chromium.log"), "w")
        self.proc = subprocess.Popen([chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                      "--no-first-run", "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 60
        while time.time() < deadline and self.proc.poll() is None:
            try:
                with open(port_file) as f: lines = f.read().split("\n")
            except FileNotFoundError:
                lines = []
            if len(lines) >= 2 and lines[0].isdigit() and lines[1].startswith("/"):
                self.ws = WebSocket(f"ws://127.0.0.1:{lines[0]}{lines[1]}")
                self.next_id = 0
                return
            time.sleep(0.1)
        with open(os.path.join(self.profile, "chromium.log"), errors="replace") as f: said = f.read()[-2000:]
        self.close()
        raise RuntimeError(f"chromium did not start within 60 s: {said}")

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session: message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    events = []

    def wait_for(self, method, session, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for e in self.events:
                if e.get("method") == method and e.get("sessionId") == session:
                    self.events.remove(e)
                    return e
            self.events.append(json.loads(self.ws.receive()))
        raise RuntimeError(f"timed out waiting for {method}")

    def close(self):
        self.proc.terminate()
        try: self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

PROBE = """JSON.stringify({
  title: document.title,
  text: document.body ? document.body.innerText : "",
  charts: Array.from(document.querySelectorAll("svg.chart")).map(s => ({
    label: s.getAttribute("aria-label"), width: s.getBoundingClientRect().width, height: s.getBoundingClientRect().height,
    bars: s.querySelectorAll("rect.bar").length, marks: s.querySelectorAll("rect.alert-mark").length,
    lines: s.querySelectorAll("path.series").length})),
  links: Array.from(document.querySelectorAll("a")).map(a => a.getAttribute("href"))
})"""

def main(argv):
    headers, urls, shots = {}, [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--header":
            name, value = argv[i + 1].split(":", 1)
            headers[name.strip()] = value.strip()
            i += 2
        elif argv[i] == "--screenshots":
            shots = argv[i + 1]
            os.makedirs(shots, exist_ok=True)
            i += 2
        else:
            urls.append(argv[i]); i += 1
    browser = Browser()
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Network.enable", session=session)
        browser.call("Page.enable", session=session)
        if headers:
            browser.call("Network.setExtraHTTPHeaders", {"headers": headers}, session=session)
        for url in urls:
            browser.events = [e for e in browser.events if e.get("method") != "Network.responseReceived"]
            browser.call("Page.navigate", {"url": url}, session=session)
            browser.wait_for("Page.loadEventFired", session)
            status = None
            for e in browser.events:
                if e.get("method") == "Network.responseReceived" and e["params"]["type"] == "Document":
                    status = e["params"]["response"]["status"]
            result = browser.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=session)
            page = json.loads(result["result"]["value"])
            page["url"], page["status"] = url, status
            if shots:
                browser.call("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                             session=session)
                shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session=session)
                name = re.sub(r"[^A-Za-z0-9]+", "_", url.split("//", 1)[-1].split("/", 1)[-1] or "index").strip("_") or "index"
                with open(os.path.join(shots, name + ".png"), "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
            print(json.dumps(page), flush=True)
    finally:
        browser.close()

if __name__ == "__main__":
    main(sys.argv[1:])
