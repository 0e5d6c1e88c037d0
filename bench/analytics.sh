#!/usr/bin/env bash
# make bench, issue 4: the analytics collector against raw JetStream on the same machine, same run.
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

start_nats
sizes=$($BENCH analytics-size --nats-url "$url" 2>/dev/null)
event_bytes=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["event_bytes"])' "$sizes")
funnel_bytes=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["funnel_bytes"])' "$sizes")
events=$((BATCHES * 500))
echo "analytics: $BATCHES batches of 500 events ($event_bytes bytes each once stored); funnel: $FUNNEL steps of $funnel_bytes bytes; $(nproc) cores"
echo "raw libnats: async publish of $events events of $event_bytes bytes…"
raw_publish=$(bench/out/raw_js "$url" "$events" "$event_bytes")
stop_nats

start_nats
port=$(free_port)
MUSTER_NATS_URL="$url" MUSTER_DATA_DIR="$work/muster" MUSTER_HTTP_PORT="$port" MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off \
  $MUSTER serve collector >"$work/muster.log" 2>&1 &
muster_pid=$!
key=$($MUSTER keys issue --app offleash --scopes write:analytics --nats-url "$url" 2>/dev/null)
for _ in $(seq 1 100); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$port/api/analytics/events" || true)
  [ "$code" = 400 ] && break; sleep 0.1
done
echo "muster: $BATCHES batches over HTTP (decode, redact, correct clocks, validate, envelope, pipelined publish with acks)…"
post=$($BENCH analytics-post --url "http://127.0.0.1:$port" --key "$key" --batches "$BATCHES" --connections 4)
kill -TERM "$muster_pid"; wait "$muster_pid" 2>/dev/null || true; muster_pid=""
stop_nats

start_nats
echo "muster: loading $FUNNEL funnel steps…"
$BENCH funnel-load --count "$FUNNEL" --nats-url "$url" >/dev/null 2>&1
echo "muster: rebuilding the funnel fold from sequence 1 (pull, decode, validate, apply)…"
replay=$($BENCH funnel-replay --nats-url "$url" 2>/dev/null)
stop_nats

start_nats
echo "raw libnats: pull consume of $FUNNEL messages of $funnel_bytes bytes…"
raw_consume=$(bench/out/raw_js "$url" "$FUNNEL" "$funnel_bytes")
stop_nats

start_nats
echo "muster: loading $ANALYTICS analytics events…"
$BENCH analytics-load --count "$ANALYTICS" --nats-url "$url" >/dev/null 2>&1
echo "muster: rebuilding the analytics fold from sequence 1 (pull, decode, apply, one SQLite transaction per batch)…"
analytics_replay=$($BENCH analytics-replay --nats-url "$url" 2>/dev/null)
stop_nats

start_nats
echo "raw libnats: pull consume of $ANALYTICS messages of $event_bytes bytes…"
raw_analytics=$(bench/out/raw_js "$url" "$ANALYTICS" "$event_bytes")
stop_nats

python3 - "$raw_publish" "$post" "$replay" "$raw_consume" "$analytics_replay" "$raw_analytics" <<'PY'
import json, sys, platform, os
raw_publish, post, replay, raw_consume, analytics, raw_analytics = (json.loads(a) for a in sys.argv[1:7])
rows = [
    ("500-event batches over HTTP vs raw async publish", post["events_per_sec"], raw_publish["publish_per_sec"], 0.5),
    ("funnel rebuild vs raw pull consume", replay["replay_per_sec"], raw_consume["consume_per_sec"], 0.5),
    ("analytics rebuild vs raw pull consume", analytics["replay_per_sec"], raw_analytics["consume_per_sec"], 0.5),
]
print()
print(f"{'measure (events/s)':50} {'muster':>10} {'raw':>10} {'ratio':>7} {'target':>7}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rows": []}
for name, ours, base, target in rows:
    ratio = ours / base
    print(f"{name:50} {ours:>10,} {base:>10,} {ratio:>7.2f} {target:>6.1f}x {'ok' if ratio >= target else 'BELOW'}")
    results["rows"].append({"name": name, "muster_per_sec": ours, "raw_per_sec": base, "ratio": round(ratio, 3), "target": target})
print()
for name, r in (("funnel", replay), ("analytics", analytics)):
    print(f"{name} rebuild of {r['count']:,} events: {r['seconds']:.1f} s, peak RSS {r['max_rss_mb']} MB, "
          f"{r['stored_bytes'] / 1e6:.1f} MB on disk")
    results[f"{name}_rebuild"] = r
json.dump(results, open("bench/out/analytics.json", "w"), indent=1)
print("\nwritten to bench/out/analytics.json")
PY
