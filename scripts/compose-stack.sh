# Sourced by scripts/compose-test.sh and scripts/soak.sh (SOAK_STACK=compose): Muster's compose files
# on a Docker engine of their own, and what both do with them.
#   compose_engine NAME         the engine DOCKER_HOST names if it answers, else dockerd started here as
#                               root with its own data root, exec root and socket under "$root", no
#                               default bridge and no iptables rules (compose's own network joins the
#                               containers; published ports go through docker-proxy on loopback).
#                               Returns 1, saying NAME is skipped and why, when there is none.
#   compose_stack_environment   free ports, a certificate for the gateway, the gazetteer, and what the
#                               host's commands speak through: the gateway over HTTPS, NATS as the operator.
#   compose_stack_down          every container and volume of the project, then the engine if started
#                               here (with the mounts and bridges it left), then "$root".
#   wait_ready, wait_running, dlq_messages
# Sets root (a temporary folder), project, files and dc (docker-compose for this project's files).
root=$(mktemp -d "${TMPDIR:-/tmp}/muster-compose.XXXXXX")
own_engine=""
project=muster$$
files=(-f deploy/docker-compose.yml)
dc() { docker-compose -p "$project" "${files[@]}" "$@"; }
services=(nats ingest geocode moderation collector notifier query gateway prometheus)
bridges_before=$(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | sort || true)

compose_engine() {
  if docker version >/dev/null 2>&1; then
    echo "$1: using the Docker engine at ${DOCKER_HOST:-the default socket}"
  elif [ "$(id -u)" = 0 ] && command -v dockerd >/dev/null && command -v docker-compose >/dev/null; then
    export DOCKER_HOST=unix://$root/docker.sock
    dockerd --data-root "$root/data" --exec-root "$root/exec" --host "$DOCKER_HOST" --pidfile "$root/docker.pid" \
      --bridge none --iptables=false --ip6tables=false > "$root/dockerd.log" 2>&1 &
    own_engine=$!
    for _ in $(seq 1 150); do docker version >/dev/null 2>&1 && break; kill -0 "$own_engine" 2>/dev/null || break; sleep 0.2; done
    docker version >/dev/null 2>&1 || { echo "$1: dockerd did not start:" >&2; tail -20 "$root/dockerd.log" >&2; exit 1; }
    echo "$1: started dockerd $(docker version --format '{{.Server.Version}}') in $root ($(docker info --format '{{.Driver}}'))"
  else
    echo "$1: skipped: no Docker engine answers and none can be started here (needs root, dockerd and docker-compose: make deps installs docker.io and docker-compose)"
    return 1
  fi
}

compose_stack_environment() {
  free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
  export MUSTER_HTTP_PORT=$(free_port) MUSTER_HTTPS_PORT=$(free_port) MUSTER_NATS_PORT=$(free_port) MUSTER_PROMETHEUS_PORT=$(free_port)
  scripts/make-certs.sh "$root/tls" >/dev/null
  export MUSTER_TLS_CERT=$root/tls/cert.pem MUSTER_TLS_KEY=$root/tls/key.pem
  mkdir -p "$root/gazetteer"
  if [ -s .data/gazetteer/places.tsv ]; then cp .data/gazetteer/places.tsv "$root/gazetteer/"; else cp Tests/Fixtures/gazetteer-sample.tsv "$root/gazetteer/places.tsv"; fi
  export MUSTER_GAZETTEER_DIR=$root/gazetteer
  export MUSTER_URL=https://127.0.0.1:$MUSTER_HTTPS_PORT CURL_CA_BUNDLE=$MUSTER_TLS_CERT SSL_CERT_FILE=$MUSTER_TLS_CERT
  export MUSTER_NATS_URL=nats://admin:${ADMIN_NATS_PASSWORD:-admin-dev-password}@127.0.0.1:$MUSTER_NATS_PORT
  export MUSTER_DEMO_STATE=$root/demo
}

compose_stack_down() {
  if docker version >/dev/null 2>&1; then
    dc down -v --remove-orphans >/dev/null 2>&1
    files=(-f deploy/docker-compose.yml -f deploy/docker-compose.cluster.yml) dc down -v --remove-orphans >/dev/null 2>&1
  fi
  if [ -n "$own_engine" ]; then
    kill -TERM "$own_engine" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$own_engine" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$own_engine" 2>/dev/null
    # What the engine made and did not take away: mounts under its folders, bridges of compose networks.
    grep -o " $root[^ ]*" /proc/mounts | sort -r | while read -r mount; do umount -l "$mount" 2>/dev/null; done
    for bridge in $(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | sort); do
      echo "$bridges_before" | grep -qx "$bridge" || ip link del "$bridge" 2>/dev/null
    done
  fi
  rm -rf "$root"
}

# Ready through the gateway ten times in a row: each replica answers, not only the first to listen.
wait_ready() {
  local streak=0
  for _ in $(seq 1 300); do
    if curl -fs "$MUSTER_URL/ready" >/dev/null 2>&1; then streak=$((streak + 1)); else streak=0; fi
    [ "$streak" -ge 10 ] && return 0
    sleep 0.3
  done
  echo "compose: the gateway did not answer /ready within 90 s" >&2
  return 1
}

# Every container of a service up again (the restart policy's work after a kill -9).
wait_running() {
  for _ in $(seq 1 200); do
    local down=0
    for id in $(dc ps -q "$@"); do [ "$(docker inspect -f '{{.State.Running}}' "$id")" = true ] || down=1; done
    [ "$down" = 0 ] && return 0
    sleep 0.3
  done
  echo "compose: $* did not come back" >&2
  return 1
}

# Messages in the dead-letter stream (NATS's monitoring port, inside its container).
dlq_messages() {
  docker exec "$(dc ps -q nats)" curl -s 'localhost:8222/jsz?accounts=true&streams=true' | python3 -c '
import json, sys
jsz = json.load(sys.stdin)
print(sum(s["state"]["messages"] for a in jsz.get("account_details", []) for s in a.get("stream_detail", []) if s["name"] == "DLQ"))'
}
