#!/usr/bin/env python3
"""Bookings under contention: CLIENTS customers book random half-hour slots of the next 250
weekdays at once (the demo org: three walkers, 08:00-17:00 Chicago: 13,500 walks in all, so the
run ends before they run out), and SERIES_CLIENTS more ask for weekly series of four walks on the
same walkers meanwhile. Prints requests per second, bookings per second, series per second and the
share of answers that were 409 (every walker taken at that time), as `KEY=VALUE` lines; then reads
every booking back and fails if a walker has two walks at once.

usage: offleash_bookings.py PORT TOKEN_FILE SECONDS CLIENTS [SERIES_CLIENTS]"""
import datetime as dt, http.client, json, os, random, sys, threading, time

port, token_file, seconds, clients = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
series_clients = int(sys.argv[5]) if len(sys.argv) > 5 else 0
tokens = [line.split() for line in open(token_file)]  # token service location
lock, counts = threading.Lock(), {}
today = dt.date.today()
days = [d for d in (today + dt.timedelta(days=i) for i in range(1, 400)) if d.weekday() < 5][:250]
starts = [f"{d}T{h:02d}:{m:02d}:00Z" for d in days for h in range(14, 23) for m in (0, 30)]  # 08:00-17:00 Chicago (CST)
deadline = time.time() + seconds

def run(index):
    token, service, location = tokens[index % len(tokens)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.time() < deadline:
        body = json.dumps({"walker_id": None, "service_id": service, "location_id": location, "start_time": random.choice(starts)})
        conn.request("POST", "/bookings", body, {"Content-Type": "application/json", "Authorization": "Bearer " + token})
        response = conn.getresponse()
        response.read()
        with lock:
            counts[response.status] = counts.get(response.status, 0) + 1

series_counts = {}


def series(index):
    """Weekly series of four walks at a weekday and half hour of Chicago's working day, from a
    random week: the same walkers' time as the single bookings."""
    token, service, location = tokens[index % len(tokens)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.time() < deadline:
        day = random.choice(days[:200])
        minute = random.choice(range(8 * 60, 17 * 60, 30))
        clock = f"{(minute // 60 - 1) % 12 + 1}:{minute % 60:02d} {'AM' if minute < 720 else 'PM'}"
        body = json.dumps({"service_id": service, "location_id": location, "frequency": "weekly", "day_of_week": (day.weekday() + 1) % 7,
                           "start_time": clock, "start_date": str(day), "occurrences": 4})
        conn.request("POST", "/bookings/recurring", body, {"Content-Type": "application/json", "Authorization": "Bearer " + token})
        response = conn.getresponse()
        response.read()
        with lock:
            series_counts[response.status] = series_counts.get(response.status, 0) + 1


threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
threads += [threading.Thread(target=series, args=(i,)) for i in range(series_clients)]
began = time.time()
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.time() - began
total = sum(counts.values())
print(f"requests={total}")
print(f"rps={int(total / elapsed)}")
print(f"created={counts.get(201, 0)}")
print(f"booked_per_second={int(counts.get(201, 0) / elapsed)}")
print(f"conflicted={counts.get(409, 0)}")
print(f"other={total - counts.get(201, 0) - counts.get(409, 0)} {json.dumps({str(k): v for k, v in counts.items()})}")
if series_clients:
    made = series_counts.get(201, 0) + series_counts.get(200, 0)
    print(f"series_requests={sum(series_counts.values())}")
    print(f"series_made={made}")
    print(f"series_per_second={made / elapsed:.1f}")
    print(f"series_conflicted={series_counts.get(409, 0)}")
    print(f"series_other={sum(series_counts.values()) - made - series_counts.get(409, 0)} {json.dumps({str(k): v for k, v in series_counts.items()})}")

# No walker has two walks at once: every customer's bookings read back, grouped by walker.
walks, seen = {}, set()
for token, _, _ in tokens:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/bookings/customer", None, {"Authorization": "Bearer " + token})
    for booking in json.loads(conn.getresponse().read()):
        if booking["status"] != "cancelled" and booking["id"] not in seen:
            seen.add(booking["id"])
            walks.setdefault(booking["walker_id"], []).append((booking["scheduled_start"], booking["scheduled_end"]))
overlaps = sum(1 for times in walks.values() for a, b in zip(sorted(times), sorted(times)[1:]) if b[0] < a[1])
print(f"walks={len(seen)}")
print(f"overlaps={overlaps}")
