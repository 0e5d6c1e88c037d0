#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS, starting from its seed corpus (Tests/Fuzz/Corpus/NAME)
# plus what earlier runs found (.build/fuzz/corpus/NAME). A crash fails the run (the other targets finish) with the input
# saved in .build/fuzz/findings/NAME/ and a non-zero exit; turn it into a regression test. (Swift's own
# backtracer is off, so libFuzzer sees the trap and saves the input.)
# FUZZ_SEED fixes libFuzzer's seed (make test's short runs use 1, so CI explores the same inputs
# each time and fails only on what the code does, not on a lucky draw); unset, each run draws one.
# FUZZ_JOBS runs that many targets at once (default: one a core).
#   scripts/fuzz.sh BINARY SECONDS TARGET...
set -euo pipefail
binary=$1 seconds=$2
shift 2
cd "$(dirname "$0")/.."
jobs=${FUZZ_JOBS:-$(nproc)}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# One target: its libFuzzer run, then its line of the table (and its log's end when it failed) in $results.
run_target() {
  local target=$1 corpus=.build/fuzz/corpus/$1 findings=.build/fuzz/findings/$1 status=0
  mkdir -p "$corpus" "$findings"
  local log=.build/fuzz/findings/$target.log
  SWIFT_BACKTRACE=enable=no MUSTER_FUZZ_TARGET=$target "$binary" "$corpus" "Tests/Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$findings/" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} >"$log" 2>&1 || status=$?
  local runs files
  runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  files=$(find "$corpus" -type f | wc -l)
  if [ "$status" -ne 0 ]; then
    printf '%-20s %8s %10s %8s %s\n' "$target" "$seconds" "${runs:-?}" "$files" "FAILED (exit $status)" > "$results/$target"
    { tail -n 40 "$log"; echo "fuzz: $target found a crash; the input is in $findings/ (log: $log)"; } > "$results/$target.failed"
  else
    printf '%-20s %8s %10s %8s %s\n' "$target" "$seconds" "${runs:-?}" "$files" ok > "$results/$target"
  fi
}

# The targets $jobs at a time (each libFuzzer run is one thread): the table comes in the targets' order.
printf '%-20s %8s %10s %8s %s\n' target seconds executions corpus result
running=0
for target in "$@"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
failed=0
for target in "$@"; do
  cat "$results/$target"
  if [ -f "$results/$target.failed" ]; then cat "$results/$target.failed" >&2; failed=1; fi
done
exit "$failed"
