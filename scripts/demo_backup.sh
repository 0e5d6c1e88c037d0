#!/usr/bin/env bash
# Part of make demo: a backup of everything the demo wrote, checked, and restored into a scratch
# nats-server, as an operator's monthly restore drill does (docs/backup.md). A step that fails
# fails the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
NATS_SERVER=${NATS_SERVER:-.tools/nats/bin/nats-server}
folder=${MUSTER_DEMO_STATE:-.data}/backups
mkdir -p "$folder"
file=$folder/muster-$(date -u +%Y%m%dT%H%M%SZ).tar

echo "== a backup of every stream while the server runs (muster backup --output $file)"
$M backup --output "$file" 2>/dev/null
echo "-- what is in it (tar tf):"
tar tf "$file"
$M restore --verify-only "$file" 2>/dev/null

echo "== restoring it into a scratch nats-server (a restore drill)"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/muster-restore.XXXXXX")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NATS_SERVER" -a 127.0.0.1 -p "$port" -js -sd "$scratch/js" > "$scratch/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 1 50); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
restored=$(MUSTER_NATS_URL=nats://127.0.0.1:$port $M restore "$file" 2>/dev/null)
echo "$restored"
# The restored log holds at least what the manifest says the live one held when the backup began.
backed=$(tar xOf "$file" manifest.json | python3 -c 'import json,sys; print(next(s["messages"] for s in json.load(sys.stdin)["streams"] if s["name"] == "EVENTS"))')
now=$(echo "$restored" | sed -n 's/^EVENTS: \([0-9]*\) messages.*/\1/p')
[ -n "$now" ] && [ "$now" -ge "$backed" ] || { echo "demo: the restored log holds ${now:-nothing}, the backup began with $backed" >&2; exit 1; }
echo "the restored log holds all $backed events the backup began with; a second restore is refused:"
again=$(MUSTER_NATS_URL=nats://127.0.0.1:$port $M restore "$file" 2>&1 || true)
case "$again" in
  *"already has"*) echo "${again##*Error: }";;
  *) echo "demo: restoring over existing streams was not refused: $again" >&2; exit 1;;
esac
