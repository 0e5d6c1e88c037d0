#!/usr/bin/env bash
# make bench, notifications (issue 56): 10,000 OFFLEASH booking confirmations, each turned by the
# notifier's rules into a "Walk confirmed" push (and its two reminders scheduled), handed to the
# APNs stand-in, against h2load driving the same stand-in directly (target >= 0.5x), and the p99
# from each confirmation (the log's acknowledgement of its append) to the stand-in taking its push
# (target < 1 s). The notifier's own histogram (muster_notification_delivery_seconds) starts from the
# event's time, which the envelope keeps in whole seconds: too coarse for this.
set -euo pipefail
cd "$(dirname "$0")/.."

MUSTER=.build/release/muster
STANDINS=.build/release/muster-standins
BENCH=.build/release/muster-bench
COUNT=${BENCH_NOTIFY_BOOKINGS:-10000}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh

echo "== notifications: booking confirmations -> rules -> pushes -> APNs stand-in, vs h2load ($(nproc) cores)"
apns_baseline "$COUNT" com.offleash.ios \
  '{"aps":{"alert":{"body":"Your 30 minute walk on Wed 9 Dec at 10:00 UTC is confirmed.","title":"Walk confirmed"},"sound":"default"},"id":"b0","screen":"booking"}'

start_nats
pids+=("$nats_pid")
port=$(free_port) metrics=$(free_port)
export MUSTER_NATS_URL=$url MUSTER_DATA_DIR=$work/muster MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=$metrics
export MUSTER_APNS_KEY_FILE=$work/AuthKey.p8 MUSTER_APNS_KEY_ID=BENCHKEY01 MUSTER_APNS_TEAM_ID=BENCHTEAM1 MUSTER_APNS_CA_FILE=$work/tls/cert.pem
export MUSTER_APNS_SANDBOX_URL=https://127.0.0.1:$apns_port MUSTER_APNS_PRODUCTION_URL=https://127.0.0.1:$apns_port
$MUSTER serve ingest notifier query --port "$port" 2>"$work/muster.log" &
pids+=($!)
for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.05; done

# The decisions so far (metrics), and the stand-in's "Walk confirmed" deliveries.
decided() { curl -fs "http://127.0.0.1:$metrics/metrics" | awk '/^muster_notifications_total\{/ { s += $NF } END { print int(s) }'; }
# (h2load's own pushes, to the baseline's token, are not counted.)
confirmed() { curl -ksf "https://127.0.0.1:$apns_port/standin/deliveries" | python3 -c 'import json,sys; print(sum("Walk confirmed" in d["payload"] and d["token"] != sys.argv[1] for d in json.load(sys.stdin)))' "$token"; }

$BENCH notify-load setup --bookings "$COUNT" --nats-url "$url" >/dev/null
# Each request tells its walker (no device, no address: two suppressed decisions): wait for them all first.
for _ in $(seq 1 1200); do [ "$(decided)" -ge $((2 * COUNT)) ] && break; sleep 0.5; done
[ "$(decided)" -ge $((2 * COUNT)) ] || { echo "the walk requests were not all decided in 10 minutes: $(decided) decisions"; exit 1; }

start=$($BENCH notify-load confirm --bookings "$COUNT" --times "$work/acked.txt" --nats-url "$url")
deadline=$((SECONDS + 900))
while [ "$(confirmed)" -lt "$COUNT" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.5; done
done_at=$(python3 -c 'import time; print(time.time())')
got=$(confirmed)
[ "$got" -ge "$COUNT" ] || { echo "only $got of $COUNT confirmations reached the stand-in in 15 minutes"; exit 1; }
curl -ksf "https://127.0.0.1:$apns_port/standin/deliveries" > "$work/deliveries.json"
python3 - "$COUNT" "$start" "$done_at" "$baseline" "$work/acked.txt" "$work/deliveries.json" <<'PY'
import json, sys
count, start, done, baseline = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
acked = dict(line.split() for line in open(sys.argv[5]) if line.strip())
arrived = {}
for d in json.load(open(sys.argv[6])):
    payload = json.loads(d["payload"])
    if payload.get("aps", {}).get("alert", {}).get("title") == "Walk confirmed" and d.get("receivedAt") and d["token"] != "0" * 63 + "1":
        arrived.setdefault(payload.get("id"), d["receivedAt"])
waits = sorted(arrived[b] - int(t) for b, t in acked.items() if b in arrived)
if len(waits) < count: print(f"(acknowledged {len(acked)}, arrived {len(arrived)}, matched {len(waits)}; e.g. {list(acked)[:2]} {list(arrived)[:2]})")
p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] / 1000 if waits else float("nan")
last = max(arrived.values()) / 1000 if arrived else done
rate = count / (last - start)
print(f"{'booking confirmed -> rules -> push -> APNs stand-in':52} {int(rate):10} pushes/s  (h2load on one connection x 100 streams {baseline} req/s; "
      f"ratio {rate / baseline:.2f}, target >= 0.5; {len(waits)} of {count} confirmations in {last - start:.1f} s; "
      f"p99 confirmation -> provider {p99:.2f} s, median {waits[len(waits) // 2] / 1000 if waits else float('nan'):.2f} s, target < 1 s)")
PY
