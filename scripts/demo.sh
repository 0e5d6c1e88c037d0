#!/usr/bin/env bash
# Publishes a small, realistic data set into a running Muster (start one with `make run`):
# keys for each app, one revoked after a leak, an operator key, and a v1 revocation that the
# projections read as v2. Then shows what the HTTP side makes of it.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}

echo "== issuing keys"
opl=$($M keys issue --app opl --scopes read:mobile,write:gps-snapshot,write:submit-strike --label "OPL iOS 3.2")
$M keys issue --app opl --scopes read:mobile --label "DNS filter, Rapid City co-op" >/dev/null
$M keys issue --app pop --scopes read:civics,write:civics --label "PoP iOS" >/dev/null
$M keys issue --app shieldai --scopes devices:register,voice:enroll,documents:scan --label "ShieldAI iOS" >/dev/null
leaked=$($M keys issue --app offleash --scopes write:analytics --label "OFFLEASH beta (leaked)" 2>&1 >/dev/null | sed -E 's/^issued (key_[0-9a-f]+).*/\1/')
admin=$($M keys issue --app platform --scopes admin:platform --label "demo operator")

echo "== an OPL moderator's account (signs in at /moderation with email and password)"
$M people create-org --slug opl --app opl --name "Online Picket Line moderators"
if ! out=$(echo "Picket2026" | $M people add --org opl --role moderator --email moderator@opl.demo --first-name Morgan --last-name Moderator 2>&1); then
  case "$out" in *"already exists"*) echo "moderator@opl.demo is there already (an earlier run)";; *) echo "demo: $out" >&2; exit 1;; esac
else echo "$out"; fi

echo "== revoking the leaked key $leaked (v2: who and why)"
$M keys revoke "$leaked" --reason "posted in a public issue tracker"

echo "== an old-style v1 revocation, published straight from JSON"
old=$($M keys issue --app pop --scopes read:civics --label "PoP web (retired)" 2>&1 >/dev/null | sed -E 's/^issued (key_[0-9a-f]+).*/\1/')
echo "{\"keyId\": \"$old\"}" | $M publish platform.apikey.revoked.v1

echo "== an invalid event is refused with the failing field named"
if echo '{"keyId": "key_0000000000000001", "reason": ""}' | $M publish platform.apikey.revoked.v2; then
  echo "demo: an invalid event was accepted" >&2; exit 1
fi

sleep 1
echo "== the OPL app's key"
curl -s -H "X-API-Key: $opl" "$URL/api/platform/whoami"; echo
echo "== every key, as an operator sees them"
curl -s -H "X-API-Key: $admin" "$URL/api/platform/keys"; echo
echo "== the log"
$M tail --all --no-follow
