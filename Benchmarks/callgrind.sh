#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of the two paths a change must not slow down, so a
# regression shows beyond timing noise on a shared machine (issues 14 and 18).
#   Benchmarks/callgrind.sh [OUT]          the summary path (OUT: results/callgrind-summary.txt)
#   Benchmarks/callgrind.sh misuse [OUT]   the misuse path (OUT: results/callgrind-misuse.txt)
# Summary path: the release `bindiag summary --format json`, two runs over 40 000 generated
# contract records (three 8 MiB chunks; BindingBenchmarks generate 40000 42):
#   one thread  --threads 1: every chunk read and aggregated on the calling thread
#   parallel    the default: chunks read on worker threads, aggregated on the calling one
# and one over an empty file (start-up cost, subtracted for the per-record figure).
# Misuse path: 100 000 misuses of one mapped binding, rate limit off, into
#   null sink   BindingBenchmarks misuse-calls: a sink that drops the event, set through the
#               task-local override (the pipeline builds and hands over every event)
#   none sink   misuse-helper, configured from the environment as an app is
#               (BINDING_DIAGNOSTICS=none): the process-wide pipeline with the `none` sink
# less a run of 0 misuses (1 for misuse-helper: its first misuse reads the environment).
# Prints, per run, total Ir, Ir per record or misuse and the top 15 functions by inclusive and
# by self cost, to OUT and to standard output.
# Needs: valgrind (apt-get install valgrind), a Swift toolchain (swift demangle); about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
path=summary
if [ "${1:-}" = misuse ] || [ "${1:-}" = summary ]; then path=$1; shift; fi
result=${1:-Benchmarks/results/callgrind-$path.txt}
work=${BENCH_DIR:-/tmp/bindiag-bench}/callgrind
mkdir -p "$work" "$(dirname "$result")"
if ! command -v valgrind >/dev/null; then
  echo "valgrind missing: installing it (apt-get install valgrind)" >&2
  apt-get install -y valgrind >/dev/null
fi
# Its own build directory: valgrind 3.19 cannot read the DWARF 5 clang gives C targets
# (CStructuralScan) by default, and the flag that says otherwise would rebuild .build/release.
swift build -c release --scratch-path .build/callgrind -Xcc -gdwarf-4 >/dev/null
bin=.build/callgrind/release

records="$work/events-40000.jsonl"
empty="$work/empty.jsonl"
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
    | swift demangle --simplified | sed -e "s| \[$PWD/\.build/[^]]*/\([^]/]*\)\]| [\1]|" -e "s|$PWD/||g"
}

# The build and the machine, the first lines of every result.
about() {
  echo "commit $(git rev-parse --short HEAD), Sources as of $(git log -1 --format='%h %cs' -- Sources Package.swift)$(git diff --quiet HEAD -- Sources Package.swift || echo ' plus uncommitted changes'),"\
    "$(swift --version 2>&1 | head -1), $(valgrind --version), $(uname -m), $(date -u +%F)"
  echo "load average while measuring (Ir does not depend on it): $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Total Ir of one callgrind run of a misuse loop: $1 names the run ($work/$1.out), $2 is null or
# none (the sink, above), $3 the number of misuses.
misuses() {
  local out=(--tool=callgrind --callgrind-out-file="$work/$1.out")
  if [ "$2" = null ]; then
    valgrind "${out[@]}" $bin/BindingBenchmarks misuse-calls "$3" >"$work/$1.log" 2>&1
  else
    BINDING_DIAGNOSTICS=none BINDING_DIAGNOSTICS_RATE_LIMIT=off \
      valgrind "${out[@]}" $bin/misuse-helper "$3" >"$work/$1.log" 2>&1
  fi
  awk '/^summary:/ {print $2}' "$work/$1.out"
}

if [ "$path" = misuse ]; then
  calls=100000
  {
    echo "callgrind: misuses of one mapped binding, rate limit off, release build"
    about
    echo "Ir per misuse = (Ir of $calls misuses - Ir of the base run) / the misuses between them"
    for sink in null none; do
      if [ "$sink" = null ]; then
        from=0
        echo
        echo "== null sink: BindingBenchmarks misuse-calls N (task-local override, a sink that drops the event)"
      else
        from=1
        echo
        echo "== none sink: BINDING_DIAGNOSTICS=none BINDING_DIAGNOSTICS_RATE_LIMIT=off misuse-helper N (process-wide pipeline)"
      fi
      base=$(misuses "$sink-base" "$sink" "$from")
      ir=$(misuses "$sink" "$sink" "$calls")
      echo "Ir of $from misuses $base, of $calls misuses $ir"
      echo "Ir per misuse $(awk "BEGIN{printf \"%.0f\", ($ir - $base) / ($calls - $from)}")"
      echo "top 15 functions by inclusive Ir:"
      top "$sink" yes
      echo "top 15 functions by self Ir:"
      top "$sink" no
    done
  } | tee "$result"
  exit 0
fi

[ -s "$records" ] || $bin/BindingBenchmarks generate 40000 42 >"$records"
: >"$empty"
base=$(run empty "$empty")
{
  echo "callgrind: bindiag summary --format json, release build"
  about
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
