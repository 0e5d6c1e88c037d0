#!/usr/bin/env bash
# make bench, notifications (issue 56): 10,000 OFFLEASH booking confirmations, each turned by the
# notifier's rules into a "Walk confirmed" push (and its two reminders scheduled), handed to the
# APNs stand-in, against h2load driving the same stand-in directly (target >= 0.5x; three interleaved
# rounds, the median ratio and its spread), and the p99
# from each confirmation (the log's acknowledgement of its append) to the stand-in taking its push
# (target < 1 s). The notifier's own histogram (muster_notification_delivery_seconds) starts from the
# event's time, which the envelope keeps in whole seconds: too coarse for this. Then the scheduler's
# sending path: reminders due at once against h2load (target >= 0.5x, three interleaved rounds).
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
payload='{"aps":{"alert":{"body":"Your 30 minute walk on Wed 9 Dec at 10:00 UTC is confirmed.","title":"Walk confirmed"},"sound":"default"},"id":"b0","screen":"booking"}'
apns_baseline "$COUNT" com.offleash.ios "$payload"

start_nats
pids+=("$nats_pid")
port=$(free_port) metrics=$(free_port)
export MUSTER_NATS_URL=$url MUSTER_DATA_DIR=$work/muster MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=$metrics
apns_env
$MUSTER serve ingest notifier query --port "$port" 2>"$work/muster.log" &
pids+=($!)
for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.05; done

# The decisions so far (metrics), and the pushes the stand-in took (h2load's among them: counted from after it).
decided() { curl -fs "http://127.0.0.1:$metrics/metrics" | awk '/^muster_notifications_total\{/ { s += $NF } END { print int(s) }'; }
delivered() { curl -ksf "https://127.0.0.1:$apns_port/standin/count" | python3 -c 'import json,sys; print(json.load(sys.stdin)["delivered"])'; }
before=$(delivered)
# Waits until `$1` more pushes than `before` arrived (15 minutes at most); the time they were all in.
arrived() {
  local want=$((before + $1)) deadline=$((SECONDS + 900))
  while [ "$(delivered)" -lt "$want" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  [ "$(delivered)" -ge "$want" ] || { echo "only $(( $(delivered) - before )) of $1 confirmations reached the stand-in in 15 minutes" >&2; exit 1; }
  before=$want
}

# The bursts measure how fast the pipeline drains, in BENCH_ROUNDS (3) rounds each after its own
# h2load run (the row: the median of the rounds' ratios, and the spread); the paced run, at 80 % of
# the median burst rate, what a person waits.
ROUNDS=${BENCH_ROUNDS:-3}
PACED=${BENCH_NOTIFY_PACED:-$((COUNT / 2))}
BOOKINGS=$((ROUNDS * COUNT + PACED))
$BENCH notify-load setup --bookings "$BOOKINGS" --nats-url "$url" >/dev/null
# Each request tells its walker (no device, no address: two suppressed decisions): wait for them all first.
for _ in $(seq 1 1200); do [ "$(decided)" -ge $((2 * BOOKINGS)) ] && break; sleep 0.5; done
[ "$(decided)" -ge $((2 * BOOKINGS)) ] || { echo "the walk requests were not all decided in 10 minutes: $(decided) decisions"; exit 1; }

for round in $(seq 1 "$ROUNDS"); do
  if [ "$round" != 1 ]; then
    h2load_baseline "$COUNT" com.offleash.ios "$payload"
    before=$(delivered)
  fi
  burst=$($BENCH notify-load confirm --bookings "$BOOKINGS" --from $(((round - 1) * COUNT)) --count "$COUNT" --times "$work/burst.txt" --nats-url "$url")
  arrived "$COUNT"
  curl -ksf "https://127.0.0.1:$apns_port/standin/deliveries" > "$work/burst.json"
  echo "{\"muster\": $(python3 bench/notify_latency.py capacity "$burst" "$work/burst.txt" "$work/burst.json"), \"h2load\": $baseline}" >> "$work/bursts.jsonl"
done
rate=$(python3 -c 'import json, statistics, sys; print(int(statistics.median(json.loads(l)["muster"] for l in open(sys.argv[1]) if l.strip())))' "$work/bursts.jsonl")
paced_rate=$(python3 -c "print(max(1, int($rate * 0.8)))")
paced=$($BENCH notify-load confirm --bookings "$BOOKINGS" --from $((ROUNDS * COUNT)) --count "$PACED" --rate "$paced_rate" --times "$work/paced.txt" --nats-url "$url")
arrived "$PACED"
curl -ksf "https://127.0.0.1:$apns_port/standin/deliveries" > "$work/paced.json"
python3 bench/notify_latency.py report "$work" "$COUNT" "$paced" "$work/paced.txt" "$work/paced.json" "$paced_rate"

# The scheduler's sending path (59's row for it): COUNT push reminders due at once, appended as the
# rules schedule them, each sent by the notifier's scheduler as soon as it sees it due (a decision, a
# push request, the dispatcher, the stand-in), against h2load on the same stand-in; BENCH_ROUNDS
# interleaved rounds, the rate from the first reminder's append to the last push's arrival,
# target >= 0.5x (as the confirmations' row).
for round in $(seq 1 "$ROUNDS"); do
  h2load_baseline "$COUNT" com.offleash.ios "$payload"
  before=$(delivered)
  began=$($BENCH notify-load remind --bookings "$BOOKINGS" --from $(((round - 1) * COUNT)) --count "$COUNT" --nats-url "$url")
  arrived "$COUNT"
  echo "{\"muster\": $(python3 -c "import time; print(int($COUNT / (time.time() - $began)))"), \"h2load\": $baseline}" >> "$work/reminders.jsonl"
done
python3 - "$work" "$COUNT" <<'PY'
import sys
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
runs = rounds(sys.argv[1], "reminders")
print(f"{'pushes/s (medians; baseline: h2load)':52} {HEADER}")
row("reminders due at once -> scheduler -> APNs stand-in", [r["muster"] for r in runs], [r["h2load"] for r in runs], 0.5, 52,
    f"{sys.argv[2]} reminders a round")
PY
