#!/usr/bin/env bash
# Runs the built tests within a bound on the whole run. A test that hangs then fails the run in
# minutes and says which tests were still running, instead of using up CI's time in silence.
#   scripts/test.sh [swift test arguments...]
# TEST_MINUTES bounds the run (default 15; a full run takes 2-5 minutes on 2 cores).
# TEST_WIDTH bounds how many tests run at once (default 4 per core). Unbounded, all 386 start
# their nats-servers and processes together: on two slow cores starts then took over 60 s and
# JetStream answered 503, 10 failures in a 274 s run, where 8 at once passed in 200 s.
# Past the bound the test process gets SIGQUIT first: Swift's backtracer prints every thread.
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=${TEST_MINUTES:-15}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-$((4 * $(nproc)))}
mkdir -p .build
log=.build/test-run.log

# Line-buffered, so the log holds every line already written when the run has to be stopped.
SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,threads=all,limit=40} \
  stdbuf -oL -eL swift test --skip-build "$@" > >(tee "$log") 2>&1 &
runner=$!

deadline=$((SECONDS + minutes * 60))
while kill -0 "$runner" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 2; done

if kill -0 "$runner" 2>/dev/null; then
  echo "tests: still running after $minutes minutes; stopping them" >&2
  # Where every thread was, for the end of the output (all CI shows): gdb reads it in seconds.
  where=.build/test-threads.txt
  pid=$(pgrep -f 'PackageTests\.xctest' | tail -1)
  if [ -n "$pid" ] && command -v gdb >/dev/null; then
    timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 40" > "$where" 2>&1
    cat "$where" >> "$log"
  fi
  pkill -QUIT -f 'PackageTests\.xctest' 2>/dev/null
  for _ in $(seq 15); do pgrep -f 'PackageTests\.xctest' >/dev/null || break; sleep 1; done
  pkill -KILL -f 'PackageTests\.xctest' 2>/dev/null
  kill "$runner" 2>/dev/null
  wait "$runner" 2>/dev/null
  sleep 1
  echo "tests: these had started and never ended:" >&2
  awk '
    /^◇ Test run started\.$/ || /^◇ Test case passing / { next }  # the whole run; a parameterized test ends once for all its cases
    /^◇ Test .* started\.$/ { name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); running[name] = 1 }
    /^(✔|✘) Test .* (passed|failed) / {
      name = $0; sub(/^(✔|✘) Test /, "", name); sub(/ (passed|failed) .*$/, "", name); sub(/ with [0-9]+ test cases?$/, "", name)
      delete running[name]
    }
    END { n = 0; for (name in running) { if (++n <= 8) print "  " name }; if (n > 8) print "  and " n - 8 " more (in " FILENAME ")" }
  ' "$log" >&2
  if [ -s "${where:-}" ]; then
    echo "tests: threads in the project's own code then (the first two such frames of each; gdb's whole dump in $log):" >&2
    awk '
      /^Thread [0-9]+ / { name = $0; sub(/^Thread [0-9]+ \(Thread [^ ]+ \(LWP [0-9]+\) /, "", name); frames = ""; shown = 0; next }
      / at \/[^ ]*\/(Sources|Tests)\/[^ ]*:[0-9]+$/ && !/\.build\// && shown < 2 {
        where = $NF; sub(/^.*\/(Sources|Tests)\//, "", where)
        frames = frames (shown ? " <- " : "") where; shown++
        if (shown == 2) print "  " name " " frames
      }
      /^$/ { if (shown == 1) print "  " name " " frames; shown = 3 }
    ' "$where" | sort | uniq -c | sort -rn | head -12 >&2
  fi
  echo "tests: FAILED (hung; the whole output is in $log)" >&2
  exit 1
fi
wait "$runner"
status=$?
[ "$status" -eq 0 ] || exit "$status"
# The connection tests hold thousands of sockets: alone, so nothing beside them is slowed. The
# trace test's three processes go with them (beside the whole suite they slowed its start).
MUSTER_CONNECTION_TESTS=1 MUSTER_PROCESS_TESTS=1 SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,threads=all,limit=40} \
  timeout $((minutes * 60)) stdbuf -oL -eL swift test --skip-build --filter "ConnectionGateTests|SlowClientTests|TracesTests" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
# The fairness test's flood opens and closes thousands of sockets a second in this process: alone,
# since a process started beside it (the trace test's) crashed in Foundation's Process.run once.
MUSTER_CONNECTION_TESTS=1 SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,threads=all,limit=40} \
  timeout $((minutes * 60)) stdbuf -oL -eL swift test --skip-build --filter ConnectionFairnessTests 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
# The partition test judges /health to 100 ms: alone too (it skips where it cannot make namespaces).
MUSTER_PARTITION_TESTS=1 SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,threads=all,limit=40} \
  timeout $((minutes * 60)) stdbuf -oL -eL swift test --skip-build --filter PartitionTests 2>&1 | tee -a "$log"
exit "${PIPESTATUS[0]}"
