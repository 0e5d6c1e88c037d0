# Sourced by scripts/demo-test.sh and scripts/soak.sh: a fresh stack as `make run` starts it (nats-server,
# the APNs, FCM, sign-in and payments stand-ins, `muster serve all`; scripts/run-local.sh) on free ports,
# with the empty data folder "$root" the sourcing script made. Leaves its pid in $stack and its output in
# "$root/stack.log"; `stack_ready NAME` waits (60 s at most) for /ready, saying NAME's failure if not.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export NATS_PORT=$(free_port) NATS_MONITOR_PORT=$(free_port) MUSTER_HTTP_PORT=$(free_port) APNS_PORT=$(free_port) FCM_PORT=$(free_port)
export MUSTER_METRICS_PORT=$(free_port) IDENTITY_PORT=$(free_port) SMS_PORT=$(free_port) PAYMENTS_PORT=$(free_port)
export MUSTER_DATA_ROOT=$root MUSTER_DEMO_STATE=$root
export MUSTER_URL=http://127.0.0.1:$MUSTER_HTTP_PORT MUSTER_NATS_URL=nats://127.0.0.1:$NATS_PORT
# The full gazetteer when `make gazetteer` made it; the tests' sample otherwise.
[ -s .data/gazetteer/places.tsv ] || export MUSTER_GAZETTEER=Tests/Fixtures/gazetteer-sample.tsv

APNS=standin FCM=standin SIGNIN=standin PAYMENTS=standin scripts/run-local.sh > "$root/stack.log" 2>&1 &
stack=$!

stack_ready() {
  for _ in $(seq 1 300); do
    curl -fs "$MUSTER_URL/ready" >/dev/null 2>&1 && return 0
    kill -0 "$stack" 2>/dev/null || { echo "$1: the stack did not start" >&2; return 1; }
    sleep 0.2
  done
  echo "$1: muster was not ready within 60 s" >&2
  return 1
}
