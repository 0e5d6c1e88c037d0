#!/usr/bin/env bash
# make bench, PoP part (issue 15), release build, a fresh nats-server for each row, in BENCH_ROUNDS (3)
# interleaved rounds (each row: the median of its rounds' ratios, and the spread):
#   1. sync batches of 500 changes over HTTP (`muster serve ingest`, 4 keep-alive connections; each
#      batch checked change by change, corrected, stored as one event, folded before the answer) vs raw
#      libnats async publish of one small event per change: changes/s, target >= 0.8x (issue 40); the
#      batches against one publish of a batch's stored size are printed as information, no target.
#      The server first takes 50 batches unmeasured (its folds open their files and fill their caches,
#      the first snapshot is written): a 200-batch run from cold measured start-up more than sync.
#   2. a device catching up: one install's 10k changes (200 cards, 9,800 bookmarks) pulled since 0.
#   3. the civics-progress fold rebuilt from sequence 1 over 1M synced events (4 flashcard records
#      each, 10k installs) vs raw pull consume of 1M messages of the same size; target >= 0.5x.
#      As information, no target: PoP's sync fold rebuilt over the same events. It keeps tables, a row
#      per card, so its rate is what the civics fold would cost moved into tables (issue 40, item 3).
set -euo pipefail
cd "$(dirname "$0")/.."

BATCHES=${BENCH_POP_BATCHES:-1000}
EVENTS=${BENCH_POP_EVENTS:-1000000}
CHANGES=4
MUSTER=${MUSTER:-.build/release/muster}
BENCH=${MUSTER_BENCH:-.build/release/muster-bench}
mkdir -p bench/out
work=$(mktemp -d)
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
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

echo "== PoP: progress sync, pulls, the civics-progress rebuild ($(nproc) cores)"
# Every row is measured in BENCH_ROUNDS (3) rounds, baseline and Muster in each, and printed as the
# median of its rounds' ratios with their spread (bench/rounds.py).
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  start_nats
  sizes=$($BENCH pop-size --changes "$CHANGES" --nats-url "$url" 2>/dev/null)
  batch_bytes=$(field "$sizes" batch_bytes); event_bytes=$(field "$sizes" event_bytes)
  # 200 of them: with 4,096 publishes of 100 KB in flight, a longer run overflows nats-server's 64 MB
  # per-client buffer, which drops the publisher as a slow consumer.
  echo "round $round: raw libnats: async publish of 200 events of $batch_bytes bytes (a 500-change batch as stored)…"
  bench/out/raw_js "$url" 200 "$batch_bytes" >> "$work/raw_batches.jsonl"
  stop_nats

  # For scale: the same changes as one small event each (what a design without batch events would store).
  start_nats
  change_bytes=$(field "$($BENCH pop-size --changes 1 --nats-url "$url" 2>/dev/null)" event_bytes)
  echo "round $round: raw libnats: async publish of $((BATCHES * 500)) events of $change_bytes bytes (one change each)…"
  bench/out/raw_js "$url" "$((BATCHES * 500))" "$change_bytes" >> "$work/raw_changes.jsonl"
  stop_nats

  start_nats
  port=$(free_port)
  MUSTER_NATS_URL="$url" MUSTER_DATA_DIR="$work/muster-$round" MUSTER_HTTP_PORT="$port" MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off \
    MUSTER_RATE_WRITE=0 MUSTER_POP_CONFIG=deploy/pop $MUSTER serve ingest >"$work/muster.log" 2>&1 &
  muster_pid=$!
  key=$($MUSTER keys issue --app pop --scopes read:civics,write:civics --nats-url "$url" 2>/dev/null)
  for _ in $(seq 1 200); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" "http://127.0.0.1:$port/api/pop/installs/00000000-0000-4000-8000-000000000000/progress" || true)
    [ "$code" = 200 ] && break; sleep 0.1
  done
  echo "round $round: muster: 50 batches to warm up, then $BATCHES batches of 500 changes over HTTP…"
  $BENCH pop-post --url "http://127.0.0.1:$port" --key "$key" --batches 50 --connections 4 --first-install 500000 >/dev/null
  $BENCH pop-post --url "http://127.0.0.1:$port" --key "$key" --batches "$BATCHES" --connections 4 >> "$work/post.jsonl"
  echo "round $round: muster: one install's 10k changes, pulled since 0…"
  $BENCH pop-pull --url "http://127.0.0.1:$port" --key "$key" --changes 10000 >> "$work/pull.jsonl"
  kill -TERM "$muster_pid"; wait "$muster_pid" 2>/dev/null || true; muster_pid=""
  stop_nats

  start_nats
  echo "round $round: muster: loading $EVENTS synced events of $CHANGES changes ($event_bytes bytes each)…"
  $BENCH pop-load --count "$EVENTS" --changes "$CHANGES" --nats-url "$url" >/dev/null 2>&1
  echo "round $round: muster: rebuilding the civics fold from sequence 1 (pull, decode, validate, apply)…"
  $BENCH pop-replay --count "$EVENTS" --nats-url "$url" 2>/dev/null >> "$work/replay.jsonl"
  echo "round $round: muster: rebuilding PoP's sync fold (kept in tables) over the same events…"
  $BENCH pop-replay --count "$EVENTS" --fold pop --nats-url "$url" 2>/dev/null >> "$work/tables.jsonl"
  stop_nats

  start_nats
  echo "round $round: raw libnats: pull consume of $EVENTS messages of $event_bytes bytes…"
  bench/out/raw_js "$url" "$EVENTS" "$event_bytes" >> "$work/raw_consume.jsonl"
  stop_nats
