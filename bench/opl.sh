#!/usr/bin/env bash
# make bench, OPL part (issue 3), in BENCH_ROUNDS (3) interleaved rounds (each row: the median of its
# rounds' ratios, and the spread):
#  * GET /api/mobile/data with 10k actions and 50k geofences loaded, under wrk (loopback, 50
#    connections), against nginx serving the same bytes as a static file with an ETag, same run:
#    304 path >= 0.8x nginx's 304 (issue 12; issue 3 asked 0.5x), 200 path >= 0.4x nginx's 200;
#  * reverse geocoding >= 10x Python's reverse_geocoder answering single queries on the same data;
#  * forward geocoding p99 under 1 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

MUSTER=.build/release/muster
BENCH=.build/release/muster-bench
DURATION=${BENCH_WRK_SECONDS:-10}
mkdir -p bench/out
work=$(mktemp -d)
chmod 755 "$work"   # nginx workers (www-data when started as root) read the static file from here
pids=()
cleanup() { [ -f "$work/nginx/error.log" ] && { grep -i emerg "$work/nginx/error.log" >&2 || true; }; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh

echo "== OPL: /api/mobile/data under wrk, against nginx serving the same bytes"
.tools/nats/bin/nats-server -a 127.0.0.1 -p -1 -js -sd "$work/js" --ports_file_dir "$work" -l "$work/nats.log" &
pids+=($!)
for _ in $(seq 1 100); do ls "$work"/*.ports >/dev/null 2>&1 && break; sleep 0.05; done
url=$(python3 -c 'import glob,json; print(json.load(open(glob.glob("'"$work"'/*.ports")[0]))["nats"][0])')
http_port=$(free_port)
export MUSTER_NATS_URL=$url MUSTER_DATA_DIR=$work/muster MUSTER_RATE_READ=0 MUSTER_LOG_LEVEL=warning MUSTER_METRICS_PORT=off
$MUSTER serve query --port "$http_port" 2>"$work/muster.log" &
pids+=($!)
echo "loading 10,000 actions with 50,000 geofences…"
$BENCH opl-load --actions 10000 --sites 4 >/dev/null
key=$($MUSTER keys issue --app opl --scopes read:mobile --label bench 2>/dev/null)
query="lat=44.0805&lng=-103.2310"
for _ in $(seq 1 600); do
  code=$(curl -s -o "$work/data.json" -D "$work/headers" -w '%{http_code}' -H "X-API-Key: $key" "http://127.0.0.1:$http_port/api/mobile/data?$query" || true)
  [ "$code" = 200 ] && grep -q '"totalUrls":10000' "$work/data.json" && break
  sleep 0.2
done
hash=$(grep -i '^x-content-hash' "$work/headers" | tr -d '\r' | awk '{print $2}')
python3 - "$work/data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("answer: %d bytes, %d geofences in the region, %d URLs" % (len(open(sys.argv[1], "rb").read()), d["geofences"]["total"], d["blocklist"]["totalUrls"]))
PY

# nginx: the same bytes as a static file, ETag on (nginx's default), access log off, one worker per core.
mkdir -p "$work/nginx/html"
cp "$work/data.json" "$work/nginx/html/data.json"
start_nginx "$work/nginx" "sendfile on; tcp_nopush on; keepalive_requests 100000; default_type application/json;" ""
pids+=("$nginx_pid")
etag=$(curl -sI "http://127.0.0.1:$nginx_port/data.json" | grep -i '^etag' | tr -d '\r' | cut -d' ' -f2-)
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "http://127.0.0.1:$nginx_port/data.json")" = 304 ]
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" "http://127.0.0.1:$http_port/api/mobile/data?$query&hash=$hash")" = 304 ]

rps() { wrk -t2 -c50 -d"${DURATION}s" "$@" | awk '/Requests\/sec/ {print int($2)}'; }
# BENCH_ROUNDS (3) interleaved rounds of the four runs: each row is the median of its rounds' ratios,
# with their spread (bench/rounds.py).
ROUNDS=${BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round: wrk -t2 -c50 -d${DURATION}s, four runs…"
  echo "{\"nginx\": $(rps -H "If-None-Match: $etag" "http://127.0.0.1:$nginx_port/data.json"), \"muster\": $(rps -H "X-API-Key: $key" "http://127.0.0.1:$http_port/api/mobile/data?$query&hash=$hash")}" >> "$work/r304.jsonl"
  echo "{\"nginx\": $(rps "http://127.0.0.1:$nginx_port/data.json"), \"muster\": $(rps -H "X-API-Key: $key" "http://127.0.0.1:$http_port/api/mobile/data?$query")}" >> "$work/r200.jsonl"
done

# The HTTP servers and nats-server are done: stop them, so the CPU-bound rows below have the machine
# to themselves (a still-running query server cost the gazetteer a third of its rate in one run).
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=()
echo "== geocoding: Muster's gazetteer against Python's reverse_geocoder on the same GeoNames data"
python3 -c "
import random; r = random.Random(1)
open('$work/points.txt', 'w').write(''.join('%.5f,%.5f\n' % (r.uniform(25, 49), r.uniform(-124, -67)) for _ in range(5000)))"
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round…"
  $BENCH geocode --gazetteer .data/gazetteer/places.tsv --queries 500000 --points "$work/points.txt" >> "$work/geo.jsonl"
  PYTHONPATH=.tools/bench-py python3 bench/rg_baseline.py "$work/points.txt" 20000 >> "$work/rg.jsonl"
done

echo "== moderation checks: a fold of 100 actions against one of 100,000 (the checks look up an index, not every action)"
checks100=$($BENCH moderation-checks --actions 100 --checks 20000)
checks100k=$($BENCH moderation-checks --actions 100000 --checks 20000)

python3 - "$work" "$checks100" "$checks100k" <<'PY'
import json, os, platform, sys
sys.path.insert(0, "bench")
from rounds import rounds, row, HEADER
work, c100, c100k = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
r304, r200, geo, rg = (rounds(work, n) for n in ("r304", "r200", "geo", "rg"))
print()
print(f"{'measure (medians)':38} {HEADER}")
out = {"machine": f"{platform.machine()} {os.cpu_count()} cores", "rounds": len(r304), "rows": [
    # Both sides are Muster's, measured once: a fold of 100,000 actions against one of 100.
    row("moderation checks/s, 100k vs 100 actions", [c100k["checksPerSecond"]], [c100["checksPerSecond"]], 0.5, 38, "checks/s"),
    row("/api/mobile/data 304 vs nginx 304", [r["muster"] for r in r304], [r["nginx"] for r in r304], 0.8, 38, "req/s"),
    row("/api/mobile/data 200 vs nginx 200", [r["muster"] for r in r200], [r["nginx"] for r in r200], 0.4, 38, "req/s"),
    row("reverse geocode vs reverse_geocoder", [g["reverse_per_sec"] for g in geo], [r["reverse_per_sec"] for r in rg], 10.0, 38, "q/s"),
]}
geo, rg = geo[-1], rg[-1]
p99 = float(geo["forward_p99_us"])
print(f"{'forward geocode p99':38} {p99:>9.1f}µs {'':>10} {'':>7} {'<1000µs':>7} {'ok' if p99 < 1000 else 'BELOW'}")
out["forward_geocode"] = geo
out["reverse_geocoder_baseline"] = rg
json.dump(out, open("bench/out/opl.json", "w"), indent=1)
print("\nwritten to bench/out/opl.json")
PY
