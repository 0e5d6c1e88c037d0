#!/usr/bin/env python3
"""Bookings under contention: CLIENTS customers book random half-hour slots of the next 250
weekdays at once (the demo org: three walkers, 08:00-17:00 Chicago: 13,500 walks in all, so the
run ends before they run out). Prints requests per second, bookings per second and the share of
answers that were 409 (every walker taken at that time), as `KEY=VALUE` lines."""
import datetime as dt, http.client, json, os, random, sys, threading, time

port, token_file, seconds, clients = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
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

threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
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
