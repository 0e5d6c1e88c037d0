#!/usr/bin/env bash
# Pushes in a running Muster: registers a ShieldAI iPhone with curl, sends it a deep-link push with
# POST /api/push, shows what the APNs stand-in received, then has the stand-in answer 410 for the
# token and shows the device invalidated. Needs `make run APNS=standin`; without it, says so.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}
APNS_URL=${APNS_URL:-https://127.0.0.1:${APNS_PORT:-2197}}

json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
api() { curl -fsS -X "$1" -H "X-API-Key: $2" -H "Content-Type: application/json" ${4:+-d "$4"} "$URL$3"; }

echo "== pushes (ShieldAI)"
if ! curl -ksf "$APNS_URL/standin/deliveries" >/dev/null 2>&1; then
  echo "   no APNs stand-in at $APNS_URL: start Muster with 'make run APNS=standin' to see a push delivered"
  exit 0
fi
KEY=$($M keys issue --app shieldai --scopes devices:register,push:send --label "push demo")
TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
REG=$(api POST "$KEY" /api/devices "{\"token\": \"$TOKEN\", \"platform\": \"ios\", \"bundleId\": \"com.kordant.shieldai\", \"environment\": \"sandbox\", \"locale\": \"en-US\", \"timeZone\": \"America/Chicago\", \"topics\": [\"alerts\"]}")
DEVICE=$(echo "$REG" | json 'd["deviceId"]')
SECRET=$(echo "$REG" | json 'd["deviceSecret"]') # shown once: the installation proves itself with it
echo "   registered device $DEVICE (token ${TOKEN:0:12}…)"

wait_done() { # push id → prints its counts once completed
  for _ in $(seq 1 100); do
    status=$(api GET "$KEY" "/api/push/$1")
    [ "$(echo "$status" | json 'd["status"]')" = "completed" ] && { echo "$status"; return; }
    sleep 0.1
  done
  echo "$status"
}

PUSH=$(api POST "$KEY" /api/push "{\"audience\": {\"deviceIds\": [\"$DEVICE\"]}, \"title\": \"Voice enrolled\", \"body\": \"Your voiceprint is ready. Tap to review.\", \"screen\": \"enrollment\", \"id\": \"enr_demo\", \"imageUrl\": \"https://cdn.example.com/waveform.png\"}" | json 'd["pushId"]')
echo "   push $PUSH: $(wait_done "$PUSH")"
echo "   the stand-in received:"
curl -ksS "$APNS_URL/standin/deliveries" | python3 -c '
import json, sys
for d in json.load(sys.stdin)[-1:]:
    print("     token", d["token"][:12] + "…", "topic", d["topic"], "apns-id", d["apnsId"])
    print("     payload", d["payload"])'

echo "== the app is deleted: APNs answers 410 Unregistered for that token"
curl -ksS -X POST "$APNS_URL/standin/unregister/$TOKEN" >/dev/null
PUSH=$(api POST "$KEY" /api/push '{"audience": {"topics": ["alerts"]}, "title": "New exposure", "body": "Your email appeared in a breach.", "screen": "darkwatch"}' | json 'd["pushId"]')
echo "   push $PUSH: $(wait_done "$PUSH")"
sleep 0.3
echo "   device: $(curl -fsS -H "X-API-Key: $KEY" -H "X-Device-Id: $DEVICE" -H "X-Device-Secret: $SECRET" "$URL/api/devices/$DEVICE" | json '{k: d[k] for k in ("deviceId", "status", "invalidReason") if k in d}')"
echo "   (registering the token again revives it; the push key: $KEY)"

echo "== OPL: a phone opted into proximity alerts for cell c23nb (downtown Seattle) hears of a strike approved there"
OKEY=$($M keys issue --app opl --scopes write:submit-strike,moderate:opl,devices:register --label "proximity demo")
curl -fsS -o /dev/null -H "X-API-Key: $OKEY" -H 'Content-Type: application/json' \
  -d "{\"token\": \"$(python3 -c 'import secrets; print(secrets.token_hex(32))')\", \"platform\": \"ios\", \"bundleId\": \"org.onlinepicketline.app\", \"cells\": [\"c23nb\"]}" "$URL/api/devices"
ACTION=$(api POST "$OKEY" /api/mobile/submit-strike '{"employer": {"name": "Pike Place Grocers"}, "action": {"organization": "UFCW 3000", "actionType": "strike", "location": "Seattle, WA", "startDate": "'"$(date -u +%F)"'", "durationDays": 10, "description": "Grocery workers on strike", "coordinates": {"latitude": 47.6062, "longitude": -122.3321}}}' | json 'd["id"]')
for _ in $(seq 1 50); do api POST "$OKEY" "/api/moderation/actions/$ACTION/approve" '{"reason": "verified by the local"}' >/dev/null 2>&1 && break; sleep 0.2; done
for _ in $(seq 1 50); do
  heard=$(curl -ksS "$APNS_URL/standin/deliveries" | python3 -c 'import json,sys; print(sum(1 for d in json.load(sys.stdin) if "'"$ACTION"'" in d["payload"]))')
  [ "$heard" != "0" ] && break; sleep 0.2
done
echo "   approved $ACTION: the stand-in received $heard 'Strike near you' push(es) that open it"
