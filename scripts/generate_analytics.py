#!/usr/bin/env python3
"""Publishes a realistic week of OFFLEASH app traffic into a running Muster (`make run` first),
through the collector's own routes, so the dashboards have something to show:

  * about 1,800 people on iPhones, 3,700+ sessions over the seven days before today (UTC), more in
    the evening;
  * the booking funnel Login/Register -> Services -> Location -> Booking Start -> Booking Complete,
    with drop-off at each step (returning people convert better), on app versions 2.2.0 and 2.3.0;
  * screen views with time on screen; time to interactive per list screen, from cache or network;
  * API calls with a 1 % background failure rate, and an error spike: three days ago at 14:00 a promo
    push brings 300 extra people while POST /bookings fails a third of the time for 45 minutes;
  * crashes: a rare SIGABRT in LocationStore, and a wave of EXC_BAD_ACCESS in ServicesViewModel on
    2.3.0 two days ago between 18:00 and 20:00 UTC (the crash-spike alert);
  * a few devices whose clocks are hours off (the collector corrects them), and PII in error
    messages and breadcrumbs (the collector redacts it before the log).

Each session's events go in one gzip batch, in the order the sessions happened, sent now as an app
coming back online would; event ids are stable, so running it twice stores nothing new. Prints the dashboard URL and a key
that opens it. Standard library only.

    scripts/generate_analytics.py [--people 1500] [--seed 4]
"""
import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request

URL = os.environ.get("MUSTER_URL", "http://127.0.0.1:8080")
MUSTER = os.environ.get("MUSTER", ".build/debug/muster")
KEYS_FILE = os.environ.get("MUSTER_ANALYTICS_KEYS", ".data/demo_analytics_keys.json")
STEPS = ["services", "location", "booking_start", "booking_complete"]
DEVICES = ["iPhone15,2", "iPhone15,3", "iPhone14,5", "iPhone16,1", "iPhone13,2", "iPhone12,1"]
OS_VERSIONS = ["17.5", "17.4.1", "18.1", "16.7.8"]


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + ".%03dZ" % (ms % 1000)


def post(path, key, body):
    data = gzip.compress(json.dumps(body).encode())
    request = urllib.request.Request(URL + path, data=data, method="POST")
    for name, value in (("X-API-Key", key), ("Content-Type", "application/json"), ("Content-Encoding", "gzip")):
        request.add_header(name, value)
    for attempt in range(5):
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            if error.code in (429, 503) and attempt < 4:
                time.sleep(float(error.headers.get("Retry-After", "1")))
                continue
            sys.exit(f"{path}: {error.code} {error.read().decode()[:300]}")
        except urllib.error.URLError as error:
            sys.exit(f"cannot reach {URL} ({error.reason}); start it with `make run`")


def keys():
    """A collector key and a dashboard key for offleash, kept in .data so reruns reuse them."""
    try:
        with open(KEYS_FILE) as f:
            saved = json.load(f)
        request = urllib.request.Request(URL + "/api/platform/whoami", headers={"X-API-Key": saved["write"]})
        urllib.request.urlopen(request, timeout=10).close()
        return saved
    except (OSError, ValueError, KeyError, urllib.error.URLError):
        pass

    def issue(scopes, label):
        out = subprocess.run([MUSTER, "keys", "issue", "--app", "offleash", "--scopes", scopes, "--label", label],
                             check=True, capture_output=True, text=True)
        return out.stdout.strip()

    saved = {"write": issue("write:analytics,write:crashes", "analytics generator"),
             "read": issue("read:analytics", "analytics dashboards")}
    os.makedirs(os.path.dirname(KEYS_FILE), exist_ok=True)
    with open(KEYS_FILE, "w") as f:
        json.dump(saved, f)
    time.sleep(1.5)  # the keys projection picks them up
    return saved


