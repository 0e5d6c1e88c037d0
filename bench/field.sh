#!/usr/bin/env bash
# make bench, field part (issue 16), release build, a fresh nats-server for each row, in BENCH_ROUNDS (3)
# interleaved rounds (each row: the median of its rounds' ratios, and the spread):
#   1. pushes of 500 new records over HTTP (`muster serve ingest`, 4 keep-alive connections; each batch
#      checked mutation by mutation, stored as one event, decided by the fold before the answer):
#      mutations/s vs raw libnats async publish of one small event per mutation, target >= 0.5x (issue
#      40); the batches against one publish of a batch's stored size are information, no target.
#   2. a device catching up: every record (~110k) pulled since cursor 0, in pages of 1,000.
#   3. a 20 MB photo uploaded in one request (stored by SHA-256 in the object store), target >= 0.5x of nginx receiving
#      the same body on loopback (WebDAV PUT to a file).
#   4. fan-out: 1,000 WebSockets on /api/field/live; the time from a push to each socket's message (p50/p99).
set -euo pipefail
cd "$(dirname "$0")/.."

BATCHES=${BENCH_FIELD_BATCHES:-200}
SOCKETS=${BENCH_FIELD_SOCKETS:-1000}
MUSTER=${MUSTER:-.build/release/muster}
BENCH=${MUSTER_BENCH:-.build/release/muster-bench}
mkdir -p bench/out
work=$(mktemp -d)
chmod 755 "$work"
nats_pid="" muster_pid="" nginx_pid=""
cleanup() {
  for p in "$muster_pid" "$nginx_pid" "$nats_pid"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 16384 2>/dev/null || ulimit -n 4096
[ -x bench/out/raw_js ] || gcc -O2 -o bench/out/raw_js bench/raw_js.c $(pkg-config --cflags --libs libnats)
. bench/lib.sh
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

echo "== Field: pushes, pulls, uploads, live fan-out ($(nproc) cores)"
start_nginx "$work/nginx" "" "client_max_body_size 64m; location /upload/ { dav_methods PUT; create_full_put_path on; }"
# Every row is measured in BENCH_ROUNDS (3) rounds, baseline and Muster in each, and printed as the
# median of its rounds' ratios with their spread (bench/rounds.py); the pull and the fan-out, which
# have no baseline, in the last round.
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  start_nats
  sizes=$($BENCH field-size --nats-url "$url" 2>/dev/null)
  batch_bytes=$(field "$sizes" batch_bytes); event_bytes=$(field "$sizes" event_bytes)
  echo "round $round: raw libnats: async publish of 200 events of $batch_bytes bytes (a 500-mutation push as stored)…"
  bench/out/raw_js "$url" 200 "$batch_bytes" >> "$work/raw_batches.jsonl"
  stop_nats
  start_nats
  echo "round $round: raw libnats: async publish of $((BATCHES * 500)) events of $event_bytes bytes (one mutation each)…"
  bench/out/raw_js "$url" "$((BATCHES * 500))" "$event_bytes" >> "$work/raw_small.jsonl"
  stop_nats

  start_nats
  port=$(free_port)
  MUSTER_NATS_URL="$url" MUSTER_DATA_DIR="$work/muster-$round" MUSTER_HTTP_PORT="$port" MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off \
    MUSTER_RATE_WRITE=0 $MUSTER serve ingest >"$work/muster.log" 2>&1 &
  muster_pid=$!
  for _ in $(seq 1 200); do curl -fs -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
  $MUSTER people create-org --slug bench-build --app field --name "Bench Build" --nats-url "$url" >/dev/null 2>&1
  echo "Bench-Field-2026" | $MUSTER people add --org bench-build --role manager --email boss@bench.test --first-name Bo --last-name Boss \
    --nats-url "$url" >/dev/null 2>&1
  token=$(curl -fs -X POST "http://127.0.0.1:$port/api/field/auth/login" -H 'Content-Type: application/json' \
    -d '{"org_slug": "bench-build", "email": "boss@bench.test", "password": "Bench-Field-2026"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  project=$(python3 -c 'import uuid; print(uuid.uuid4())')
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  curl -fs -o /dev/null -X POST "http://127.0.0.1:$port/api/field/mutations" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"deviceId\": \"$(python3 -c 'import uuid; print(uuid.uuid4())')\", \"sentAt\": \"$now\", \"mutations\": [{\"mutationId\": \"$(python3 -c 'import uuid; print(uuid.uuid4())')\", \"entity\": \"project\", \"id\": \"$project\", \"baseVersion\": 0, \"changedAt\": \"$now\", \"fields\": {\"name\": \"Bench bridge\", \"latitude\": 44.08, \"longitude\": -103.23}}]}"
  # The photo every pushed record names: a record may name only files its company uploaded.
  digest=$(printf '\xff\xd8\xff\xe0bench photo' | curl -fs -X POST "http://127.0.0.1:$port/api/field/uploads" -H "Authorization: Bearer $token" \
    -H 'Content-Type: image/jpeg' --data-binary @- | python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
  echo "round $round: muster: 20 pushes to warm up, then $BATCHES pushes of 500 new records over HTTP…"
  $BENCH field-post --url "http://127.0.0.1:$port" --token "$token" --project "$project" --digest "$digest" --batches 20 --first 100000 >/dev/null
  $BENCH field-post --url "http://127.0.0.1:$port" --token "$token" --project "$project" --digest "$digest" --batches "$BATCHES" >> "$work/post.jsonl"
  if [ "$round" = "$ROUNDS" ]; then
    echo "round $round: muster: every record pulled since 0, in pages of 1,000…"
    pull=$($BENCH field-pull --url "http://127.0.0.1:$port" --token "$token")
  fi
  echo "round $round: muster: a 20 MB photo in one request, five times…"
  $BENCH field-upload --url "http://127.0.0.1:$port/api/field/uploads" --token "$token" >> "$work/upload.jsonl"
  if [ "$round" = "$ROUNDS" ]; then
    echo "round $round: muster: $SOCKETS WebSockets, ten changes…"
    fanout=$($BENCH field-fanout --url "http://127.0.0.1:$port" --token "$token" --project "$project" --sockets "$SOCKETS")
  fi

  echo "round $round: nginx: the same 20 MB body, PUT to a file, five times…"
  $BENCH field-upload --url "http://127.0.0.1:$nginx_port/upload/photo.jpg" --method PUT >> "$work/nginx_upload.jsonl"
  kill -TERM "$muster_pid"; wait "$muster_pid" 2>/dev/null || true; muster_pid=""
  stop_nats
done

python3 - "$work" "$pull" "$fanout" <<'PY'
import json, sys, platform, os
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work, pull, fanout = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
raw_batches, post, raw_small, upload, nginx_upload = (rounds(work, n) for n in ("raw_batches", "post", "raw_small", "upload", "nginx_upload"))
# Issue 40: the per-mutation row and the upload carry the targets; a 500-mutation batch against one opaque
# publish of the same stored size is information only (a batch is checked, corrected, stored and folded
# mutation by mutation).
print()
print(f"{'measure (medians; baselines: raw publish, nginx)':58} {HEADER}")
results = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rounds": len(post), "rows": [
    row("push: mutations/s vs raw publish of one small event each", [r["mutations_per_sec"] for r in post],
        [r["publish_per_sec"] for r in raw_small], 0.5, 58, "mutations/s"),
    row("upload: a 20 MB photo vs nginx receiving it", [r["mb_per_sec"] for r in upload], [r["mb_per_sec"] for r in nginx_upload], 0.5, 58, "MB/s"),
    row("  information: 500-mutation batches vs one opaque publish each", [r["batches_per_sec"] for r in post],
        [r["publish_per_sec"] for r in raw_batches], None, 58, "batches/s"),
]}
print(f"{'pull of every record since 0, pages of 1,000':58} {pull['pull_ms']:>8} ms  ({pull['records']:,} records, {pull['pages']} pages, "
      f"{pull['bytes'] / 1e6:.1f} MB; {pull['records_per_sec']:,} records/s)")
print(f"{'fan-out: push to message on each WebSocket':58} p50 {fanout['p50_ms']} ms, p99 {fanout['p99_ms']} ms, max {fanout['max_ms']} ms "
      f"({fanout['sockets']:,} sockets, {fanout['deliveries']:,} deliveries)")
results.update(push=post, pull=pull, upload=upload, nginx_upload=nginx_upload, fanout=fanout, raw_small=raw_small)
json.dump(results, open("bench/out/field.json", "w"), indent=1)
print("\nwritten to bench/out/field.json")
PY
