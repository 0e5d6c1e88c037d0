#!/bin/sh
# The gateway's entrypoint: nginx, reloaded when a service's containers change addresses.
#
# nginx (1.22, Debian's) looks an upstream's name up once, when it loads its configuration.
# Compose gives a restarted container a new address and may hand its old one to another
# service's container: the compose test saw writes meant for ingest answered "no route" by a
# query container that had taken a killed ingest's address, for as long as the gateway ran.
# So the names are looked up every two seconds, and nginx reloads (after `nginx -t`, which
# looks them up too) when an answer changed. GATEWAY_SERVICES overrides the names.
set -u
names=${GATEWAY_SERVICES:-"ingest geocode moderation collector query"}
addresses() {
  for name in $names; do
    printf '%s=%s\n' "$name" "$(getent ahostsv4 "$name" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ',')"
  done
}

# Looked up before nginx starts: an address that changes while it loads is then a change seen
# at the next look (one reload too many at worst, never one missed).
seen=$(addresses)
nginx -g 'daemon off;' &
nginx_pid=$!
# docker stop sends TERM to this shell: nginx finishes its requests and stops (QUIT).
trap 'kill -QUIT "$nginx_pid" 2>/dev/null' TERM INT QUIT
while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep 2 &
  wait $! # a trap runs at once, not after the sleep
  now=$(addresses)
  if [ "$now" != "$seen" ] && nginx -t -q 2>/dev/null && nginx -s reload; then
    echo "gateway: the services' addresses changed; nginx reloaded: $(echo "$now" | tr '\n' ' ')" >&2
    seen=$now
  fi
done
wait "$nginx_pid"
