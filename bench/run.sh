#!/usr/bin/env bash
# make bench: raw libnats (C) against Muster's Swift layer on a fresh nats-server, same machine,
# same run, in BENCH_ROUNDS (3) interleaved rounds; prints each row's median figures, the median of
# its rounds' ratios and their spread. Targets from issue 2: append >= 0.9x raw async publish,
# replay >= 0.5x raw pull consume; the codec >= 5x Foundation's.
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

# Each round measures the baseline, then Muster, on a fresh nats-server each: one run on these
# machines swings by more than some targets' margins, so every row is the median of the rounds'
# ratios (each ratio within its own round), printed with their spread.
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  start_nats
  size=$($BENCH envelope-size --nats-url "$url" 2>/dev/null)
  [ "$round" = 1 ] && echo "events of $size bytes (the stored envelope), $COUNT of them, $(nproc) cores, $ROUNDS rounds"
  echo "round $round: raw libnats (async publish, pull consume, async publish with an append's headers)…"
  bench/out/raw_js "$url" "$COUNT" "$size" headers >> "$work/raw.jsonl"
  stop_nats

  start_nats
  echo "round $round: muster append (validate + envelope + pipelined publish with acks), replay (pull + decode + validate + apply), the pull consumer alone…"
  $BENCH append --count "$COUNT" --nats-url "$url" 2>/dev/null >> "$work/append.jsonl"
  $BENCH replay --nats-url "$url" 2>/dev/null >> "$work/replay.jsonl"
  $BENCH pull --nats-url "$url" 2>/dev/null >> "$work/pull.jsonl"
  stop_nats
done

echo "muster: the JSON codec against Foundation's on stored envelopes (no NATS)…"
codec=$($BENCH codec --count 100000 2>/dev/null | tr '\n' ' ')

python3 - "$work" "$codec" <<'PY'
import json, sys, platform, os
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work, codec_lines = sys.argv[1], sys.argv[2]
raw, append, replay, pull = rounds(work, "raw"), rounds(work, "append"), rounds(work, "replay"), rounds(work, "pull")
codec = [json.loads(line) for line in codec_lines.replace("} {", "}\n{").splitlines() if line.strip()]
print()
print(f"{'measure (medians)':36} {HEADER}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "count": raw[0]["count"],
           "payload_bytes": raw[0]["payload_bytes"], "rounds": len(raw), "rows": [
    row("append vs raw async publish", [r["append_per_sec"] for r in append], [r["publish_per_sec"] for r in raw], 0.9, 36),
    # The same baseline once each message carries what an append's does (a unique Nats-Msg-Id the
    # server keeps for deduplication, Nats-Expected-Stream, the event id).
    row("append vs raw publish, same headers", [r["append_per_sec"] for r in append], [r["publish_headers_per_sec"] for r in raw], 0.9, 36),
    row("replay vs raw pull consume", [r["replay_per_sec"] for r in replay], [r["consume_per_sec"] for r in raw], 0.5, 36),
    # Not a target of its own: the ceiling replay has before any event is decoded.
    row("pull alone vs raw pull consume", [r["pull_per_sec"] for r in pull], [r["consume_per_sec"] for r in raw], 0.5, 36),
]}
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
