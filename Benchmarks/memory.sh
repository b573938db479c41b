#!/usr/bin/env bash
# Reader memory (issue 19): peak RSS (GNU time, max RSS) of `bindiag summary` on hostile line
# mixes, against the budget 64 MiB + 16 MiB per thread, and the cost of distinct groups and
# distinct labels.
#   Benchmarks/memory.sh          every row (about 2 minutes on two busy cores)
#   MEMORY_MIB=N                  size of the junk files (48 by default)
# Needs: a release build (done here), python3, GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_DIR:-/tmp/bindiag-bench}/memory
mkdir -p "$out"
swift build -c release --product bindiag >/dev/null
bin=$PWD/.build/release
mib=${MEMORY_MIB:-48}

# "KIB SECONDS" of one run of a command (GNU time): peak RSS and elapsed time.
measure() {
  /usr/bin/time -o "$out/time.txt" -f "%M %e" "$@" >/dev/null 2>&1 || true
  tail -1 "$out/time.txt"
}
row() { printf '%-46s %8s %10s %8s  %s\n' "$@"; }

# Files, made once. A contract record with LINE, LABEL and SEQ replaced per line.
make_inputs() {
  python3 - "$out" "$mib" <<'EOF'
import os, sys
out, mib = sys.argv[1], int(sys.argv[2])
def once(name, write):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        with open(path + ".tmp", "wb") as f:
            write(f)
        os.rename(path + ".tmp", path)
once("x.txt", lambda f: f.write(b"x\n" * (mib << 19)))
once("brace.txt", lambda f: f.write(b"{\n" * (mib << 19)))
once("logfmt.txt", lambda f: f.write(b"v=1 kind=a\n" * ((mib << 20) // 11)))
once("mixed.txt", lambda f: f.write(b"x\n{\n\n  \nv=1 kind=\n" * ((mib << 20) // 20)))
record = ('{"v":1,"ts":"2026-12-01T14:23:50.265066Z","level":"error","kind":"mapped-bool-set-true",'
    '"message_id":"2b9f53b872d7905613eeb68e53797657","msg":"A Binding<Bool> mapped from an optional '
    'was set to true; the write had no effect.","file":"App/Inbox.swift","line":%d,'
    '"function":"inboxView(_:)","value_type":"Swift.Optional<Swift.String>","value_present":true,'
    '"value":"<private>","label":"%s","process":"Inbox","pid":30517,"host":"vm",'
    '"run":"e338f8bc8fd3133d","seq":%d,"suppressed":0}\n')
def records(name, count, line, label):
    def write(f):
        for start in range(1, count + 1, 10000):
            f.write("".join(record % (line(s), label(s), s)
                            for s in range(start, min(start + 10000, count + 1))).encode())
    once(name, write)
records("groups-400k.jsonl", 400000, lambda s: s, lambda s: "save")
records("labels-common-1m.jsonl", 1000000, lambda s: 35, lambda s: "save-%07d" % (s % 8))
records("labels-distinct-1m.jsonl", 1000000, lambda s: 35, lambda s: "save-%07d" % s)
EOF
}
make_inputs

echo "== bindiag summary peak memory (issue 19); budget 64 MiB + 16 MiB per thread; $(nproc) cores; load:$(uptime | sed 's/.*load average://')"
row "input" "threads" "max RSS KiB" "s" "budget"
for input in x.txt brace.txt logfmt.txt mixed.txt; do
  for threads in 1 2 4 8; do
    set -- $(measure "$bin/bindiag" summary --threads "$threads" --format json "$out/$input")
    budget=$(( (64 + 16 * threads) * 1024 ))
    verdict=missed; [ "$1" -le "$budget" ] && verdict=met
    row "$input ($mib MiB)" "$threads" "$1" "$2" "<= $budget KiB: $verdict"
  done
done
set -- $(measure sh -c "cat '$out/x.txt' | '$bin/bindiag' summary --format json")
row "x.txt through a pipe" "-" "$1" "$2" "-"

echo "== distinct groups: 400 000 sites (distinct lines), --format json"
set -- $(measure "$bin/bindiag" summary --format json --top 20 "$out/groups-400k.jsonl")
base=$(measure "$bin/bindiag" summary --format json "$out/labels-common-1m.jsonl" | cut -d' ' -f1)
row "400 000 groups" "-" "$1" "$2" "$(( ($1 - base) * 1024 / 400000 )) bytes a group over 1 group"
set -- $(measure "$bin/bindiag" summary --format table "$out/groups-400k.jsonl")
row "400 000 groups, table (top 20)" "-" "$1" "$2" "-"

echo "== distinct labels: 1M records of one site, 8 labels vs 1M distinct labels (best of 3)"
best() {
  local best_s="" best_kb="" kb s
  for _ in 1 2 3; do
    read -r kb s <<<"$(measure "$@")"
    if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; best_kb=$kb; fi
  done
  echo "$best_kb $best_s"
}
set -- $(best "$bin/bindiag" summary --format json "$out/labels-common-1m.jsonl")
common_s=$2
row "8 labels" "-" "$1" "$2" "-"
set -- $(best "$bin/bindiag" summary --format json "$out/labels-distinct-1m.jsonl")
row "1M distinct labels" "-" "$1" "$2" "$(awk "BEGIN{printf \"%.2f\", $2 / $common_s}")x the time of 8 labels (goal <= 1.5)"
