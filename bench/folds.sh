#!/usr/bin/env bash
# make bench, the folds the later issues added (issue 59), release build, a fresh nats-server for
# each run, in BENCH_ROUNDS (3) interleaved rounds (each row: the median of its rounds' ratios, and
# the spread; bench/rounds.py):
#   1. the people fold rebuilt from sequence 1 over BENCH_FOLD_EVENTS (300k) sessions started (one
#      each sign-in appends) vs raw pull consume of as many messages of the same size; target >= 0.5x;
#   2. the notifications fold (the scheduler's: what is due when) rebuilt over as many reminders
#      scheduled (two each walk booked) vs the same baseline; target >= 0.5x.
# Each rebuild's time includes writing its snapshot, as a rebuild's does.
set -euo pipefail
cd "$(dirname "$0")/.."

EVENTS=${BENCH_FOLD_EVENTS:-300000}
BENCH=.build/release/muster-bench
mkdir -p bench/out
work=$(mktemp -d)
nats_pid=""
cleanup() { [ -n "$nats_pid" ] && kill "$nats_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

[ -x bench/out/raw_js ] || gcc -O2 -o bench/out/raw_js bench/raw_js.c $(pkg-config --cflags --libs libnats)
. bench/lib.sh

echo "== later folds: sessions and the scheduler's reminders rebuilt, vs raw pull consume ($EVENTS events, $(nproc) cores)"
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  for fold in sessions reminders; do
    start_nats
    echo "round $round: muster: loading $EVENTS events of the $fold fold, then rebuilding it from sequence 1…"
    bytes=$($BENCH fold-load --fold "$fold" --count "$EVENTS" --nats-url "$url" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["event_bytes"])')
    $BENCH fold-replay --fold "$fold" --nats-url "$url" 2>/dev/null >> "$work/$fold.jsonl"
    stop_nats
    start_nats
    echo "round $round: raw libnats: pull consume of $EVENTS messages of $bytes bytes…"
    bench/out/raw_js "$url" "$EVENTS" "$bytes" >> "$work/raw_$fold.jsonl"
    stop_nats
  done
done

python3 - "$work" <<'PY'
import json, os, platform, sys
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work = sys.argv[1]
print()
print(f"{'measure (events/s, medians)':60} {HEADER}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rows": []}
for fold, name in (("sessions", "people fold (sessions started) rebuild"), ("reminders", "notifications fold (reminders) rebuild")):
    ours, raw = rounds(work, fold), rounds(work, f"raw_{fold}")
    results["rows"].append(row(f"{name} vs raw pull consume", [r["replay_per_sec"] for r in ours],
                               [r["consume_per_sec"] for r in raw], 0.5, 60))
    last = ours[-1]
    results[f"{fold}_rebuild"] = last
for fold in ("sessions", "reminders"):
    r = results[f"{fold}_rebuild"]
    print(f"{fold} rebuild of {r['count']:,} events (last round): {r['seconds']:.1f} s, peak RSS {r['max_rss_mb']} MB, "
          f"{r['stored_bytes'] / 1e6:.1f} MB snapshot")
json.dump(results, open("bench/out/folds.json", "w"), indent=1)
print("\nwritten to bench/out/folds.json")
PY
