#!/usr/bin/env python3
"""The soak (make soak; make bench runs 10 minutes of it): a steady mixed load of the five apps' real
calls against a running Muster for SOAK_MINUTES, sampling the server process every 10 s.

  soak.py URL PID MINUTES OUT_DIR        (keys and accounts from scripts/soak.sh's setup, in the environment)
  soak.py URL containers MINUTES OUT_DIR (the compose stack: SOAK_CONTAINERS names the muster containers)

Each 10 s sample: RSS and open files and threads (the kernel's tasks) of PID (from /proc), the
JetStream consumers on every stream (nats-server's /jsz), the largest projection lag (/ready), and p50/p99 per route of the calls made in those 10 s; of the compose stack, the sums of every
muster container's RSS, open files and threads and the largest lag of any of their folds, from each
one's /metrics (muster_process_*, muster_projection_lag). Written to OUT_DIR/NAME.csv and drawn to
OUT_DIR/NAME.png (RSS, open files, p99, lag over time; NAME is SOAK_NAME, `soak` unless set). The run fails (exit 1) if, after the first
tenth (warm-up), RSS or open files keep growing (the last third's median over the first third's by more
than 10 % / 20 descriptors, and a positive slope throughout), if consumers grow by more than two, if the p99 of all calls drifts by more than
50 % between the first and last third, or if more than 1 % of calls fail."""
import collections, csv, json, os, random, ssl, struct, subprocess, sys, threading, time, urllib.error, urllib.request, uuid, zlib

URL, TARGET, MINUTES, OUT = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
ENV = os.environ
NAME = ENV.get("SOAK_NAME", "soak")
INTERVAL = 10.0
lock = threading.Lock()
timings = collections.defaultdict(list)   # route -> [ms] in the current interval
failures = collections.Counter()          # route -> failed calls (whole run)
calls = collections.Counter()             # route -> calls (whole run)
said = {}                                 # route -> the first failure's answer
stop = threading.Event()


def call(route, method, path, body=None, headers=None, expect=(200, 201, 202, 204), answer_headers=False):
    data = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
    request = urllib.request.Request(URL + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    started = time.perf_counter()
    answered = {}
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text, answered = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, text, answered = error.code, error.read(), error.headers
    except Exception as error:  # no answer at all
        status, text = 0, str(error).encode()
    elapsed = (time.perf_counter() - started) * 1000
    with lock:
        calls[route] += 1
        timings[route].append(elapsed)
        if status not in expect:
            failures[route] += 1
            said.setdefault(route, f"{status}: {text[:200].decode(errors='replace')}")
    return (status, text, answered) if answer_headers else (status, text)


def js(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def now_iso(offset=0):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + offset))


# Each scenario is one app's client doing what it does, paced to a steady rate.
def opl(rng, n):
    key = {"X-API-Key": ENV["SOAK_OPL_KEY"]}
    call("opl read", "GET", "/api/mobile/data?lat=44.0805&lng=-103.2310", headers=key, expect=(200, 304))
    if n % 3 == 0:
        call("opl submit", "POST", "/api/mobile/submit-strike", {
            "employer": {"name": f"Soak Freight {rng.randrange(50)}"},
            "action": {"organization": "Local 1", "actionType": "strike", "location": "Rapid City, SD",
                       "startDate": time.strftime("%Y-%m-%d"), "durationDays": 3, "description": f"soak {uuid.uuid4()}"}},
             headers={**key, "Idempotency-Key": str(uuid.uuid4())})


