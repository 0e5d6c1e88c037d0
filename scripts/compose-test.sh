#!/usr/bin/env bash
# make test-compose (and the last part of make test): Muster in containers, for real.
#  1. A Docker engine (scripts/compose-stack.sh, which the soak shares): the one DOCKER_HOST names if it answers, else dockerd started here as root
#     with its own data root, exec root and socket in a temporary folder, no default bridge and no
#     iptables rules (compose's own network joins the containers; published ports go through
#     docker-proxy on loopback). No engine and none can be started: skipped, saying why.
#  2. The images without any registry: scripts/make-image.sh debug (make test builds muster just
#     before and says so with MUSTER_IMAGE_BINARY; otherwise make-image.sh builds it).
#  3. deploy/docker-compose.yml with two replicas of ingest and query behind the TLS gateway;
#     make demo through the gateway; kill -9 of one ingest and one query container under write
#     load (the restart policy brings them back; no acknowledged write lost); a rolling upgrade
#     under load (ingest and query replaced one container at a time by the next version,
#     muster:next, with an event type's v2; every fold caught up); down, then up as this version
#     again (a rollback): every event is still there (named volume). Prometheus (Debian's, in the
#     same image) scrapes every container, replicas too.
#  4. deploy/docker-compose.cluster.yml on top: three NATS containers, the log at R3, the NATS
#     container that leads the log killed under write load; writes go on.
# COMPOSE_CLUSTER_ONLY=1 runs 1, 2 and 4 only (to look into the cluster part); COMPOSE_UPGRADE_ONLY=1
# runs 1, 2 and 3's rolling upgrade and rollback only.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/compose-stack.sh

finish() {
  status=$?
  set +e
  if [ "$status" -ne 0 ] && docker version >/dev/null 2>&1; then
    echo "compose: FAILED; the containers' last lines:" >&2
    dc logs --tail 15 --no-color 2>&1 | tail -120 >&2
    # What the gateway said went wrong, besides refused connections (nginx tries the next container then).
    dc logs --no-color gateway 2>&1 | grep -E '\[(error|warn|crit)\]' | grep -v 'Connection refused' | tail -20 >&2
    # What each NATS container holds of the log (the streams it hosts, their leader and replicas).
    for id in $(for service in nats nats-2 nats-3; do dc ps -q "$service" 2>/dev/null; done); do
      docker exec "$id" curl -s 'localhost:8222/jsz?accounts=true&streams=true&config=true' 2>/dev/null | python3 -c '
import json, sys
jsz = json.load(sys.stdin)
print("compose:", jsz.get("server_name", "?"), "meta leader", (jsz.get("meta_cluster") or {}).get("leader"), "streams", [
    (s["name"], s["state"]["messages"], (s.get("cluster") or {}).get("leader"), [r["name"] for r in (s.get("cluster") or {}).get("replicas", [])])
    for a in jsz.get("account_details", []) for s in a.get("stream_detail", [])])' >&2 || true
    done
  fi
  compose_stack_down
  exit "$status"
}
trap finish EXIT

# 1. The engine.
compose_engine compose || exit 0

# 2. The images, and the next version's (3's rolling upgrade): this source built with
#    MUSTER_NEXT_VERSION=1 (opl.action.submitted becomes v2, Package.swift), in .build itself, where
#    only MusterOPL and what imports it compile again (about 20 s), then built back at once so the
#    host's muster stays this version.
started=$SECONDS
scripts/make-image.sh debug
echo "compose: images made in $((SECONDS - started)) s"
started=$SECONDS
# SWIFT_FLAGS: make test's own (the same flags, or the build would start over).
MUSTER_NEXT_VERSION=1 swift build ${SWIFT_FLAGS:-} --product muster > "$root/next-build.log" 2>&1 || { tail -30 "$root/next-build.log" >&2; exit 1; }
cp .build/debug/muster "$root/muster-next"
swift build ${SWIFT_FLAGS:-} --product muster > "$root/next-build.log" 2>&1 || { tail -30 "$root/next-build.log" >&2; exit 1; }
MUSTER_IMAGE_NAME=muster:next MUSTER_IMAGE_BINARY=$root/muster-next scripts/make-image.sh debug > "$root/next-image.log" 2>&1 \
  || { cat "$root/next-image.log" >&2; exit 1; }
rm -f "$root/muster-next"
echo "compose: the next version (writes opl.action.submitted.v2, reads v1 through an upcaster) built and imported as muster:next in $((SECONDS - started)) s"

# 3. Two of ingest and query behind the gateway.
compose_stack_environment
export MUSTER=.build/debug/muster
# The load is four writers on one key: above the per-key write limit a laptop's stack keeps (30 a minute).
export MUSTER_RATE_WRITE=6000
if [ -z "${COMPOSE_CLUSTER_ONLY:-}" ]; then
started=$SECONDS
dc up -d --scale ingest=2 --scale query=2 "${services[@]}" > "$root/up.log" 2>&1 || { cat "$root/up.log" >&2; exit 1; }
wait_ready
echo "compose: up with $(dc ps -q ingest | wc -l) ingest and $(dc ps -q query | wc -l) query containers behind the gateway, ready in $((SECONDS - started)) s"