done

python3 - "$work" "$CHANGES" <<'PY'
import json, sys, platform, os
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work, changes = sys.argv[1], int(sys.argv[2])
raw_batches, post, pull, replay, raw_consume, raw_changes, tables = (rounds(work, n) for n in
    ("raw_batches", "post", "pull", "replay", "raw_consume", "raw_changes", "tables"))
# Issue 40: the per-change row carries the sync target; a 500-change batch against one opaque publish
# of the same stored size is information only (a batch is checked, corrected, stored and folded change
# by change).
print()
print(f"{'measure (medians)':58} {HEADER}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rounds": len(post), "rows": [
    row("sync: changes/s vs raw publish of one small event each", [r["changes_per_sec"] for r in post],
        [r["publish_per_sec"] for r in raw_changes], 0.8, 58, "changes/s"),
    row(f"civics rebuild ({changes} changes an event) vs raw consume", [r["replay_per_sec"] for r in replay],
        [r["consume_per_sec"] for r in raw_consume], 0.5, 58, "events/s"),
    row("  information: 500-change batches vs one opaque publish each", [r["batches_per_sec"] for r in post],
        [r["publish_per_sec"] for r in raw_batches], None, 58, "batches/s"),
    row("  information: the same events into tables (PoP's sync fold)", [r["replay_per_sec"] for r in tables],
        [r["consume_per_sec"] for r in raw_consume], None, 58, "events/s"),
]}
pull, replay, tables = pull[-1], replay[-1], tables[-1]
print(f"{'pull of 10k changes since 0 (last round; one install, 9,800 bookmarks)':58} {pull['pull_ms']:>8} ms  "
      f"({pull['answer_bytes']:,} bytes; {pull['changes_per_sec']:,} changes/s)")
print(f"civics rebuild of {replay['count']:,} events (last round): {replay['seconds']:.1f} s, peak RSS {replay['max_rss_mb']} MB, "
      f"{replay['stored_bytes'] / 1e6:.1f} MB snapshot")
results["pull"] = pull
results["civics_rebuild"] = replay
results["pop_tables_rebuild"] = tables
json.dump(results, open("bench/out/pop.json", "w"), indent=1)
print("\nwritten to bench/out/pop.json")
PY
