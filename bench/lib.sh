# Shared by the bench scripts (sourced): a fresh nats-server with JetStream in "$work", and free ports.
# The caller sets `work` (a temporary folder) and keeps `nats_pid` for its cleanup.

# Starts nats-server on a free port with its store in $work/js; sets nats_pid and url.
start_nats() {
  rm -rf "$work/js" "$work"/*.ports
  .tools/nats/bin/nats-server -a 127.0.0.1 -p -1 -js -sd "$work/js" --ports_file_dir "$work" -l "$work/nats.log" &
  nats_pid=$!
  for _ in $(seq 1 100); do ls "$work"/*.ports >/dev/null 2>&1 && break; sleep 0.05; done
  url=$(python3 -c 'import glob,json; print(json.load(open(glob.glob("'"$work"'/*.ports")[0]))["nats"][0])')
}

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
