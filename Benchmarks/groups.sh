#!/usr/bin/env bash
# Distinct groups (issue 19): what one more group costs in peak memory, and what distinct
# labels cost in time per record, beside the common case measured in the same run.
#   Benchmarks/groups.sh          every row (about 3 minutes on two busy cores)
#   GROUPS_RUNS=N                 runs of each timed pair (3 by default)
# Memory: peak RSS (GNU time) of `bindiag summary` over 400 000 records in 400 000 groups
# (distinct lines) against 400 000 records in 20 groups, `--format table` and `--format json`;
# the difference over 399 980 is the bytes a group costs (goal: < 700).
# Time: 1M records of one site with 1M distinct labels against 8 labels, with the default
# grouping (JSON output) and `--group-by label` (table output: the 20 largest of 1M groups),
# run in alternation; the ratio of time per record, wall clock and CPU (user + system), per
# run (goal: <= 1.5 in every run).
# Needs: a release build (done here), python3, GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_DIR:-/tmp/bindiag-bench}/groups
mkdir -p "$out"
swift build -c release --product bindiag >/dev/null
bin=$PWD/.build/release/bindiag
runs=${GROUPS_RUNS:-3}

# "KIB WALL CPU" of one run of a command (GNU time): peak RSS, elapsed and CPU seconds.
measure() {
  /usr/bin/time -o "$out/time.txt" -f "%M %e %U %S" "$@" >/dev/null 2>&1 || true
  tail -1 "$out/time.txt" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}'
}
row() { printf '%-44s %11s %8s %8s  %s\n' "$@"; }

# Files, made once: a contract record with LINE, LABEL and SEQ replaced per line.
python3 - "$out" <<'EOF'
import os, sys
out = sys.argv[1]
record = ('{"v":1,"ts":"2026-12-01T14:23:50.265066Z","level":"error","kind":"mapped-bool-set-true",'
    '"message_id":"2b9f53b872d7905613eeb68e53797657","msg":"A Binding<Bool> mapped from an optional '
    'was set to true; the write had no effect.","file":"App/Inbox.swift","line":%d,'
    '"function":"inboxView(_:)","value_type":"Swift.Optional<Swift.String>","value_present":true,'
    '"value":"<private>","label":"%s","process":"Inbox","pid":30517,"host":"vm",'
    '"run":"e338f8bc8fd3133d","seq":%d,"suppressed":0}\n')
def records(name, count, line, label):
    path = os.path.join(out, name)
    if os.path.exists(path):
        return
    with open(path + ".tmp", "wb") as f:
        for start in range(1, count + 1, 10000):
            f.write("".join(record % (line(s), label(s), s)
                            for s in range(start, min(start + 10000, count + 1))).encode())
    os.rename(path + ".tmp", path)
records("groups-400k.jsonl", 400000, lambda s: s, lambda s: "save")
records("groups-20.jsonl", 400000, lambda s: 1 + s % 20, lambda s: "save")
records("labels-common-1m.jsonl", 1000000, lambda s: 35, lambda s: "save-%07d" % (s % 8))
records("labels-distinct-1m.jsonl", 1000000, lambda s: 35, lambda s: "save-%07d" % s)
EOF

echo "== distinct groups: peak memory, 400 000 records; $(nproc) cores; load:$(uptime | sed 's/.*load average://')"
row "input" "max RSS KiB" "wall s" "cpu s" "bytes a group"
for format in table json; do
  read -r base _ _ <<<"$(measure "$bin" summary --format "$format" "$out/groups-20.jsonl")"
  row "20 groups, --format $format" "$base" "-" "-" "-"
  read -r kib wall cpu <<<"$(measure "$bin" summary --format "$format" "$out/groups-400k.jsonl")"
  row "400 000 groups, --format $format" "$kib" "$wall" "$cpu" \
    "$(( (kib - base) * 1024 / 399980 )) (goal < 700)"
done

echo "== distinct labels: 1M records of one site, 8 labels vs 1M distinct labels, in alternation"
row "run" "ratio wall" "ratio cpu" "" "8 labels / distinct (wall s, cpu s)"
for grouping in site label; do
  case $grouping in
    site) args=(--format json) ;;
    label) args=(--format table --group-by label) ;;
  esac
  for run in $(seq 1 "$runs"); do
    read -r _ common_wall common_cpu <<<"$(measure "$bin" summary "${args[@]}" "$out/labels-common-1m.jsonl")"
    read -r _ wall cpu <<<"$(measure "$bin" summary "${args[@]}" "$out/labels-distinct-1m.jsonl")"
    row "--group-by $grouping ${args[1]}, run $run" \
      "$(awk "BEGIN{printf \"%.2f\", $wall / $common_wall}")" \
      "$(awk "BEGIN{printf \"%.2f\", $cpu / $common_cpu}")" "" \
      "$common_wall/$wall, $common_cpu/$cpu (goal <= 1.5)"
  done
done