def offleash(rng, n, tokens):
    if n % 10 == 0 or "casey" not in tokens:  # a sign-in now and then: argon2, the costliest call
        status, text = call("offleash sign-in", "POST", "/auth/login", {"org_slug": "demo", "email": "casey@offleash.demo", "password": ENV["SOAK_OFFLEASH_PASSWORD"]})
        if status == 200:
            tokens["casey"] = js(text).get("token")
    if "sam" not in tokens:
        status, text = call("offleash sign-in", "POST", "/auth/login", {"org_slug": "demo", "email": "sam@offleash.demo", "password": ENV["SOAK_OFFLEASH_PASSWORD"]})
        if status == 200:
            tokens["sam"] = js(text).get("token")
    customer = {"Authorization": f"Bearer {tokens.get('casey')}"}
    call("offleash bookings", "GET", "/bookings/customer", headers=customer)
    call("offleash services", "GET", "/services?active=true", headers=customer, expect=(200, 304))
    call("offleash walker day", "GET", "/bookings/walker", headers={"Authorization": f"Bearer {tokens.get('sam')}"})


def pop(rng, n, install):
    key = {"X-API-Key": ENV["SOAK_POP_KEY"]}
    changes = [{"mutationId": str(uuid.uuid4()), "card": {"deck": "us-civics", "questionId": rng.randrange(1, 40), "timesViewed": n + 1,
                "lastViewed": now_iso(-1), "isMarkedKnown": rng.random() < 0.5, "changedAt": now_iso(-1)}} for _ in range(4)]
    call("pop sync", "POST", f"/api/pop/installs/{install}/changes", {"org": "pop-sd", "sentAt": now_iso(), "changes": changes}, headers=key)
    if n % 5 == 0:
        call("pop progress", "GET", f"/api/pop/installs/{install}/progress", headers=key)


def analytics(rng, n):
    session = f"soak-{uuid.uuid4().hex[:12]}"
    events = [{"id": f"{session}-{i}", "type": "screen_view", "created_at": now_iso(-5), "session_id": session,
               "screen": rng.choice(["Home", "Services", "Booking", "Profile"]), "duration_ms": rng.randrange(500, 30000)} for i in range(50)]
    context = {"app_version": "2.3.0", "build": "412", "os_name": "iOS", "os_version": "17.5", "device_model": "iPhone15,2", "anonymous_id": session}
    call("analytics batch", "POST", "/api/analytics/events", {"sent_at": now_iso(), "context": context, "events": events},
         headers={"X-API-Key": ENV["SOAK_ANALYTICS_KEY"]})


def push(rng, n, device):
    call("push", "POST", "/api/push", {"audience": {"deviceIds": [device]}, "title": "Soak", "body": f"message {n}", "screen": "home"},
         headers={"X-API-Key": ENV["SOAK_PUSH_KEY"]})


def field(rng, n, tokens):
    if n % 20 == 0 or "field" not in tokens:
        status, text = call("field sign-in", "POST", "/api/field/auth/login", {"org_slug": "acme-build", "email": "ana@acme.demo", "password": ENV["SOAK_FIELD_PASSWORD"]})
        if status == 200:
            tokens["field"] = js(text).get("token") or js(text).get("accessToken")
    bearer = {"Authorization": f"Bearer {tokens.get('field')}"}
    call("field changes", "GET", "/api/field/changes", headers=bearer)
    if n % 10 == 0:  # a 64 KB photo every 5 s, resumably as the app sends it: created with half, the rest appended
        photo = b"\xff\xd8\xff\xe0" + rng.randbytes(65532)  # a JPEG's first bytes: the server looks at them
        status, _, answered = call("field upload", "POST", "/api/field/uploads", photo[:32768], answer_headers=True,
                                   headers={**bearer, "Content-Type": "image/jpeg", "Upload-Complete": "?0", "Upload-Length": str(len(photo))})
        if status == 201 and answered.get("Location"):
            call("field upload", "PATCH", answered["Location"], photo[32768:],
                 headers={**bearer, "Content-Type": "application/partial-upload", "Upload-Offset": "32768", "Upload-Complete": "?1",
                          "Upload-Draft-Interop-Version": "6"})


def client(name, every, body):
    rng = random.Random(name)
    n = 0
    state = {}
    next_at = time.monotonic()
    while not stop.is_set():
        body(rng, n, state)
        n += 1
        next_at += every
        stop.wait(max(0, next_at - time.monotonic()))


