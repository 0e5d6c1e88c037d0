# Shared by the bench scripts (sourced): a fresh nats-server with JetStream in "$work", and free ports.
# The caller sets `work` (a temporary folder) and keeps `nats_pid` for its cleanup.

# Starts nats-server on a free port with its store in $work/js; sets nats_pid, url and nats_monitor
# (its monitoring port: `logged` reads how many events the log holds).
start_nats() {
  rm -rf "$work/js" "$work"/*.ports
  nats_monitor=$(free_port)
  .tools/nats/bin/nats-server -a 127.0.0.1 -p -1 -m "$nats_monitor" -js -sd "$work/js" --ports_file_dir "$work" -l "$work/nats.log" &
  nats_pid=$!
  for _ in $(seq 1 100); do ls "$work"/*.ports >/dev/null 2>&1 && break; sleep 0.05; done
  url=$(python3 -c 'import glob,json; print(json.load(open(glob.glob("'"$work"'/*.ports")[0]))["nats"][0])')
}

# Messages in the log's stream (EVENTS) now.
logged() { curl -fs "http://127.0.0.1:$nats_monitor/jsz?streams=true" | python3 -c 'import json,sys
d=json.load(sys.stdin)
print(sum(s["state"]["messages"] for a in d.get("account_details",[]) for s in a.get("stream_detail",[]) if s["name"]=="EVENTS"))'; }

stop_nats() { kill "$nats_pid"; wait "$nats_pid" 2>/dev/null || true; nats_pid=""; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# nginx on a free port for a baseline: its files under $1 (html/ is the root), the http-level directives $2 and the
# server block's own $3; access log off, one worker per core. Sets nginx_port and nginx_pid once it answers.
start_nginx() {
  local dir=$1
  mkdir -p "$dir/html" "$dir/tmp"
  chmod -R 777 "$dir"   # nginx workers (www-data when started as root) read the root and write request bodies to tmp/
  nginx_port=$(free_port)
  cat > "$dir/nginx.conf" <<CONF
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp; fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  $2
  server { listen 127.0.0.1:$nginx_port; root $dir/html; $3 }
}
CONF
  nginx -c "$dir/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && break; sleep 0.1; done
}

# The APNs stand-in (release, HTTP/2 over TLS, a fresh certificate and team key in $work) on a free
# port, and h2load driving it directly: $1 pushes of the payload $3 for topic $2 over one connection
# with 100 streams. Sets apns_port, token (the baseline's device) and baseline (req/s); adds the
# stand-in to pids. The caller sets STANDINS. `h2load_baseline` measures it again (a bench's next round).
apns_baseline() {
  scripts/make-certs.sh "$work/tls" >/dev/null
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/AuthKey.p8" 2>/dev/null
  apns_port=$(free_port)
  # No --apns-key: the stand-in checks the token's shape and age, not its signature, for both sides alike.
  $STANDINS apns --port "$apns_port" --cert "$work/tls/cert.pem" --key "$work/tls/key.pem" >"$work/standin.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do curl -ksf "https://127.0.0.1:$apns_port/standin/deliveries" >/dev/null 2>&1 && break; sleep 0.05; done
  token=$(printf '%064x' 1)
  h2load_baseline "$@"
}

# h2load against the stand-in apns_baseline started, as it describes; sets baseline (req/s).
h2load_baseline() {
  local jwt
  jwt=$(python3 -c 'import base64,json,time
b=lambda d: base64.urlsafe_b64encode(json.dumps(d,separators=(",",":")).encode()).decode().rstrip("=")
print(b({"alg":"ES256","kid":"BENCHKEY01"})+"."+b({"iss":"BENCHTEAM1","iat":int(time.time())})+".c2lnbmF0dXJl")')
  printf '%s' "$3" > "$work/payload.json"
  h2load -n "$1" -c 1 -m 100 -t 1 -d "$work/payload.json" -H "authorization: bearer $jwt" -H "apns-topic: $2" \
    -H "apns-push-type: alert" -H "apns-priority: 10" "https://127.0.0.1:$apns_port/3/device/$token" > "$work/h2load.txt"
  baseline=$(awk '/^finished in/ { for (i=1;i<=NF;i++) if ($i ~ /req\/s/) { v=$(i-1); gsub(",","",v); print int(v) } }' "$work/h2load.txt")
  grep -q "status codes: $1 2xx" "$work/h2load.txt" || { echo "h2load did not get 2xx for every request:"; cat "$work/h2load.txt"; exit 1; }
}

# Points a muster started after this at the stand-in apns_baseline started, with its team key and certificate.
apns_env() {
  export MUSTER_APNS_KEY_FILE=$work/AuthKey.p8 MUSTER_APNS_KEY_ID=BENCHKEY01 MUSTER_APNS_TEAM_ID=BENCHTEAM1 MUSTER_APNS_CA_FILE=$work/tls/cert.pem
  export MUSTER_APNS_SANDBOX_URL=https://127.0.0.1:$apns_port MUSTER_APNS_PRODUCTION_URL=https://127.0.0.1:$apns_port
}
