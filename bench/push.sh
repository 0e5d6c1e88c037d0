#!/usr/bin/env bash
# make bench, pushes (issue 14), against the local APNs stand-in (`muster-standins apns`, release, HTTP/2 over TLS):
#  * pushes/s through Muster (POST /api/push to every device of an app -> the notifier's dispatcher ->
#    one HTTP/2 connection to the stand-in -> an outcome event per device) against h2load driving the
#    same stand-in directly over one connection with 100 streams (target >= 0.5x), in BENCH_ROUNDS (3)
#    interleaved rounds (the median of the rounds' ratios, and the spread);
#  * time from an OPL approval to the last "Strike near you" push for 10,000 opted-in devices.
set -euo pipefail
cd "$(dirname "$0")/.."

MUSTER=.build/release/muster
STANDINS=.build/release/muster-standins
BENCH=.build/release/muster-bench
DEVICES=${BENCH_PUSH_DEVICES:-20000}
NEARBY=${BENCH_PROXIMITY_DEVICES:-10000}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh

echo "== pushes: Muster's notifier vs h2load, both against the APNs stand-in ($(nproc) cores)"
payload='{"aps":{"alert":{"body":"Your scan found 2 new exposures","title":"DarkWatch"},"sound":"default"},"id":"scan_1","screen":"darkwatch"}'
apns_baseline "$DEVICES" com.example.shieldai "$payload"

start_nats
pids+=("$nats_pid")
port=$(free_port)
export MUSTER_NATS_URL=$url MUSTER_DATA_DIR=$work/muster MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off
apns_env
$MUSTER serve ingest notifier query --port "$port" 2>"$work/muster.log" &
pids+=($!)
for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.05; done
$BENCH push-load --app shieldai --devices "$DEVICES" --nats-url "$url" >/dev/null
key=$($MUSTER keys issue --app shieldai --scopes push:send 2>/dev/null)
okey=$($MUSTER keys issue --app opl --scopes push:send 2>/dev/null)
post() { curl -fsS -X POST -H "X-API-Key: $1" -H 'Content-Type: application/json' -d "$2" "http://127.0.0.1:$port/api/push"; }
field() { python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1" 2>/dev/null || true; }
for _ in $(seq 1 200); do [ "$(post "$key" '{"audience": {"everyone": true}, "title": "t", "body": "b", "dryRun": true}' 2>/dev/null | field targeted)" = "$DEVICES" ] && break; sleep 0.1; done

# Wait for a push to complete; prints seconds since $2 (a python time.time()).
completed() {
  python3 - "$port" "$1" "$2" "$3" <<'PY'
import json, sys, time, urllib.request
port, key, start, push = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
deadline = time.time() + 600
while time.time() < deadline:
    try:
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/api/push/{push}", headers={"X-API-Key": key})) as r:
            d = json.load(r)
        if d["status"] == "completed":
            print(f"{time.time() - start:.3f} {d['delivered']} {d['failed']}")
            sys.exit(0)
    except Exception:
        pass
    time.sleep(0.02)
sys.exit("timed out")
PY
}
# BENCH_ROUNDS (3) rounds of h2load and the same push to every device, interleaved: the row is the
# median of the rounds' ratios, with their spread (bench/rounds.py).
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  [ "$round" = 1 ] || h2load_baseline "$DEVICES" com.example.shieldai "$payload"
  start=$(python3 -c 'import time; print(time.time())')
  push=$(post "$key" '{"audience": {"everyone": true}, "title": "DarkWatch", "body": "Your scan found 2 new exposures", "screen": "darkwatch", "id": "scan_1"}' | field pushId)
  read -r seconds delivered failed <<< "$(completed "$key" "$start" "$push")"
  [ "$delivered" = "$DEVICES" ] || { echo "only $delivered of $DEVICES delivered ($failed failed)"; exit 1; }
  echo "{\"muster\": $(python3 -c "print(int($DEVICES/$seconds))"), \"h2load\": $baseline, \"seconds\": $seconds}" >> "$work/push.jsonl"
done
python3 - "$work" "$DEVICES" <<'PY'
import sys
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work, devices = sys.argv[1], sys.argv[2]
runs = rounds(work, "push")
print(f"{'pushes/s (medians; baseline: h2load)':52} {HEADER}")
row("POST /api/push -> notifier -> APNs stand-in", [r["muster"] for r in runs], [r["h2load"] for r in runs], 0.5, 52,
    f"{devices} devices in {', '.join(str(r['seconds']) for r in runs)} s")
PY

$BENCH push-load --app opl --devices "$NEARBY" --near 47.6062,-122.3321 --radius 3000 --nats-url "$url" >/dev/null
start=$(python3 -c 'import time; print(time.time())')
push=$($BENCH proximity-approve --site 47.6062,-122.3321 --radius 3000 --nats-url "$url")
read -r seconds delivered failed <<< "$(completed "$okey" "$start" "$push")"
printf '%-52s %10s s  (%s opted-in devices within 3 km: %s delivered, %s failed)\n' \
  "OPL approval -> last 'Strike near you' push" "$seconds" "$NEARBY" "$delivered" "$failed"
