#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS, starting from its seed corpus (Tests/Fuzz/Corpus/NAME)
# plus what earlier runs found (.build/fuzz/corpus/NAME). A crash stops the run with the input
# saved in .build/fuzz/findings/NAME/ and a non-zero exit; turn it into a regression test. (Swift's own
# backtracer is off, so libFuzzer sees the trap and saves the input.)
# FUZZ_SEED fixes libFuzzer's seed (make test's short runs use 1, so CI explores the same inputs
# each time and fails only on what the code does, not on a lucky draw); unset, each run draws one.
#   scripts/fuzz.sh BINARY SECONDS TARGET...
set -euo pipefail
binary=$1 seconds=$2
shift 2
cd "$(dirname "$0")/.."
printf '%-20s %8s %10s %8s %s\n' target seconds executions corpus result
for target in "$@"; do
  corpus=.build/fuzz/corpus/$target findings=.build/fuzz/findings/$target
  mkdir -p "$corpus" "$findings"
  log=.build/fuzz/findings/$target.log
  status=0
  SWIFT_BACKTRACE=enable=no MUSTER_FUZZ_TARGET=$target "$binary" "$corpus" "Tests/Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$findings/" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} >"$log" 2>&1 || status=$?
  runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  files=$(find "$corpus" -type f | wc -l)
  if [ "$status" -ne 0 ]; then
    printf '%-20s %8s %10s %8s %s\n' "$target" "$seconds" "${runs:-?}" "$files" "FAILED (exit $status)"
    tail -n 40 "$log" >&2
    echo "fuzz: $target found a crash; the input is in $findings/ (log: $log)" >&2
    exit 1
  fi
  printf '%-20s %8s %10s %8s %s\n' "$target" "$seconds" "${runs:-?}" "$files" ok
done
