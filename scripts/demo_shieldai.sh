#!/usr/bin/env bash
# ShieldAI's voice enrollment in a running Muster: speech made with espeak-ng, resampled by sox to
# 16 kHz mono, is accepted; the same speech at 8 kHz is refused with the rule it breaks.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# call METHOD PATH EXPECTED [BODY] [HEADER…]: the answer's body; any other status stops the demo.
call() {
  local method=$1 path=$2 expected=$3 body=${4:-} status; shift 4 || shift $#
  status=$(curl -sS -o "$work/answer" -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' "$@" \
    ${body:+-d "$body"} "$URL$path")
  if [ "$status" != "$expected" ]; then echo "demo_shieldai: $method $path answered $status, not $expected: $(head -c 300 "$work/answer")" >&2; exit 1; fi
  cat "$work/answer"
}

echo "== ShieldAI: an account proven by a mailed code, a refresh token bound to the phone, sessions seen and ended"
$M people create-org --slug shieldai --app shieldai --name "ShieldAI" >/dev/null
SMS_PORT=${SMS_PORT:-2200} IDENTITY_PORT=${IDENTITY_PORT:-2199}
EMAIL=sam@shieldai.demo PASSWORD=Shielded2026
APPKEY=$($M keys issue --app shieldai --scopes devices:register --label "ShieldAI demo phone")
PHONE=$(call POST /api/devices 201 "{\"token\": \"$(python3 -c 'import secrets; print(secrets.token_hex(32))')\", \"platform\": \"ios\", \"bundleId\": \"com.kordant.shieldai\", \"environment\": \"sandbox\"}" -H "X-API-Key: $APPKEY")
PHONE_ID=$(echo "$PHONE" | json 'd["deviceId"]') PHONE_SECRET=$(echo "$PHONE" | json 'd["deviceSecret"]')
bound=(-H "X-Device-Id: $PHONE_ID" -H "X-Device-Secret: $PHONE_SECRET")
signin="{\"email\": \"$EMAIL\", \"password\": \"$PASSWORD\", \"device_name\": \"Sam's iPhone\", \"platform\": \"ios\"}"
status=$(curl -sS -o "$work/answer" -w '%{http_code}' -H 'Content-Type: application/json' "${bound[@]}" -d "$signin" "$URL/api/shieldai/auth/login")
if [ "$status" = 200 ]; then
  cp "$work/answer" "$work/signedin"; echo "   signed in as $EMAIL (the account is there from an earlier run)"
elif curl -fsS "http://127.0.0.1:$SMS_PORT/standin/messages" >/dev/null 2>&1; then
  call POST /api/shieldai/auth/register 202 "{\"first_name\": \"Sam\", \"last_name\": \"Safe\", \"email\": \"$EMAIL\", \"password\": \"$PASSWORD\"}" >/dev/null
  code=""
  for _ in $(seq 1 50); do
    code=$(curl -fsS "http://127.0.0.1:$SMS_PORT/standin/messages" | json '([""] + [w.rstrip(".;") for m in d if m["to"] == "'"$EMAIL"'" for w in m["body"].split() if len(w.rstrip(".;")) == 6 and w.rstrip(".;").isdigit()])[-1]')
    [ -n "$code" ] && break; sleep 0.1
  done
  [ -n "$code" ] || { echo "demo_shieldai: no code was mailed to $EMAIL" >&2; exit 1; }
  echo "   signed up as $EMAIL; the code $code came by mail (the stand-in's /standin/messages)"
  call POST /api/shieldai/auth/verify-email 200 "{\"email\": \"$EMAIL\", \"code\": \"$code\", \"device_name\": \"Sam's iPhone\", \"platform\": \"ios\"}" "${bound[@]}" > "$work/signedin"
else
  echo "   (no mail stand-in at 127.0.0.1:$SMS_PORT: make run SIGNIN=standin; Sam is added with muster people add instead)"
  echo "$PASSWORD" | $M people add --org shieldai --role customer --email "$EMAIL" --first-name Sam --last-name Safe >/dev/null
  call POST /api/shieldai/auth/login 200 "$signin" "${bound[@]}" > "$work/signedin"
fi
REFRESH=$(json 'd["refresh_token"]' < "$work/signedin")
call POST /api/shieldai/auth/refresh 401 "{\"refresh_token\": \"$REFRESH\"}" >/dev/null
echo "   the phone's refresh token without the phone's secret: 401 (a stolen token alone is useless)"
ACCESS=$(call POST /api/shieldai/auth/refresh 200 "{\"refresh_token\": \"$REFRESH\"}" "${bound[@]}" | json 'd["token"]')
echo "   with X-Device-Id and X-Device-Secret: 200, a new pair"
IPAD=$(call POST /api/shieldai/auth/login 200 "{\"email\": \"$EMAIL\", \"password\": \"$PASSWORD\", \"device_name\": \"Sam's iPad\", \"platform\": \"ios\"}" | json 'd["refresh_token"]')
if curl -fsS -o /dev/null "http://127.0.0.1:$IDENTITY_PORT/apple/keys" 2>/dev/null; then
  apple=$(curl -fsS -X POST -H 'Content-Type: application/json' -d '{"provider": "apple", "sub": "000777.shieldai", "email": "kim@privaterelay.appleid.com", "aud": "com.kordant.shieldai"}' \
    "http://127.0.0.1:$IDENTITY_PORT/standin/token" | json 'd["id_token"]')
  call POST /api/shieldai/auth/apple 200 "{\"id_token\": \"$apple\", \"first_name\": \"Kim\"}" | json '"   Sign in with Apple: " + d["user"]["email"]'
fi
# A second factor: the authenticator app's codes (computed here as the app would, from the secret typed in).
totp() { python3 -c 'import base64, hashlib, hmac, struct, sys, time
key = base64.b32decode(sys.argv[1] + "=" * (-len(sys.argv[1]) % 8))
h = hmac.new(key, struct.pack(">Q", int(time.time() // 30) + int(sys.argv[2])), hashlib.sha1).digest()
o = h[-1] & 15
print("%06d" % ((struct.unpack(">I", h[o:o + 4])[0] & 0x7fffffff) % 1000000))' "$1" "$2"; }
SECRET=$(call POST /api/shieldai/auth/second-factor 200 "" -H "Authorization: Bearer $ACCESS" | json 'd["secret"]')
RECOVERY=$(call POST /api/shieldai/auth/second-factor/confirm 200 "{\"code\": \"$(totp "$SECRET" 0)\"}" -H "Authorization: Bearer $ACCESS" | json 'd["recovery_codes"][0]')
# One code, typed twice: computed once so a 30-second boundary between the two tries cannot turn the replay into a
# fresh (and valid) next-window code.
CODE=$(totp "$SECRET" 1)
CHALLENGE=$(call POST /api/shieldai/auth/login 200 "{\"email\": \"$EMAIL\", \"password\": \"$PASSWORD\"}" | json 'd["challenge"]')
call POST /api/shieldai/auth/login/second-factor 200 "{\"challenge\": \"$CHALLENGE\", \"code\": \"$CODE\", \"device_name\": \"Sam's Mac\", \"platform\": \"web\"}" >/dev/null
CHALLENGE=$(call POST /api/shieldai/auth/login 200 "{\"email\": \"$EMAIL\", \"password\": \"$PASSWORD\"}" | json 'd["challenge"]')
call POST /api/shieldai/auth/login/second-factor 400 "{\"challenge\": \"$CHALLENGE\", \"code\": \"$CODE\"}" >/dev/null
echo "   second factor on: the password answers a challenge; a code signs in once (the same code again: 400)"
call GET /api/shieldai/auth/sessions 200 "" -H "Authorization: Bearer $ACCESS" | json '"   Sam sees " + str(len(d["sessions"])) + " sessions: " + ", ".join(sorted(set((s.get("device_name") or "?") + (" (bound)" if s["bound_to_device"] else "") for s in d["sessions"])))'
call DELETE /api/shieldai/auth/sessions 200 "" -H "Authorization: Bearer $ACCESS" | json '"   signed out everywhere but here: " + str(d["ended"]) + " session(s) ended"'
call POST /api/shieldai/auth/refresh 401 "{\"refresh_token\": \"$IPAD\"}" >/dev/null
echo "   the iPad's refresh token now: 401"
call GET /api/shieldai/me/export 200 "" -H "Authorization: Bearer $ACCESS" | json '"   export: profile " + d["profile"]["email"] + ", " + str(len(d["sessions"]["sessions"])) + " session(s), " + str(len(d["app_data"]["documents"])) + " document(s)"'
call POST /api/shieldai/auth/second-factor/disable 204 "{\"code\": \"$RECOVERY\"}" -H "Authorization: Bearer $ACCESS" >/dev/null
echo "   the second factor off again with a recovery code (the demo runs again on the same data)"

echo "== ShieldAI: voice enrollment"
if ! command -v espeak-ng >/dev/null || ! command -v sox >/dev/null; then
  echo "   espeak-ng and sox make the recordings (make test-deps installs them)"; exit 0
fi
espeak-ng -w "$work/raw.wav" "Hello, this is my voice for ShieldAI. I am enrolling my voiceprint so that clones of my voice can be detected."
sox "$work/raw.wav" -r 16000 -c 1 -b 16 "$work/voice-16k.wav" 2>/dev/null
sox "$work/raw.wav" -r 8000 -c 1 -b 16 "$work/voice-8k.wav" 2>/dev/null
KEY=$($M keys issue --app shieldai --scopes devices:register,voice:enroll,push:send --label "voice demo")
TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
# The registration answers the installation's secret once: with the device id it proves the
# installation (the id alone opens nothing).
REG=$(curl -fsS -H "X-API-Key: $KEY" -H 'Content-Type: application/json' \
  -d "{\"token\": \"$TOKEN\", \"platform\": \"ios\", \"bundleId\": \"com.kordant.shieldai\", \"environment\": \"sandbox\"}" "$URL/api/devices")
DEVICE=$(echo "$REG" | json 'd["deviceId"]')
SECRET=$(echo "$REG" | json 'd["deviceSecret"]')
enroll() { curl -sS -o "$work/answer" -w '%{http_code}' -H "X-API-Key: $KEY" -H "X-Device-Id: $DEVICE" -H "X-Device-Secret: $SECRET" -H 'Content-Type: audio/wav' \
  --data-binary "@$1" "$URL/api/shieldai/voice-enrollments"; }
echo "   16 kHz mono speech ($(soxi -D "$work/voice-16k.wav") s): HTTP $(enroll "$work/voice-16k.wav") $(cat "$work/answer")"
echo "   the same speech at 8 kHz:         HTTP $(enroll "$work/voice-8k.wav") $(cat "$work/answer")"
echo "   (the device $DEVICE got a push that opens the enrollment screen; with 'make run APNS=standin' the stand-in shows it)"
