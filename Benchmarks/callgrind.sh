#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of the release `bindiag summary --format json`, so a
# regression of the summary path shows beyond timing noise (issue 14). Two runs over generated
# contract records (BindingBenchmarks generate N 42; the smaller file is the larger one's prefix):
#   serial    15 000 records (~7 MiB), below InputReader.parallelThreshold (8 MiB)
#   parallel  40 000 records (~19 MiB), above it: classified on worker threads
# and one over an empty file (start-up cost, subtracted for the per-record figure). Prints, per
# run, total Ir, Ir per record and the top 15 functions by inclusive and by self cost, to OUT
# (default Benchmarks/results/callgrind-summary.txt) and to standard output.
#   Benchmarks/callgrind.sh [OUT]
# Needs: valgrind (apt-get install valgrind), a Swift toolchain (swift demangle); about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
result=${1:-Benchmarks/results/callgrind-summary.txt}
work=${BENCH_DIR:-/tmp/bindiag-bench}/callgrind
# InputReader.parallelThreshold as the source states it (`N << M`), else the 8 MiB it was.
threshold=$(sed -n 's/.*static let parallelThreshold = \([0-9]*\) << \([0-9]*\).*/\1 << \2/p' \
  Sources/BindingDiagnosticsReport/Reading/InputReader.swift 2>/dev/null | head -1)
threshold=$((${threshold:-8 << 20}))
mkdir -p "$work" "$(dirname "$result")"
if ! command -v valgrind >/dev/null; then
  echo "valgrind missing: installing it (apt-get install valgrind)" >&2
  apt-get install -y valgrind >/dev/null
fi
swift build -c release >/dev/null
bin=.build/release

serial="$work/events-15000.jsonl"
parallel="$work/events-40000.jsonl"
empty="$work/empty.jsonl"
[ -s "$serial" ] || $bin/BindingBenchmarks generate 15000 42 >"$serial"
[ -s "$parallel" ] || $bin/BindingBenchmarks generate 40000 42 >"$parallel"
: >"$empty"
size() { stat -c %s "$1"; }
if [ "$(size "$serial")" -ge "$threshold" ] || [ "$(size "$parallel")" -lt "$threshold" ]; then
  echo "file sizes no longer straddle the parallel threshold ($threshold bytes):" \
    "$(size "$serial") and $(size "$parallel"); change the record counts" >&2
  exit 1
fi

# Total Ir of one callgrind run of `bindiag summary --format json FILE`; its output file is $work/$1.out.
run() {
  local name=$1 file=$2
  valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" \
    $bin/bindiag summary --format json "$file" >"$work/$name.json" 2>"$work/$name.log"
  awk '/^summary:/ {print $2}' "$work/$name.out"
}
# The 15 functions of a run with the highest Ir, inclusive ($2 = yes) or self ($2 = no), names
# demangled, worktree paths dropped; process and thread entry frames (loader, libc start,
# main, start_thread, clone, libdispatch's worker loop) are left out: they only repeat totals.
entry_frames='ld-linux|below main|libc-start|libc_start|bindiag_main|start_thread|clone'
entry_frames+='|_dispatch_worker_thread|_dispatch_client_callout|_dispatch_call_block_and_release'
top() {
  callgrind_annotate --inclusive="$2" --auto=no --threshold=100 "$work/$1.out" 2>/dev/null \
    | awk -v skip="$entry_frames" '/file:function/ {found = 1; next} found == 1 && /^-+$/ {found = 2; next}
        found == 2 && NF > 0 && $0 !~ skip && n < 15 {print; n++}' \
    | swift demangle --simplified | sed -e "s| \[$PWD/\.build/[^]]*\]| [bindiag]|" -e "s|$PWD/||g"
}

base=$(run empty "$empty")
{
  echo "callgrind: bindiag summary --format json, release build"
  echo "Sources as of $(git log -1 --format='%h %cs' -- Sources Package.swift)$(git diff --quiet HEAD -- Sources Package.swift || echo ' plus uncommitted changes'),"\
    "$(swift --version 2>&1 | head -1), $(valgrind --version), $(uname -m), $(date -u +%F)"
  echo "records: BindingBenchmarks generate N 42; Ir per record = (Ir - Ir of an empty input) / N;"
  echo "Ir varies between runs of the same build by about 0.1% (serial) and up to 3% (parallel: thread interleaving)"
  echo "empty input (start-up): Ir $base"
  for spec in "serial 15000 $serial" "parallel 40000 $parallel"; do
    set -- $spec
    ir=$(run "$1" "$3")
    echo
    echo "== $1 path: $2 records, $(size "$3") bytes"
    echo "Ir $ir"
    echo "Ir per record $(awk "BEGIN{printf \"%.0f\", ($ir - $base) / $2}")"
    echo "top 15 functions by inclusive Ir:"
    top "$1" yes
    echo "top 15 functions by self Ir:"
    top "$1" no
  done
} | tee "$result"