if [ -z "${COMPOSE_UPGRADE_ONLY:-}" ]; then
started=$SECONDS
make --no-print-directory demo > "$root/demo.log" 2>&1 || { echo "compose: make demo through the gateway failed:" >&2; tail -40 "$root/demo.log" >&2; exit 1; }
cp "$root/demo.log" .build/compose-demo.log 2>/dev/null || true
echo "compose: make demo through the gateway passed ($((SECONDS - started)) s; $(grep -c '^==' "$root/demo.log") sections)"

# Prometheus finds every container of every service by DNS (replicas too) and scrapes it.
scraped() {
  curl -fs "http://127.0.0.1:$MUSTER_PROMETHEUS_PORT/api/v1/targets?state=active" | python3 -c '
import json, sys
targets = json.load(sys.stdin)["data"]["activeTargets"]
up = sorted(t["labels"].get("service", "?") for t in targets if t["health"] == "up")
print(len(up), " ".join(up))'
}
targets=""
for _ in $(seq 1 60); do
  targets=$(scraped || true)
  [ "${targets%% *}" -ge 8 ] 2>/dev/null && break
  sleep 2
done
echo "compose: Prometheus scrapes ${targets:-nothing} (every container: two ingest, two query)"
[ "${targets%% *}" -ge 8 ] 2>/dev/null || { echo "compose: Prometheus does not scrape every container" >&2; exit 1; }

fi
key=$($MUSTER keys issue --app opl --scopes write:submit-strike --label "compose test load")
if [ -z "${COMPOSE_UPGRADE_ONLY:-}" ]; then
scripts/compose_load.py "$MUSTER_URL" "$key" 25 "$root/acked-1" 4 &
load=$!
sleep 6
# sed, not head: head leaves as soon as it has a line, and the ps writing a second one then dies of
# SIGPIPE, which pipefail makes this script's failure (seen once in make test, no message).
ingest_one=$(dc ps -q ingest | sed -n 1p) query_one=$(dc ps -q query | sed -n 1p)
kill -KILL "$(docker inspect -f '{{.State.Pid}}' "$ingest_one")" "$(docker inspect -f '{{.State.Pid}}' "$query_one")"
echo "compose: kill -9 of ingest ${ingest_one:0:12} and query ${query_one:0:12} under write load"
wait_running ingest query
echo "compose: both back (restarts: ingest $(docker inspect -f '{{.RestartCount}}' "$ingest_one"), query $(docker inspect -f '{{.RestartCount}}' "$query_one"))"
wait "$load"
$MUSTER tail --all --no-follow 'events.opl.>' > "$root/tail-1"
scripts/compose_load.py check "$root/acked-1" "$root/tail-1"
fi

# A rolling upgrade under load: each ingest container, then each query container, replaced by one of
# muster:next (started beside it with --no-recreate, ready, then the old one stopped: SIGTERM, its
# requests finished); the gateway finds the new addresses within 2 s. The next version writes
# opl.action.submitted.v2 while the old one still runs: old readers (the other query, moderation and
# geocode, never upgraded here) read it forward as v1, the new one reads v1 through its upcaster.
upgrade_started=$(date +%s.%N)
dlq_before=$(dlq_messages)
read_key=$($MUSTER keys issue --app opl --scopes read:mobile --label "compose test upgrade reads")
# The load goes on until every container is replaced and a few seconds more (at most 5 minutes).
LOAD_READ_KEY=$read_key LOAD_STRICT=1 LOAD_STOP_FILE=$root/upgraded scripts/compose_load.py "$MUSTER_URL" "$key" 300 "$root/acked-3" 4 > "$root/load-3.log" &
load=$!
sleep 5
for service in ingest query; do
  for old in $(dc ps -q "$service"); do
    before=$(dc ps -q "$service" | sort)
    MUSTER_IMAGE=muster:next dc up -d --no-deps --no-recreate --scale "$service=3" "$service" >> "$root/upgrade.log" 2>&1 \
      || { cat "$root/upgrade.log" >&2; exit 1; }
    new=$(comm -13 <(echo "$before") <(dc ps -q "$service" | sort) | sed -n 1p)
    [ -n "$new" ] && [ "$(docker inspect -f '{{.Config.Image}}' "$new")" = muster:next ] \
      || { echo "compose: no container of muster:next was added to $service" >&2; exit 1; }
    for _ in $(seq 1 200); do docker exec "$new" curl -fs localhost:8080/ready >/dev/null 2>&1 && break; sleep 0.3; done
    docker exec "$new" curl -fs localhost:8080/ready >/dev/null || { echo "compose: the next $service ${new:0:12} is not ready" >&2; exit 1; }
    sleep 3 # the gateway's next look at the addresses
    docker stop -t 20 "$old" >/dev/null && docker rm "$old" >/dev/null
    echo "compose: $(date +%T) $service ${old:0:12} replaced by ${new:0:12} (muster:next) under load"
  done
