#!/usr/bin/env bash
# ShieldAI's voice enrollment in a running Muster: speech made with espeak-ng, resampled by sox to
# 16 kHz mono, is accepted; the same speech at 8 kHz is refused with the rule it breaks.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

echo "== ShieldAI: voice enrollment"
if ! command -v espeak-ng >/dev/null || ! command -v sox >/dev/null; then
  echo "   espeak-ng and sox make the recordings (make test-deps installs them)"; exit 0
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
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
