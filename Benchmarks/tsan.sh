#!/usr/bin/env bash
# ThreadSanitizer over the concurrency tests (issue 19): the library's sinks, rate limiting and
# recording, the testing target's recorders, and the reader's worker threads. Prints the tests'
# closing line and the count of ThreadSanitizer reports, which should be 0.
#   Benchmarks/tsan.sh            the tests below
#   TSAN_FILTER=REGEX             other tests
# Memory-bound tests are left out: a sanitized binary takes several times the memory.
# Its own build directory ($TSAN_SCRATCH, /tmp/bindiag-tsan by default): a sanitized build does
# not disturb the ordinary one. About 5 minutes the first time on two cores.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=${TSAN_SCRATCH:-/tmp/bindiag-tsan}
filter=${TSAN_FILTER:-"ConcurrencyTests|RateLimitTests|RecordingSink|ClaimingSink|MisuseIssueRecorder|ExpectMisuseTests|FailsOnMisuseTraitTests|MultiplexSinkTests|JSONLinesFileSinkTests|BindingDiagnosticsReportTests.ChunkedReadTests"}
log="$scratch.log"
swift test --sanitize=thread --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1
status=$?
reports=$(grep -c "^WARNING: ThreadSanitizer" "$log")
grep -E "^(✔|✘) Test run" "$log" | tail -1
echo "ThreadSanitizer reports: $reports (exit $status; log: $log)"
[ "$reports" = 0 ] && [ "$status" = 0 ]
