#!/usr/bin/env bash
# make bench, issue 4: the analytics collector against raw JetStream on the same machine, same run,
# in BENCH_ROUNDS (3) interleaved rounds (each row: the median of its rounds' ratios, and the spread).
#   1. 500-event batches over HTTP (`muster serve collector`, release build, 4 keep-alive connections)
#      vs raw libnats async publish of as many events of the same stored size; target >= 0.5x.
#   2. the funnel fold rebuilt from sequence 1 over 1M funnel steps vs raw pull consume of 1M
#      messages of the same size; target >= 0.5x.
#   3. the analytics fold rebuilt from sequence 1 over 1M analytics events (200k sessions) vs raw
#      pull consume of 1M messages of the same size: time, peak RSS of the rebuilding process and
#      the bytes its tables take on disk (both folds keep their big state in SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."

BATCHES=${BENCH_BATCHES:-400}
FUNNEL=${BENCH_FUNNEL:-1000000}
ANALYTICS=${BENCH_ANALYTICS:-1000000}
MUSTER=.build/release/muster
BENCH=.build/release/muster-bench
mkdir -p bench/out
work=$(mktemp -d)
chmod 755 "$work"
nats_pid="" muster_pid=""
cleanup() {
  [ -n "$muster_pid" ] && kill "$muster_pid" 2>/dev/null || true
  [ -n "$nats_pid" ] && kill "$nats_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

[ -x bench/out/raw_js ] || gcc -O2 -o bench/out/raw_js bench/raw_js.c $(pkg-config --cflags --libs libnats)

. bench/lib.sh

# One round of a fold's rebuild row: `muster-bench $1-load` of $2 events and `$1-replay` (appended to
# $4.jsonl) on one fresh nats-server, raw pull consume of as many messages of $3 bytes (to $5.jsonl) on
# another; $6 says what the rebuild does.
rebuild_round() {
  start_nats
  echo "round $round: muster: loading $2 $1 events…"
  $BENCH "$1-load" --count "$2" --nats-url "$url" >/dev/null 2>&1
  echo "round $round: muster: rebuilding the $1 fold from sequence 1 $6…"
  $BENCH "$1-replay" --nats-url "$url" 2>/dev/null >> "$work/$4.jsonl"
  stop_nats
  start_nats
  echo "round $round: raw libnats: pull consume of $2 messages of $3 bytes…"
  bench/out/raw_js "$url" "$2" "$3" >> "$work/$5.jsonl"
  stop_nats
}

# Every row is measured in BENCH_ROUNDS (3) rounds, baseline and Muster in each, and printed as the
# median of its rounds' ratios with their spread: one run here swings by more than a target's margin.
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  start_nats
  sizes=$($BENCH analytics-size --nats-url "$url" 2>/dev/null)
  event_bytes=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["event_bytes"])' "$sizes")
  funnel_bytes=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["funnel_bytes"])' "$sizes")
  events=$((BATCHES * 500))
  [ "$round" = 1 ] && echo "analytics: $BATCHES batches of 500 events ($event_bytes bytes each once stored); funnel: $FUNNEL steps of $funnel_bytes bytes; $(nproc) cores, $ROUNDS rounds"
  echo "round $round: raw libnats: async publish of $events events of $event_bytes bytes…"
  bench/out/raw_js "$url" "$events" "$event_bytes" >> "$work/raw_publish.jsonl"
  stop_nats

  start_nats
  port=$(free_port)
  MUSTER_NATS_URL="$url" MUSTER_DATA_DIR="$work/muster-$round" MUSTER_HTTP_PORT="$port" MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off \
    $MUSTER serve collector >"$work/muster.log" 2>&1 &
  muster_pid=$!
  key=$($MUSTER keys issue --app offleash --scopes write:analytics --nats-url "$url" 2>/dev/null)
  for _ in $(seq 1 100); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$port/api/analytics/events" || true)
    [ "$code" = 400 ] && break; sleep 0.1
  done
  echo "round $round: muster: $BATCHES batches over HTTP (decode, redact, correct clocks, validate, envelope, pipelined publish with acks)…"
  $BENCH analytics-post --url "http://127.0.0.1:$port" --key "$key" --batches "$BATCHES" --connections 4 >> "$work/post.jsonl"
  kill -TERM "$muster_pid"; wait "$muster_pid" 2>/dev/null || true; muster_pid=""
  stop_nats

  rebuild_round funnel "$FUNNEL" "$funnel_bytes" replay raw_consume "(pull, decode, validate, apply)"
  rebuild_round analytics "$ANALYTICS" "$event_bytes" analytics_replay raw_analytics "(pull, decode, apply, one SQLite transaction per batch)"
done

python3 - "$work" <<'PY'
import json, sys, platform, os
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work = sys.argv[1]
raw_publish, post, replay, raw_consume, analytics, raw_analytics = (rounds(work, n) for n in
    ("raw_publish", "post", "replay", "raw_consume", "analytics_replay", "raw_analytics"))
print()
print(f"{'measure (events/s, medians)':50} {HEADER}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rounds": len(post), "rows": [
    row("500-event batches over HTTP vs raw async publish", [r["events_per_sec"] for r in post], [r["publish_per_sec"] for r in raw_publish], 0.5),
    row("funnel rebuild vs raw pull consume", [r["replay_per_sec"] for r in replay], [r["consume_per_sec"] for r in raw_consume], 0.5),
    row("analytics rebuild vs raw pull consume", [r["replay_per_sec"] for r in analytics], [r["consume_per_sec"] for r in raw_analytics], 0.5),
]}
replay, analytics = replay[-1], analytics[-1]
print()
for name, r in (("funnel", replay), ("analytics", analytics)):
    print(f"{name} rebuild of {r['count']:,} events (last round): {r['seconds']:.1f} s, peak RSS {r['max_rss_mb']} MB, "
          f"{r['stored_bytes'] / 1e6:.1f} MB on disk")
    results[f"{name}_rebuild"] = r
json.dump(results, open("bench/out/analytics.json", "w"), indent=1)
print("\nwritten to bench/out/analytics.json")
PY
