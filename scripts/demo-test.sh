#!/usr/bin/env bash
# `make test` runs the demo as a newcomer would, second: a fresh stack (nats-server, the APNs, FCM,
# sign-in and payments stand-ins, `muster serve all`; scripts/run-local.sh) on free ports with an empty data folder,
# then `make demo`, twice (a newcomer runs it again on the same data). Any step that fails fails the run, with the
# demo's and the stack's last lines.
set -euo pipefail
cd "$(dirname "$0")/.."

root=$(mktemp -d "${TMPDIR:-/tmp}/muster-demo.XXXXXX")
. scripts/local-stack.sh
finish() {
  status=$?
  kill -TERM "$stack" 2>/dev/null && wait "$stack" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    echo "demo: FAILED; its last lines:" >&2; tail -40 "$root/demo.log" >&2 2>/dev/null || true
    echo "the stack's last lines:" >&2; tail -20 "$root/stack.log" >&2 || true
  fi
  mkdir -p .build && cp "$root/demo.log" .build/demo-run.log 2>/dev/null || true # kept for a look afterwards
  rm -rf "$root"
}
trap finish EXIT

stack_ready demo

started=$SECONDS
make --no-print-directory demo > "$root/demo.log" 2>&1
echo "demo: every step of make demo passed on an empty data folder ($((SECONDS - started)) s; $(grep -c '^==' "$root/demo.log") sections)"
# A newcomer runs it again, on the same data: every step must pass the second time too.
started=$SECONDS
make --no-print-directory demo > "$root/demo.log" 2>&1
echo "demo: and again on the same data ($((SECONDS - started)) s)"

# README's commands for a second terminal, as written there (this run's port in place of 8080):
# the newcomer's next step after the demo must work too.
commands=$(awk '/^In a second terminal:/ { found = 1; next } found && /^```sh/ { inside = 1; next } inside && /^```/ { exit } inside' README.md \
  | grep -v '^make demo' | sed -e "s|http://127.0.0.1:8080|$MUSTER_URL|g" -e 's|^curl |curl -fsS |')
[ -n "$commands" ] || { echo "demo: README has no commands for a second terminal" >&2; exit 1; }
bash -euo pipefail -c "$commands" > "$root/readme.log" 2>&1 || { echo "demo: README's commands failed:" >&2; cat "$root/readme.log" >&2; exit 1; }
grep -q '"blocklist"' "$root/readme.log" || { echo "demo: README's curl did not answer the blocklist" >&2; head -c 600 "$root/readme.log" >&2; exit 1; }
echo "demo: README's commands for a second terminal work ($(wc -l < "$root/readme.log") lines of output)"
