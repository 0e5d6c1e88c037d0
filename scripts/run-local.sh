#!/usr/bin/env bash
# Starts nats-server (JetStream under .data/nats) and `muster serve all`; Ctrl-C stops both cleanly.
# MUSTER_DATA_ROOT moves .data elsewhere (the demo test runs on an empty one); NATS_PORT,
# NATS_MONITOR_PORT, MUSTER_HTTP_PORT, APNS_PORT and FCM_PORT move the ports; MUSTER_BIN_DIR takes the
# programs from another build (the soak in make bench: .build/release).
set -euo pipefail
cd "$(dirname "$0")/.."

NATS_PORT=${NATS_PORT:-4222}
NATS_MONITOR_PORT=${NATS_MONITOR_PORT:-8222}
HTTP_PORT=${MUSTER_HTTP_PORT:-8080}
DATA=${MUSTER_DATA_ROOT:-.data}
BIN=${MUSTER_BIN_DIR:-.build/debug}
mkdir -p "$DATA/nats" "$DATA/muster"
export MUSTER_NATS_URL=${MUSTER_NATS_URL:-nats://127.0.0.1:$NATS_PORT}
export MUSTER_DATA_DIR=${MUSTER_DATA_DIR:-$DATA/muster}

nats_pid=""
muster_pid=""
standin_pid=""
fcm_pid=""
signin_pids=""
stop() {
  trap - INT TERM EXIT
  echo
  echo "stopping muster (SIGTERM: finishes requests, saves projections, drains NATS)…"
  [ -n "$muster_pid" ] && kill -TERM "$muster_pid" 2>/dev/null && wait "$muster_pid" 2>/dev/null || true
  [ -n "$standin_pid" ] && kill -TERM "$standin_pid" 2>/dev/null && wait "$standin_pid" 2>/dev/null || true
  [ -n "$fcm_pid" ] && kill -TERM "$fcm_pid" 2>/dev/null && wait "$fcm_pid" 2>/dev/null || true
  for pid in $signin_pids; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  echo "stopping nats-server…"
  [ -n "$nats_pid" ] && kill -TERM "$nats_pid" 2>/dev/null && wait "$nats_pid" 2>/dev/null || true
  echo "stopped. Data stays in $DATA/ (make clean removes .data)."
}
trap stop INT TERM EXIT

if (exec 3<>"/dev/tcp/127.0.0.1/$NATS_PORT") 2>/dev/null; then
  echo "a NATS server already listens on $NATS_PORT; using it"
else
  .tools/nats/bin/nats-server -a 127.0.0.1 -p "$NATS_PORT" -m "$NATS_MONITOR_PORT" -js -sd "$DATA/nats" -l "$DATA/nats/server.log" &
  nats_pid=$!
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$NATS_PORT") 2>/dev/null && break; sleep 0.1; done
fi

# APNS=standin (make run APNS=standin): a local server that answers like Apple's push service,
# with its own certificate and a team signing key made here, and the notifier pointed at it.
APNS_INFO="  pushes: APNs is not configured (make run APNS=standin starts a local stand-in; or set MUSTER_APNS_KEY_FILE, _KEY_ID, _TEAM_ID)"
if [ "${APNS:-}" = "standin" ]; then
  APNS_PORT=${APNS_PORT:-2197}
  dir=$DATA/apns-standin
  scripts/make-certs.sh "$dir" >/dev/null
  [ -s "$dir/AuthKey.p8" ] || openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/AuthKey.p8" 2>/dev/null
  "$BIN"/muster-standins apns --port "$APNS_PORT" --cert "$dir/cert.pem" --key "$dir/key.pem" --apns-key "$dir/AuthKey.p8" &
  standin_pid=$!
  export MUSTER_APNS_KEY_FILE="$dir/AuthKey.p8" MUSTER_APNS_KEY_ID=DEMOKEY001 MUSTER_APNS_TEAM_ID=DEMOTEAM01
  export MUSTER_APNS_SANDBOX_URL="https://127.0.0.1:$APNS_PORT" MUSTER_APNS_PRODUCTION_URL="https://127.0.0.1:$APNS_PORT"
  export MUSTER_APNS_CA_FILE="$dir/cert.pem"
  APNS_INFO="  pushes: APNs stand-in at https://127.0.0.1:$APNS_PORT (what it received: curl -k https://127.0.0.1:$APNS_PORT/standin/deliveries)"
fi

# FCM=standin (make run FCM=standin): the same for Android, a local server that answers like FCM
# HTTP v1 and Google's token endpoint, with a service account made here.
FCM_INFO="  android: FCM is not configured (make run FCM=standin starts a local stand-in; or set MUSTER_FCM_SERVICE_ACCOUNT)"
if [ "${FCM:-}" = "standin" ]; then
  FCM_PORT=${FCM_PORT:-2198}
  dir=$DATA/fcm-standin
  mkdir -p "$dir"
  [ -s "$dir/key.pem" ] || openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/key.pem" 2>/dev/null
  python3 - "$dir/key.pem" "$FCM_PORT" > "$dir/service-account.json" <<'PY'
import json, sys
key = open(sys.argv[1]).read()
print(json.dumps({"type": "service_account", "project_id": "muster-demo", "private_key": key,
                  "client_email": "notifier@muster-demo.iam.gserviceaccount.com",
                  "token_uri": f"http://127.0.0.1:{sys.argv[2]}/token"}))
PY
  "$BIN"/muster-standins fcm --port "$FCM_PORT" --service-account "$dir/service-account.json" &
  fcm_pid=$!
  export MUSTER_FCM_SERVICE_ACCOUNT="$dir/service-account.json" MUSTER_FCM_URL="http://127.0.0.1:$FCM_PORT"
  FCM_INFO="  android: FCM stand-in at http://127.0.0.1:$FCM_PORT (what it received: curl http://127.0.0.1:$FCM_PORT/standin/deliveries)"
fi

# SIGNIN=standin (make run SIGNIN=standin): local stand-ins for Apple's and Google's sign-in keys
# (they mint ID tokens too) and for Twilio and SendGrid (it keeps the texts and emails), so OFFLEASH's
# Apple, Google and phone sign-in and its invitations work on this machine through the real code.
SIGNIN_INFO="  sign-in: Apple, Google and phone sign-in are not configured here (make run SIGNIN=standin starts local stand-ins)"
if [ "${SIGNIN:-}" = "standin" ]; then
  IDENTITY_PORT=${IDENTITY_PORT:-2199} SMS_PORT=${SMS_PORT:-2200}
  "$BIN"/muster-standins identity --port "$IDENTITY_PORT" & signin_pids="$signin_pids $!"
  "$BIN"/muster-standins sms --port "$SMS_PORT" & signin_pids="$signin_pids $!"
  export MUSTER_APPLE_KEYS_URL="http://127.0.0.1:$IDENTITY_PORT/apple/keys" MUSTER_GOOGLE_KEYS_URL="http://127.0.0.1:$IDENTITY_PORT/google/keys"
  export MUSTER_SMS_URL="http://127.0.0.1:$SMS_PORT" MUSTER_SMS_ACCOUNT=ACdemo MUSTER_SMS_TOKEN=demo
  export MUSTER_MAIL_URL="http://127.0.0.1:$SMS_PORT" MUSTER_MAIL_KEY=SG.demo   # the same stand-in answers like SendGrid: invitations
  SIGNIN_INFO="  sign-in: ID tokens from curl -X POST http://127.0.0.1:$IDENTITY_PORT/standin/token -d '{\"provider\":\"apple\",\"sub\":\"me\"}'; texts and invitation emails at http://127.0.0.1:$SMS_PORT/standin/messages"
fi

# PAYMENTS=standin (make run PAYMENTS=standin): a local server that answers like Stripe's payment
# intents and refunds, so OFFLEASH's checkouts are charged through the real client code.
PAYMENTS_INFO="  payments: none configured (make run PAYMENTS=standin starts a local stand-in of Stripe's API; or set MUSTER_PAYMENTS_URL, _KEY)"
if [ "${PAYMENTS:-}" = "standin" ]; then
  PAYMENTS_PORT=${PAYMENTS_PORT:-2201}
  "$BIN"/muster-standins payments --port "$PAYMENTS_PORT" & signin_pids="$signin_pids $!"
  export MUSTER_PAYMENTS_URL="http://127.0.0.1:$PAYMENTS_PORT" MUSTER_PAYMENTS_KEY=sk_test_demo
  PAYMENTS_INFO="  payments: Stripe stand-in at http://127.0.0.1:$PAYMENTS_PORT (what it charged: curl http://127.0.0.1:$PAYMENTS_PORT/standin/payments)"
fi

"$BIN"/muster serve all --port "$HTTP_PORT" &
muster_pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$HTTP_PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

cat <<INFO

  Muster is running.
    health      http://127.0.0.1:$HTTP_PORT/health
    readiness   http://127.0.0.1:$HTTP_PORT/ready
    metrics     http://127.0.0.1:${MUSTER_METRICS_PORT:-9464}/metrics  (its own port: MUSTER_METRICS_PORT)
    NATS        $MUSTER_NATS_URL   (monitoring http://127.0.0.1:$NATS_MONITOR_PORT)

  Try:
    make demo                               # keys, then 36 OPL actions around Rapid City, Minneapolis, Seattle
    K=\$(.build/debug/muster keys issue --app opl --scopes read:mobile,write:submit-strike)
    curl -H "X-API-Key: \$K" 'http://127.0.0.1:$HTTP_PORT/api/mobile/data?lat=44.0805&lng=-103.2310'
    curl -H "X-API-Key: \$K" http://127.0.0.1:$HTTP_PORT/api/blocklist.json
    moderation page: http://127.0.0.1:$HTTP_PORT/moderation  (a key with scope moderate:opl signs in)
    scripts/generate_analytics.py           # a week of OFFLEASH app traffic; prints a dashboards key
    dashboards: http://127.0.0.1:$HTTP_PORT/dashboards  (a key with scope read:analytics signs in)
    PoP organisers: http://127.0.0.1:$HTTP_PORT/pop/civics  (after make demo: organiser@pop.demo, password Civics2026)
    operators: http://127.0.0.1:$HTTP_PORT/admin  (.build/debug/muster keys issue --app platform --scopes admin:platform)
    field managers: http://127.0.0.1:$HTTP_PORT/field  (after make demo: acme-build, mia@acme.demo, Hardhat2026)
    OFFLEASH business: http://127.0.0.1:$HTTP_PORT/offleash  (after make demo: demo, admin@offleash.demo, Walkies2026)
    .build/debug/muster tail --all          # follow the log (--no-follow stops at the end)
$APNS_INFO
$FCM_INFO
$SIGNIN_INFO
$PAYMENTS_INFO

  Ctrl-C stops them all.
INFO
wait "$muster_pid"