def proc(field_name):
    try:
        with open(f"/proc/{TARGET}/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        return None


def inside(container, url):
    """What `url` answers inside `container` (its own ports are not published); "" when it does not answer."""
    try:
        return subprocess.run(["docker", "exec", container, "curl", "-fs", url], capture_output=True, text=True, timeout=20).stdout
    except subprocess.TimeoutExpired:
        return ""


def containers():
    """RSS (kB), open files and threads summed over the compose stack's muster containers, and the
    largest projection lag of any of them, from each one's /metrics (its own port, inside it)."""
    totals = collections.Counter()
    lag = 0
    for container in ENV["SOAK_CONTAINERS"].split():
        text = inside(container, "localhost:9464/metrics")
        for line in text.splitlines():
            name, _, value = line.rpartition(" ")
            metric = name.split("{")[0]
            try:
                number = float(value)
            except ValueError:
                continue
            if metric in ("muster_process_resident_memory_bytes", "muster_process_open_fds", "muster_process_threads"):
                totals[metric] += number
            elif metric == "muster_projection_lag":
                lag = max(lag, int(number))
    return (int(totals["muster_process_resident_memory_bytes"] / 1024), int(totals["muster_process_open_fds"]),
            int(totals["muster_process_threads"]), lag)


def process():
    """RSS (kB), open files and threads of the process TARGET (/proc), and the largest projection lag (/ready)."""
    try:
        fds = len(os.listdir(f"/proc/{TARGET}/fd"))
    except OSError:
        fds = None
    try:
        with urllib.request.urlopen(URL + "/ready", timeout=10) as response:
            ready = json.load(response)
    except urllib.error.HTTPError as error:
        ready = js(error.read())
    except Exception:
        ready = {}
    lag = max([p.get("lag", 0) for p in ready.get("projections", [])] or [0])
    return proc("VmRSS"), fds, proc("Threads"), lag


def consumers():
    """JetStream consumers on every stream (nats-server's /jsz): folds and processors hold one each,
    so a count that climbs is a leak (a consumer made per request, or never deleted)."""
    try:
        if TARGET == "containers":
            text = inside(ENV["SOAK_NATS_CONTAINER"], "localhost:8222/jsz?accounts=true&streams=true")
        else:
            with urllib.request.urlopen(f"http://127.0.0.1:{ENV['NATS_MONITOR_PORT']}/jsz?accounts=true&streams=true", timeout=10) as response:
                text = response.read()
        jsz = json.loads(text)
    except Exception:
        return None
    return sum(s.get("state", {}).get("consumer_count", 0) for a in jsz.get("account_details", []) for s in a.get("stream_detail", []))


def sample():
    rss, fds, threads, lag = containers() if TARGET == "containers" else process()
    with lock:
        interval = {route: sorted(values) for route, values in timings.items()}
        timings.clear()
    return rss, fds, threads, lag, consumers(), interval


def percentile(values, p):
    return values[min(len(values) - 1, int(p * len(values)))] if values else 0.0


# A 3x5 font for the chart's labels (rows top to bottom, 3 bits each): enough for titles and numbers.
FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111", "4": "101101111001001",
    "5": "111100111001111", "6": "111100111101111", "7": "111001010010010", "8": "111101111101111", "9": "111101111001111",
    ".": "000000000000010", "-": "000000111000000", "+": "000010111010000", " ": "000000000000000", ":": "000010000010000",
    "A": "010101111101101", "B": "110101110101110", "E": "111100110100111", "F": "111100110100100", "G": "111100101101111",
    "I": "111010010010111", "L": "100100100100111", "M": "101111111101101", "N": "110101101101101", "O": "111101101101111",
    "P": "111101111100100", "R": "110101110101101", "S": "111100111001111", "X": "101101010101101", "H": "101101111101101",
    "J": "001001001101111", "T": "111010010010010", "Y": "101101010010010", "D": "110101101101110", "C": "111100100100111", "U": "101101101101111",
}


