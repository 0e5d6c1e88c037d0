#!/usr/bin/env bash
# make soak (SOAK_MINUTES, 10 by default; SOAK_MINUTES=60 for an hour), and 10 minutes of make bench:
# a fresh stack as `make run` starts it (nats-server, the stand-ins, `muster serve all`) on free ports
# with an empty data folder, `make demo` for its people and data, then scripts/soak.py's steady mixed
# load of the five apps' calls, sampled every 10 s. The CSV and the chart go to bench/out/ (soak.csv,
# soak.png); the run fails if RSS or open files keep growing after the warm-up or p99 drifts by more
# than 50 % (soak.py says how it decides).
# SOAK_STACK=compose: the same against deploy/docker-compose.yml (two of ingest and query behind the
# HTTPS gateway, images of this build's muster, an engine of its own: scripts/compose-stack.sh), every
# muster container's /metrics summed; bench/out/soak-compose.csv and .png. Skipped without an engine.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${SOAK_MINUTES:-10}
out=${SOAK_OUT:-bench/out}

# A steady load from one address on a few keys: above the per-key limits a laptop's stack keeps.
export MUSTER_RATE_WRITE=100000 MUSTER_RATE_READ=100000
# The programs of a build: debug for make soak, release for make bench (MUSTER_BIN_DIR).
export MUSTER_BIN_DIR=${MUSTER_BIN_DIR:-.build/debug}
export MUSTER=$MUSTER_BIN_DIR/muster
M=$MUSTER
if [ "${SOAK_STACK:-local}" = compose ]; then
  . scripts/compose-stack.sh
  finish() {
    status=$?
    set +e
    [ "$status" -ne 0 ] && { echo "soak: FAILED; the containers' last lines:" >&2; dc logs --tail 10 --no-color 2>&1 | tail -80 >&2; }
    compose_stack_down
    exit "$status"
  }
  trap finish EXIT
  compose_engine "soak (compose)" || exit 0
  MUSTER_IMAGE_BINARY=$MUSTER scripts/make-image.sh debug > "$root/image.log" 2>&1 || { cat "$root/image.log" >&2; exit 1; }
  compose_stack_environment
  dc up -d --scale ingest=2 --scale query=2 "${services[@]}" > "$root/up.log" 2>&1 || { cat "$root/up.log" >&2; exit 1; }
  wait_ready
else
  root=$(mktemp -d "${TMPDIR:-/tmp}/muster-soak.XXXXXX")
  . scripts/local-stack.sh
  finish() {
    status=$?
    kill -TERM "$stack" 2>/dev/null && wait "$stack" 2>/dev/null || true
    [ "$status" -ne 0 ] && { echo "soak: FAILED; the stack's last lines:" >&2; tail -20 "$root/stack.log" >&2 || true; }
    rm -rf "$root"
  }
  trap finish EXIT
  stack_ready soak
fi

echo "soak: setting up with make demo"
make --no-print-directory demo > "$root/demo.log" 2>&1 || { echo "soak: make demo failed:" >&2; tail -20 "$root/demo.log" >&2; exit 1; }
export SOAK_OPL_KEY=$($M keys issue --app opl --scopes read:mobile,write:submit-strike --label "soak" 2>/dev/null)
export SOAK_POP_KEY=$($M keys issue --app pop --scopes read:civics,write:civics --label "soak" 2>/dev/null)
export SOAK_ANALYTICS_KEY=$($M keys issue --app offleash --scopes write:analytics --label "soak" 2>/dev/null)
export SOAK_PUSH_KEY=$($M keys issue --app shieldai --scopes devices:register,push:send --label "soak" 2>/dev/null)
export SOAK_OFFLEASH_PASSWORD=Walkies2026 SOAK_FIELD_PASSWORD=Hardhat2026   # make demo's people
export SOAK_POP_INSTALL=$(python3 -c 'import uuid; print(uuid.uuid4())')
token=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
export SOAK_PUSH_DEVICE=$(curl -fsS -X POST -H "X-API-Key: $SOAK_PUSH_KEY" -H 'Content-Type: application/json' "$MUSTER_URL/api/devices" \
  -d "{\"token\": \"$token\", \"platform\": \"ios\", \"bundleId\": \"com.kordant.shieldai\", \"environment\": \"sandbox\"}" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["deviceId"])')
if [ "${SOAK_STACK:-local}" = compose ]; then
  # Every muster container (the gateway, NATS and Prometheus are not Muster's): their sums are watched.
  export SOAK_CONTAINERS="$(dc ps -q ingest geocode moderation collector notifier query | tr '\n' ' ')" SOAK_NAME=soak-compose
  export SOAK_NATS_CONTAINER=$(dc ps -q nats)
  echo "soak: $minutes min against the compose stack ($(echo $SOAK_CONTAINERS | wc -w) muster containers: two of ingest and query) through its HTTPS gateway, a sample every 10 s"
  scripts/soak.py "$MUSTER_URL" containers "$minutes" "$out"
else
  # The process serving HTTP: the one whose RSS and files are watched.
  pid=$(ss -ltnpH "sport = :$MUSTER_HTTP_PORT" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)
  [ -n "$pid" ] || { echo "soak: no process listens on $MUSTER_HTTP_PORT" >&2; exit 1; }
  echo "soak: $minutes min against $MUSTER serve all (pid $pid), a sample every 10 s"
  scripts/soak.py "$MUSTER_URL" "$pid" "$minutes" "$out"
fi
