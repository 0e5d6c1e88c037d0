#!/usr/bin/env bash
# make bench: raw libnats (C) against Muster's Swift layer on the same fresh nats-server, same
# machine, same run; prints each figure and its ratio to the baseline. Targets from issue 2:
# append >= 0.9x raw async publish, replay >= 0.5x raw pull consume.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${BENCH_COUNT:-1000000}
MUSTER=.build/release/muster
BENCH=.build/release/muster-bench
mkdir -p bench/out
work=$(mktemp -d)
cleanup() { [ -n "${nats_pid:-}" ] && kill "$nats_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

echo "building the C baseline (libnats $(pkg-config --modversion libnats))…"
gcc -O2 -o bench/out/raw_js bench/raw_js.c $(pkg-config --cflags --libs libnats)

. bench/lib.sh

start_nats
size=$($BENCH envelope-size --nats-url "$url" 2>/dev/null)
echo "events of $size bytes (the stored envelope), $COUNT of them, $(nproc) cores"
echo "raw libnats: async publish, pull consume, then async publish with an append's headers…"
raw=$(bench/out/raw_js "$url" "$COUNT" "$size" headers)
stop_nats

start_nats
echo "muster: append (validate + envelope + pipelined publish with acks)…"
append=$($BENCH append --count "$COUNT" --nats-url "$url" 2>/dev/null)
echo "muster: replay (rebuild a projection from sequence 1: pull + decode + validate + apply)…"
replay=$($BENCH replay --nats-url "$url" 2>/dev/null)
echo "muster: the pull consumer alone (nothing decoded: what reading the log costs before the fold)…"
pull=$($BENCH pull --nats-url "$url" 2>/dev/null)
stop_nats

echo "muster: the JSON codec against Foundation's on stored envelopes (no NATS)…"
codec=$($BENCH codec --count 100000 2>/dev/null | tr '\n' ' ')

python3 - "$raw" "$append" "$replay" "$codec" "$pull" <<'PY'
import json, sys, platform, os
raw, append, replay = (json.loads(a) for a in sys.argv[1:4])
codec = [json.loads(line) for line in sys.argv[4].replace("} {", "}\n{").splitlines() if line.strip()]
pull = json.loads(sys.argv[5])
rows = [
    ("append vs raw async publish", append["append_per_sec"], raw["publish_per_sec"], 0.9),
    # Not a target of its own: the same baseline once each message carries what an append's does
    # (a unique Nats-Msg-Id the server keeps for deduplication, Nats-Expected-Stream, the event id).
    ("append vs raw publish, same headers", append["append_per_sec"], raw["publish_headers_per_sec"], 0.9),
    ("replay vs raw pull consume", replay["replay_per_sec"], raw["consume_per_sec"], 0.5),
    # Not a target of its own: the ceiling replay has before any event is decoded.
    ("pull alone vs raw pull consume", pull["pull_per_sec"], raw["consume_per_sec"], 0.5),
]
print()
print(f"{'measure':34} {'muster/s':>10} {'raw/s':>10} {'ratio':>7} {'target':>7}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "count": raw["count"],
           "payload_bytes": raw["payload_bytes"], "rows": []}
for name, ours, base, target in rows:
    ratio = ours / base
    mark = "ok" if ratio >= target else "BELOW"
    print(f"{name:34} {ours:>10,} {base:>10,} {ratio:>7.2f} {target:>6.1f}x {mark}")
    results["rows"].append({"name": name, "muster_per_sec": ours, "raw_per_sec": base, "ratio": round(ratio, 3), "target": target})
print()
print(f"{'codec, µs an event':34} {'muster':>10} {'Foundation':>10} {'ratio':>7} {'target':>7}")
for row in codec:
    for way in ("decode", "encode"):
        ours, base = row[f"{way}_us"], row[f"foundation_{way}_us"]
        ratio = base / ours
        name = f"{way} {row['type']} ({row['bytes']} B)"
        print(f"{name:34} {ours:>10.2f} {base:>10.2f} {ratio:>7.2f} {5.0:>6.1f}x {'ok' if ratio >= 5 else 'BELOW'}")
        results["rows"].append({"name": f"codec {name}", "muster_us": ours, "foundation_us": base, "ratio": round(ratio, 3), "target": 5.0})
json.dump(results, open("bench/out/results.json", "w"), indent=1)
print("\nwritten to bench/out/results.json")
PY