def png(path, series, seconds, width=960, panel=160, scale=2):
    """Each (title, values) a panel of a line chart with its title, its lowest and highest value and the
    time axis, black on white, drawn by hand: no plotting library."""
    height = panel * len(series)
    pixels = bytearray([255] * (width * height))
    left = 90
    def dot(x, y):
        if 0 <= x < width and 0 <= y < height:
            pixels[y * width + x] = 0
    def text(x, y, words):
        for i, ch in enumerate(words.upper()):
            glyph = FONT.get(ch, FONT[" "])
            for row in range(5):
                for col in range(3):
                    if glyph[row * 3 + col] == "1":
                        for dy in range(scale):
                            for dx in range(scale):
                                dot(x + i * 4 * scale + col * scale + dx, y + row * scale + dy)
    for index, (title, values) in enumerate(series):
        top = index * panel
        bottom = top + panel - 30
        for x in range(left, width - 10):
            dot(x, bottom)
        for y in range(top + 20, bottom):
            dot(left, y)
        text(left + 10, top + 4, title)
        values = [v if v is not None else 0 for v in values]
        if not values:
            continue
        low, high = min(values), max(values)
        text(4, top + 20, f"{high:g}")
        text(4, bottom - 10, f"{low:g}")
        text(left, bottom + 6, "0 S")
        text(width - 90, bottom + 6, f"{seconds} S")
        if len(values) < 2:
            continue
        span = (high - low) or 1
        points = [(left + int(i * (width - left - 20) / (len(values) - 1)), bottom - 1 - int((v - low) * (bottom - top - 24) / span))
                  for i, v in enumerate(values)]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for s in range(steps + 1):
                dot(x0 + (x1 - x0) * s // steps, y0 + (y1 - y0) * s // steps)
    raw = b"".join(b"\x00" + bytes(pixels[y * width:(y + 1) * width]) for y in range(height))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    os.makedirs(OUT, exist_ok=True)
    clients = [
        ("opl", 0.2, lambda rng, n, s: opl(rng, n)),
        ("offleash", 0.5, lambda rng, n, s: offleash(rng, n, s)),
        ("pop", 0.3, lambda rng, n, s: pop(rng, n, ENV["SOAK_POP_INSTALL"])),
        ("analytics", 0.5, lambda rng, n, s: analytics(rng, n)),
        ("push", 1.0, lambda rng, n, s: push(rng, n, ENV["SOAK_PUSH_DEVICE"])),
        ("field", 0.5, lambda rng, n, s: field(rng, n, s)),
    ]
    threads = [threading.Thread(target=client, args=c, daemon=True) for c in clients]
    for t in threads:
        t.start()
    rows = []
    started = time.monotonic()
    end = started + MINUTES * 60
    while time.monotonic() < end:
        time.sleep(min(INTERVAL, max(0, end - time.monotonic())))
        rss, fds, nthreads, lag, nconsumers, interval = sample()
        merged = sorted(v for values in interval.values() for v in values)
        row = {"seconds": round(time.monotonic() - started), "rss_mb": round((rss or 0) / 1024, 1), "open_files": fds, "threads": nthreads,
               "consumers": nconsumers, "max_lag": lag, "calls": len(merged), "p50_ms": round(percentile(merged, 0.5), 2), "p99_ms": round(percentile(merged, 0.99), 2)}
        for route, values in sorted(interval.items()):
            row[f"{route} p50"] = round(percentile(values, 0.5), 2)
            row[f"{route} p99"] = round(percentile(values, 0.99), 2)
        rows.append(row)
        print(f"soak {row['seconds']:5d} s: rss {row['rss_mb']} MB, {fds} files, {nthreads} threads, {nconsumers} consumers, lag {lag}, "
              f"{len(merged)} calls, p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms", flush=True)
    stop.set()
    for t in threads:
        t.join(timeout=40)

    leading = ["seconds", "rss_mb", "open_files", "threads", "consumers", "max_lag", "calls", "p50_ms", "p99_ms"]
    columns = leading + sorted({key for row in rows for key in row} - set(leading))
    with open(os.path.join(OUT, f"{NAME}.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    png(os.path.join(OUT, f"{NAME}.png"), [("RSS MB", [r["rss_mb"] for r in rows]), ("open files", [r["open_files"] for r in rows]),
                                        ("JetStream consumers", [r["consumers"] or 0 for r in rows]),
                                        ("p99 MS", [r["p99_ms"] for r in rows]), ("max projection lag", [r["max_lag"] for r in rows])],
        rows[-1]["seconds"] if rows else 0)

    # The verdict, after the warm-up tenth.
    settled = rows[max(1, len(rows) // 10):]
    third = max(1, len(settled) // 3)
    first, last = settled[:third], settled[-third:]
    median = lambda values: sorted(values)[len(values) // 2]
    def slope(key):
        xs = [r["seconds"] for r in settled]
        ys = [r[key] or 0 for r in settled]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        den = sum((x - mx) ** 2 for x in xs) or 1
        return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den
    problems = []
    rss_first, rss_last = median([r["rss_mb"] for r in first]), median([r["rss_mb"] for r in last])
    files_first, files_last = median([r["open_files"] or 0 for r in first]), median([r["open_files"] or 0 for r in last])
    p99_first, p99_last = median([r["p99_ms"] for r in first]), median([r["p99_ms"] for r in last])
    rss_slope, files_slope = slope("rss_mb") * 3600, slope("open_files") * 3600
    if rss_last > rss_first * 1.10 and rss_slope > 0:
        problems.append(f"RSS grows: {rss_first} MB → {rss_last} MB ({rss_slope:+.1f} MB an hour)")
    if files_last > files_first + 20 and files_slope > 0:
        problems.append(f"open files grow: {files_first} → {files_last} ({files_slope:+.1f} an hour)")
    consumers_first, consumers_last = median([r["consumers"] or 0 for r in first]), median([r["consumers"] or 0 for r in last])
    if consumers_last > consumers_first + 2:
        problems.append(f"JetStream consumers grow: {consumers_first} → {consumers_last}")
    # A third of fewer than six samples (a run under about four minutes) holds too few slow calls
    # for its median p99 to say anything: the drift is printed, not judged.
    if p99_last > p99_first * 1.5 and third >= 6:
        problems.append(f"p99 drifts: {p99_first} ms → {p99_last} ms")
    elif third < 6:
        print(f"soak: {third} samples a third: too few to judge p99's drift (a run of four minutes or more is judged)")
    total, failed = sum(calls.values()), sum(failures.values())
    if total == 0 or failed > total * 0.01:
        problems.append(f"{failed} of {total} calls failed: " + "; ".join(f"{r}: {said[r]}" for r in sorted(said)))
    print(f"soak: {MINUTES:g} min, {total} calls ({failed} failed) over {len(calls)} routes; after the first tenth: "
          f"RSS {rss_first} → {rss_last} MB (slope {rss_slope:+.1f} MB/h), open files {files_first} → {files_last} "
          f"(slope {files_slope:+.1f}/h), consumers {consumers_first} → {consumers_last}, p99 {p99_first} → {p99_last} ms ({(p99_last / p99_first - 1) * 100 if p99_first else 0:+.0f} %); "
          f"{os.path.join(OUT, NAME + '.csv')}, {os.path.join(OUT, NAME + '.png')}")
    for route in sorted(calls):
        print(f"soak:   {route}: {calls[route]} calls, {failures[route]} failed" + (f" (first: {said[route]})" if route in said else ""))
    if problems:
        print("soak: FAILED: " + "; ".join(problems))
        sys.exit(1)
    print("soak: flat: no growth of RSS, open files or consumers after the warm-up" + (", p99 within 50 %" if third >= 6 else ""))


if __name__ == "__main__":
    main()