done
sleep 5
touch "$root/upgraded"
wait "$load" || { cat "$root/load-3.log"; echo "compose: the rolling upgrade answered something else than a 2xx or a 503 with Retry-After" >&2; exit 1; }
cat "$root/load-3.log"
$MUSTER tail --all --no-follow 'events.opl.action.>' > "$root/tail-3"
checked=$(scripts/compose_load.py check "$root/acked-3" "$root/tail-3" "$upgrade_started" "the upgrade began") || { echo "$checked"; exit 1; }
echo "$checked"
grep -q 'stored as v1 [1-9][0-9]*, v2 [1-9]' <<< "$checked" \
  || { echo "compose: the old version wrote no opl.action.submitted.v1 or the next no v2" >&2; exit 1; }
# Caught up afterwards: every fold of the new containers (lag 0 in /metrics), and the old moderation
# service checked every submission, v2 ones read forward included; nothing went to the DLQ.
caught_up() {
  for id in $(dc ps -q ingest query); do
    docker exec "$id" curl -fs localhost:9464/metrics \
      | awk '$1 ~ /^muster_projection_lag/ { folds++; if ($2 != 0) bad = 1 } END { exit bad || !folds }' || return 1
  done
}
unchecked() {
  $MUSTER tail --all --no-follow 'events.opl.action.>' | python3 -c '
import sys
submitted, checked = set(), set()
for line in sys.stdin:
    parts = line.split("\t")
    if len(parts) < 3: continue
    subject = parts[2].split(".")
    (submitted if subject[4] == "submitted" else checked if subject[4] == "checked" else set()).add(subject[3])
print(len(submitted - checked))'
}
for _ in $(seq 1 60); do caught_up && [ "$(unchecked)" = 0 ] && break; sleep 1; done
caught_up || { echo "compose: a fold of the upgraded ingest or query is behind the log" >&2; exit 1; }
[ "$(unchecked)" = 0 ] || { echo "compose: $(unchecked) submitted actions were never checked by moderation" >&2; exit 1; }
dlq_after=$(dlq_messages)
[ "$dlq_after" = "$dlq_before" ] || { echo "compose: the upgrade sent $((dlq_after - dlq_before)) events to the DLQ" >&2; exit 1; }
echo "compose: rolling upgrade to muster:next in $(python3 -c "import time; print(round(time.time() - $upgrade_started))") s: every fold caught up, every submission checked by the old moderation service, nothing in the DLQ"

# Down, then up: the volume keeps every event; the containers come back as muster:latest, the
# version before the upgrade, which reads what the next one wrote (a rollback).
events_before=$($MUSTER tail --all --no-follow | wc -l)
started=$SECONDS
dc down > "$root/down.log" 2>&1
dc up -d --scale ingest=2 --scale query=2 "${services[@]}" > "$root/up.log" 2>&1 || { cat "$root/up.log" >&2; exit 1; }
wait_ready
events_after=$($MUSTER tail --all --no-follow | wc -l)
echo "compose: down, then up as muster:latest again ($((SECONDS - started)) s): $events_before events before, $events_after after"
[ "$events_after" -ge "$events_before" ] || { echo "compose: events were lost across down and up" >&2; exit 1; }
dc down -v > "$root/down.log" 2>&1
fi
[ -n "${COMPOSE_UPGRADE_ONLY:-}" ] && { echo "compose: every step asked for passed"; exit 0; }

# 4. Three NATS containers, the log at R3, one killed under load.
files=(-f deploy/docker-compose.yml -f deploy/docker-compose.cluster.yml)
started=$SECONDS
dc up -d nats nats-2 nats-3 ingest geocode moderation collector notifier query gateway > "$root/up.log" 2>&1 || { cat "$root/up.log" >&2; exit 1; }
wait_ready
echo "compose: cluster file up ($((SECONDS - started)) s): three NATS containers, the log at R3"
key=$($MUSTER keys issue --app opl --scopes write:submit-strike --label "compose test cluster load")
scripts/compose_load.py "$MUSTER_URL" "$key" 20 "$root/acked-2" 4 &
load=$!
sleep 6
# The server that leads the events stream (nats-1 is compose's `nats`): the hardest one to lose.
leader=$(docker exec "$(dc ps -q nats)" curl -s 'localhost:8222/jsz?accounts=true&streams=true' | python3 -c '
import json, sys
jsz = json.load(sys.stdin)
print(next((s.get("cluster") or {}).get("leader") or "" for a in jsz.get("account_details", []) for s in a.get("stream_detail", []) if s["name"] == "EVENTS"))' 2>/dev/null || true)
case "$leader" in nats-2|nats-3) victim=$leader ;; *) victim=nats ;; esac
killed=$(date +%s.%N)
kill -KILL "$(docker inspect -f '{{.State.Pid}}' "$(dc ps -q "$victim")")"
echo "compose: kill -9 of ${leader:-nats-1 (no leader found)}, the log's leader, under write load"
wait "$load"
$MUSTER tail --all --no-follow 'events.opl.>' > "$root/tail-2"
scripts/compose_load.py check "$root/acked-2" "$root/tail-2" "$killed"
echo "compose: every step passed"
