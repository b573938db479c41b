#!/usr/bin/env bash
# Resource budgets that gate CI (run by .ci/run beside the test suite): the peak memory and the
# bytes read of `bindiag summary` on big generated inputs, each beside its threshold. Exits 1
# when any figure misses its budget or any output is not what the suite expects of it.
# These checks left the test suite (issue 27): each needs tens to hundreds of megabytes of input
# and a child process, and a peak-memory figure means more of a release build than of a debug
# one. The suite keeps the behaviour on small inputs; see "Budgets" in each row's comment.
#   Benchmarks/budgets.sh                 every budget (about a minute after the release build)
#   BUDGETS_ONLY=REGEX                    only the rows whose name matches (an extended regex)
#   BUDGETS_SCALE=F                       every threshold times F (0.1 shows each can fail)
#   BUDGETS_BINDIAG=PATH                  measure that binary instead of building one
# Peak memory is GNU time's `%M` (`wait4`'s `ru_maxrss` of the child), a bound with a wide
# margin, not a timing; bytes read are `rchar` of the shell that waited for `bindiag`.
# Needs: a release build (done here), python3, GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BUDGETS_BINDIAG:-}" ]; then
  bin=$BUDGETS_BINDIAG
else
  swift build -c release --product bindiag >/dev/null
  bin=$PWD/.build/release/bindiag
fi
only=${BUDGETS_ONLY:-.}
scale=${BUDGETS_SCALE:-1}
out=$(mktemp -d "${TMPDIR:-/tmp}/bindiag-budgets.XXXXXX")
trap 'rm -rf "$out"' EXIT
failures=0

echo "== bindiag budgets; $(nproc) cores; load:$(uptime | sed 's/.*load average://')"
printf '%-66s %12s %14s  %s\n' "budget" "figure" "threshold" "verdict"

# A row: NAME FIGURE THRESHOLD UNIT; the figure must stay strictly below the (scaled) threshold.
budget() {
  local name=$1 figure=$2 threshold unit=$4 verdict=met
  threshold=$(awk -v t="$3" -v s="$scale" 'BEGIN { printf "%d", t * s }')
  if [ "$figure" -ge "$threshold" ]; then verdict=EXCEEDED; failures=$((failures + 1)); fi
  printf '%-66s %12s %14s  %s\n' "$name" "$figure $unit" "< $threshold $unit" "$verdict"
}

