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
