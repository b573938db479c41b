#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of the release `bindiag summary --format json`, so a
# regression of the summary path shows beyond timing noise (issue 14). Two runs over 40 000
# generated contract records (~19 MiB, three 8 MiB chunks; BindingBenchmarks generate 40000 42):
#   one thread  --threads 1: every chunk read and aggregated on the calling thread
#   parallel    the default: chunks read on worker threads, aggregated on the calling one
# and one over an empty file (start-up cost, subtracted for the per-record figure). Prints, per
# run, total Ir, Ir per record and the top 15 functions by inclusive and by self cost, to OUT
# (default Benchmarks/results/callgrind-summary.txt) and to standard output.
#   Benchmarks/callgrind.sh [OUT]
# Needs: valgrind (apt-get install valgrind), a Swift toolchain (swift demangle); about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
result=${1:-Benchmarks/results/callgrind-summary.txt}
work=${BENCH_DIR:-/tmp/bindiag-bench}/callgrind
mkdir -p "$work" "$(dirname "$result")"
if ! command -v valgrind >/dev/null; then
  echo "valgrind missing: installing it (apt-get install valgrind)" >&2
  apt-get install -y valgrind >/dev/null
fi
swift build -c release >/dev/null
bin=.build/release

records="$work/events-40000.jsonl"
empty="$work/empty.jsonl"
[ -s "$records" ] || $bin/BindingBenchmarks generate 40000 42 >"$records"
: >"$empty"
size() { stat -c %s "$1"; }

# Total Ir of one callgrind run of `bindiag summary --format json FILE [OPTIONS]`; its output
# file is $work/$1.out.
run() {
  local name=$1 file=$2
  shift 2
  valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" \
    $bin/bindiag summary --format json "$file" "$@" >"$work/$name.json" 2>"$work/$name.log"
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
  echo "Ir varies between runs of the same build by about 0.1% (one thread) and up to 3% (parallel: thread interleaving)"
  echo "empty input (start-up): Ir $base"
  for spec in "one-thread --threads 1" "parallel"; do
    set -- $spec
    name=$1
    shift
    ir=$(run "$name" "$records" "$@")
    set -- "$name" 40000 "$records"
    echo
    echo "== $1: $2 records, $(size "$3") bytes"
    echo "Ir $ir"
    echo "Ir per record $(awk "BEGIN{printf \"%.0f\", ($ir - $base) / $2}")"
    echo "top 15 functions by inclusive Ir:"
    top "$1" yes
    echo "top 15 functions by self Ir:"
    top "$1" no
  done
} | tee "$result"