class Week:
    def __init__(self, rng, people, now_ms):
        self.rng, self.people, self.now = rng, people, now_ms
        # The seven whole days before today (UTC): the same traffic all day, so a rerun stores nothing new.
        midnight = now_ms - now_ms % 86_400_000
        self.day0 = midnight - 7 * 86_400_000
        self.promo = midnight - 3 * 86_400_000 + 14 * 3_600_000           # 3 days ago, 14:00 UTC
        self.wave = midnight - 2 * 86_400_000 + 18 * 3_600_000            # 2 days ago, 18:00 UTC
        self.counts = {"sessions": 0, "events": 0, "crashes": 0}

    def session_start(self):
        """A time in the week, weighted to the evening; sessions end before today begins."""
        while True:
            t = self.day0 + self.rng.randrange(7 * 86_400_000 - 3_600_000)
            hour = (t // 3_600_000) % 24
            if self.rng.random() < (0.35 + 0.65 * (17 <= hour <= 22)):
                return t

    def in_wave(self, version, t):
        return version == "2.3.0" and self.wave <= t < self.wave + 2 * 3_600_000

    def session(self, person, index, start, returning, version, promo=False):
        rng = self.rng
        sid = f"p{person}-s{index}"
        events, crashes = [], []
        t = start
        seq = 0

        def add(kind, **fields):
            nonlocal seq, t
            seq += 1
            t += rng.randrange(400, 9000)
            events.append({"id": f"{sid}-{seq}", "type": kind, "created_at": t, "session_id": sid, **fields})

        def api(method, path, fail_rate=0.01):
            retries = 0
            while True:
                failed = rng.random() < fail_rate
                fields = {"method": method, "endpoint": path, "status": 503 if failed else 200,
                          "duration_ms": rng.randrange(900, 3000) if failed else rng.randrange(60, 700), "retry_count": retries}
                if failed:
                    fields["error"] = {"type": "server", "message": f"503 from {path} for walker-{person}@offleash.app"}
                add("api_call", **fields)
                if not failed or retries == 2:
                    return not failed
                retries += 1

        first = "login" if returning or rng.random() < 0.3 else "register"
        screen = "Login" if first == "login" else "Register"
        add("screen_view", screen=screen, duration_ms=rng.randrange(4000, 40000))
        api("POST", "/auth/login" if first == "login" else "/auth/register")
        add("funnel_step", funnel="booking", step=first, segment="returning" if returning else "new")
        cached = returning and rng.random() < 0.7
        # Who goes how far (returning people are likelier to finish).
        go = [0.86, 0.62 + 0.1 * returning, 0.5 + 0.15 * returning, 0.75 + 0.15 * returning]
        if promo:
            go[0] = 0.95
            go[1] = 0.8
            go[2] = 0.8
        def list_screen(name, path, cache_mu, network_mu, longest):
            # A list view: shown, loaded from the cache (tens of ms) or the network (hundreds), fetched.
            add("screen_view", screen=name, previous_screen=prev, duration_ms=rng.randrange(2000, longest))
            ms = int(rng.lognormvariate(cache_mu, 0.45)) if cached else int(rng.lognormvariate(network_mu, 0.45))
            add("time_to_interactive", screen=name, duration_ms=ms, source="cache" if cached else "network")
            api("GET", path)
            return name

        prev = screen
        crash_now = False
        for k, step in enumerate(STEPS):
            if rng.random() > go[k]:
                break
            if step == "services":
                prev = list_screen("Services", "/services?active=true", 3.7, 5.6, 60000)
                if self.in_wave(version, t) and rng.random() < 0.35:
                    crash_now = True
                    break
            elif step == "location":
                prev = list_screen("LocationSelection", "/locations", 4.0, 5.4, 45000)
            elif step == "booking_start":
                add("screen_view", screen="Booking", previous_screen=prev, duration_ms=rng.randrange(5000, 90000))
            add("funnel_step", funnel="booking", step=step, segment="returning" if returning else "new")
            if step == "booking_start":
                spiking = self.promo <= t < self.promo + 45 * 60_000
                if not api("POST", f"/bookings?idempotency_key={sid}", fail_rate=0.33 if spiking else 0.01):
                    break
        if not crash_now and rng.random() < 0.002:
            crash_now = True
        if rng.random() < 0.2:
            add("custom", name="promo_banner_tapped" if promo else "walker_profile_viewed",
                properties={"position": rng.randrange(1, 5), "logged_in": True})
        if crash_now:
            crashes.append(self.crash(sid, t + 500, version, person, self.in_wave(version, t)))
        self.counts["sessions"] += 1
        self.counts["events"] += len(events)
        self.counts["crashes"] += len(crashes)
        return events, crashes

    def crash(self, sid, t, version, person, wave):
        if wave:
            exc = {"type": "EXC_BAD_ACCESS", "reason": "KERN_INVALID_ADDRESS at 0x0000000000000010"}
            frames = [{"function": f"closure #{self.rng.randrange(1, 3)} in ServicesViewModel.apply(_:) + {self.rng.randrange(40, 200)}",
                       "module": "OFFLEASH", "file": "ServicesViewModel.swift", "line": 142, "in_app": True},
                      {"function": "ServicesCache.merge(into:)", "module": "OFFLEASH", "file": "ServicesCache.swift", "line": 77, "in_app": True},
                      {"function": "swift_task_switch", "module": "libswift_Concurrency.dylib", "in_app": False}]
        else:
            exc = {"type": "SIGABRT", "reason": "Fatal error: Index out of range"}
            frames = [{"function": "LocationStore.select(at:) + 88", "module": "OFFLEASH", "file": "LocationStore.swift", "line": 54, "in_app": True},
                      {"function": "LocationSelectionView.body.getter", "module": "OFFLEASH", "file": "LocationSelectionView.swift", "line": 31, "in_app": True}]
        frames.append({"function": "UIApplicationMain", "module": "UIKitCore", "in_app": False})
        crumbs = [{"timestamp": t - 9000, "category": "navigation", "message": "Login -> Services"},
                  {"timestamp": t - 4000, "category": "http", "message": f"POST /bookings as walker-{person}@offleash.app", "level": "info"}]
        return {"id": f"{sid}-crash", "created_at": t, "session_id": sid, "exception": exc, "frames": frames, "breadcrumbs": crumbs,
                "context": None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    k = keys()
    now = int(time.time() * 1000)
    week = Week(rng, args.people, now)
    sessions = []
    for person in range(args.people + 300):
        promo = person >= args.people  # the promo crowd, all within the spike's 45 minutes
        version = "2.3.0" if rng.random() < 0.7 else "2.2.0"
        skew = rng.choice([-7_200_000, 3_600_000 * 5]) if rng.random() < 0.04 else 0
        context = {"app_version": version, "build": "412" if version == "2.3.0" else "388", "os_name": "iOS",
                   "os_version": rng.choice(OS_VERSIONS), "device_model": rng.choice(DEVICES), "anonymous_id": f"inst-{args.seed}-{person}",
                   "locale": "en_US"}
        count = 2 if promo else rng.choice([1, 1, 1, 2, 2, 3, 5])
        starts = sorted(week.promo + rng.randrange(45 * 60_000) if promo and i == 0 else week.session_start() for i in range(count))
        for i, start in enumerate(starts):
            events, crashes = week.session(person, i, start, returning=i > 0 or rng.random() < 0.4, version=version, promo=promo and i == 0)
            sessions.append((start, context, skew, events, crashes))
    # Each session's batch goes when the session ends, in the order they happened, as the apps would
    # have sent them; `sent_at` is now (on the device's clock), as for an app that was offline since.
    sessions.sort(key=lambda s: s[0])
    stored = duplicates = rejected = 0
    started = time.time()
    for n, (start, context, skew, events, crashes) in enumerate(sessions):
        sent = now + skew
        for event in events:
            event["created_at"] = iso(event["created_at"] + skew)
        answer = post("/api/analytics/events", k["write"], {"sent_at": iso(sent), "context": context, "events": events})
        stored += answer["accepted"]
        duplicates += answer["duplicates"]
        rejected += len(answer["rejected"])
        if crashes:
            for report in crashes:
                report["context"] = context
                report["created_at"] = iso(report["created_at"] + skew)
                for crumb in report["breadcrumbs"]:
                    crumb["timestamp"] = iso(crumb["timestamp"] + skew)
            post("/api/analytics/crashes", k["write"], {"sent_at": iso(sent), "reports": crashes})
        if n % 250 == 0:
            print(f"\r  {n + 1}/{len(sessions)} sessions, {stored} events stored", end="", flush=True)
    print(f"\r  {args.people + 300} people, {week.counts['sessions']} sessions, {week.counts['events']} events "
          f"({stored} new, {duplicates} already stored, {rejected} refused), {week.counts['crashes']} crashes "
          f"in {time.time() - started:.1f} s")
    print(f"""
  Dashboards: {URL}/dashboards   (sign in with the key below)
    read key: {k['read']}
  JSON:       curl -H "X-API-Key: {k['read']}" {URL}/api/analytics/funnel
              curl -H "X-API-Key: {k['read']}" {URL}/api/analytics/errors
  Alerts raised by the spike and the crash wave: {URL}/dashboards/errors and {URL}/dashboards/crashes
""")


if __name__ == "__main__":
    main()