# An output check: NAME, then a command that must succeed.
expect() {
  local name=$1; shift
  if ! "$@"; then
    echo "error: $name: unexpected output"
    failures=$((failures + 1))
  fi
}
# Whether file $1 starts with $2 / contains $2.
starts() { [ "$(head -c "${#2}" "$1")" = "$2" ]; }
has() { grep -qF -- "$2" "$1"; }

# Peak RSS in KiB of `bindiag ARGS`; stdout in $out/stdout, stderr in $out/stderr.
peak() {
  /usr/bin/time -o "$out/time" -f "%M" "$bin" "$@" >"$out/stdout" 2>"$out/stderr" || true
  tail -1 "$out/time"
}

# Inputs. A contract record of the suite's fixture event (`fixtureEvent` in the bindiag tests);
# LINE, SEQ, LABEL and the message id's last hex digits are replaced per line.
python3 - "$out" <<'EOF'
import sys
out = sys.argv[1]
def record(seq, line=42, label=None, message_id="2b9f53b872d7905613eeb68e53797657"):
    return ('{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"error","kind":"mapped-bool-set-true",'
        '"message_id":"%s","msg":"A misuse.","file":"App/ContentView.swift","line":%d,'
        '"function":"body","value_type":"Swift.Optional<Swift.String>","value_present":true,'
        '"value":"<private>",%s"process":"Demo","pid":4242,"host":"build-01",'
        '"run":"0123456789abcdef","seq":%d,"suppressed":0}\n'
        % (message_id, line, '"label":"%s",' % label if label else "", seq))
def write(name, count, make):
    with open(out + "/" + name, "w") as f:
        for start in range(1, count + 1, 10000):
            f.write("".join(make(s) for s in range(start, min(start + 10000, count + 1))))
# 200 000 sites, one record each (no label); the same with a label; one site, distinct labels.
write("sites.jsonl", 200000, lambda s: record(s, line=s))
write("groups-site.jsonl", 200000, lambda s: record(s, line=s, label="label-424242"))
write("groups-label.jsonl", 200000, lambda s: record(s, line=424242, label="label-%d" % s))
# 400 000 distinct message ids.
mid = "2b9f53b872d7905613eeb68e53797657"
write("message-ids.jsonl", 400000,
      lambda s: record(s, message_id=mid[:len(mid) - len("%x" % s)] + "%x" % s))
# 16 MiB (whole blocks of 65 536 lines) of one short line repeated.
for name, line in (("x", b"x\n"), ("brace", b"{\n"), ("logfmt", b"v=1 kind=a\n")):
    block = line * 65536
    with open(out + "/junk-" + name + ".txt", "wb") as f:
        written = 0
        while written < 16 << 20:
            f.write(block)
            written += len(block)
# A record, a 200 MiB line, a record.
with open(out + "/huge.jsonl", "w") as f:
    f.write(record(1))
    f.write('{"v":1,"msg":"')
    chunk = "x" * (1 << 20)
    for _ in range(200):
        f.write(chunk)
    f.write('"}\n')
    f.write(record(2))
# 64 MiB of "x" with a short first line (so the file is read in chunks) and a final newline.
with open(out + "/long-line", "wb") as f:
    size = 64 << 20
    f.write(b"x\n" + b"x" * (size - 3) + b"\n")
EOF

# Was BindiagReaderMemoryTests.shortJunkLinesStayWithinTheBudget: short junk lines stay within
# 64 MiB plus 16 MiB per thread (before the bound, a chunk kept an event-sized entry per line).
for name in x brace logfmt; do
  path=$out/junk-$name.txt
  lines=$(wc -l <"$path")
  for threads in 1 2 4; do
    row="junk '$name' lines, 16 MiB, --threads $threads"
    [[ $row =~ $only ]] || continue
    kib=$(peak summary --format json --threads "$threads" "$path")
    if [ "$name" = x ]; then
      expect "$row" has "$out/stdout" "\"malformed\":0,\"other\":$lines,"
    else
      expect "$row" has "$out/stdout" "\"malformed\":$lines,"
    fi
    budget "$row: peak" "$kib" $(((64 + 16 * threads) * 1024)) KiB
  done
done

# Was BindiagReaderMemoryTests.distinctGroupsCostLittleEach: 200 000 sites cost well under
# 1.5 KiB a group over 64 MiB (about 3 KiB with a 64-bucket histogram per group).
row="200 000 sites, table, --threads 2"
if [[ $row =~ $only ]]; then
  kib=$(peak summary --format table --threads 2 "$out/sites.jsonl")
  expect "$row" starts "$out/stdout" "200,000 events in 200,000 records"
  budget "$row: peak" "$kib" $((64 * 1024 + 200000 * 1536 / 1024)) KiB
fi

# Was BindiagGroupMemoryTests.distinctGroupsCostUnderHalfAKilobyteEach: a distinct group costs
# under 512 bytes over 64 MiB, whatever the output (1.4 to 2.1 KB before groups were compact).
for case in "table site" "json site" "json label"; do
  set -- $case
  row="200 000 groups by $2, $1, --threads 2"
  [[ $row =~ $only ]] || continue
  kib=$(peak summary --format "$1" --group-by "$2" --threads 2 "$out/groups-$2.jsonl")
  if [ "$1" = table ]; then
    expect "$row" starts "$out/stdout" "200,000 events in 200,000 records"
  else
    # The whole document, streamed group by group: valid JSON with every group.
    expect "$row" starts "$out/stdout" '{"schema":1,"events":200000,"records":200000,'
    expect "$row" python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))["groups"]) != 200000)' "$out/stdout"
  fi
  budget "$row: peak" "$kib" $((64 * 1024 + 200000 * 512 / 1024)) KiB
done

# Was BindiagChunkedReadMemoryTests.distinctMessageIDsAreNotKept: message ids are checked,
# never shown; 400 000 distinct ones are not kept once their chunk is aggregated.
row="400 000 distinct message ids, json, --threads 1"
if [[ $row =~ $only ]]; then
  kib=$(peak summary --format json --threads 1 "$out/message-ids.jsonl")
  expect "$row" starts "$out/stdout" '{"schema":1,"events":400000,"records":400000,'
  budget "$row: peak" "$kib" $((40 * 1024)) KiB
fi

# Was BindiagSummaryTests.aHugeSingleLineIsMalformedWithBoundedMemory: a 200 MiB line is one
# malformed line, read with bounded memory.
row="a 200 MiB line between two records"
if [[ $row =~ $only ]]; then
  kib=$(peak summary --format json "$out/huge.jsonl")
  expect "$row" starts "$out/stdout" '{"schema":1,"events":2,"records":2,"malformed":1,'
  expect "$row" has "$out/stderr" "$out/huge.jsonl:2: malformed: line longer than 1048576 bytes"
  budget "$row: peak" "$kib" $((50 * 1024)) KiB
fi

# Was BindiagChunkedReadTests.aLongLineIsReadOnce: a chunk inside one long line does not read
# the rest of it, nor a buffer grown for a long line make later chunks read far past their ends.
# The bytes read must be at least the file's size and below it times the factor.
size=$((64 << 20))
for case in "1 150" "2 150" "1 225 1073741824"; do
  set -- $case
  row="a 64 MiB line, --threads $1${3:+ --max-line-bytes $3}"
  [[ $row =~ $only ]] || continue
  read_bytes=$(sh -c 'b="$1"; shift; "$b" summary "$@" >/dev/null 2>&1; grep rchar /proc/$$/io' \
    sh "$bin" --threads "$1" ${3:+--max-line-bytes "$3"} "$out/long-line" | sed 's/rchar: //')
  expect "$row: read at least the file" test "$read_bytes" -ge "$size"
  budget "$row: bytes read" "$read_bytes" $((size * $2 / 100)) B
done

if [ "$failures" -gt 0 ]; then
  echo "budgets: $failures missed"
  exit 1
fi
echo "budgets: every budget met"
