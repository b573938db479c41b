#!/usr/bin/env bash
# bindiag export (issue 32), each row beside a peer measured in the same run.
#   Benchmarks/export.sh          1M records, then 5M (made once in $BENCH_DIR, about 2.4 GB;
#                                 skipped when less than 8 GiB is free there)
#   EXPORT_SIZES="N ..."          other sizes (records)
#   EXPORT_CHDB=N                 records loaded into chdb for the query row (default 1000000;
#                                 0 skips it)
# Throughput: seconds and MB/s of input for --format clickhouse and --format otlp to /dev/null,
# beside `cat FILE` (the I/O floor) and `jq -c -f Benchmarks/peers/otlp.jq` (a comparable
# per-record rewrite, without batching). Memory: peak RSS (GNU time) of each export, which must
# not grow with the input (the goal: flat from 1M to 5M).
# ClickHouse: the export of EXPORT_CHDB records loaded into chdb (ClickHouse in process) and
# config/clickhouse/summary.sql run, beside `bindiag summary --format json` on the same file;
# the two totals are printed so that they can be compared.
# Needs: a release build (done here), jq, python3, GNU time; `pip install chdb` for the last row.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_DIR:-/tmp/bindiag-bench}
mkdir -p "$out/export"
swift build -c release --product bindiag >/dev/null
swift build -c release --product BindingBenchmarks >/dev/null
bin=$PWD/.build/release

# "SECONDS KIB" of one run of a command, its stdout discarded (GNU time: elapsed, peak RSS).
measure() {
  /usr/bin/time -o "$out/export/time.txt" -f "%e %M" "$@" >/dev/null 2>"$out/export/err.txt" \
    || echo "  (failed: $(tail -n 1 "$out/export/err.txt"))" >&2
  tail -1 "$out/export/time.txt"
}
row() { printf '%-46s %9s %10s %10s  %s\n' "$@"; }
mbs() { awk "BEGIN{ if ($2 == 0) print \"n/a\"; else printf \"%.0f\", $1 / 1e6 / $2 }"; }
ratio() { awk "BEGIN{ if ($1 == 0) print \"n/a\"; else printf \"%.2f\", $2 / $1 }"; }

echo "== bindiag export (issue 32): generated records, fixed seed 42; load:$(uptime | sed 's/.*load average://')"
for n in ${EXPORT_SIZES:-1000000 5000000}; do
  file="$out/events-$n.jsonl"
  if [ ! -s "$file" ] && [ "$n" -ge 5000000 ]; then
    free_kb=$(df -Pk "$out" | awk 'NR == 2 {print $4}')
    if [ "$free_kb" -lt $((8 * 1024 * 1024)) ]; then
      echo "$n records: skipped, $((free_kb / 1024 / 1024)) GiB free in $out (needs 8 GiB)"
      continue
    fi
  fi
  [ -s "$file" ] || $bin/BindingBenchmarks generate "$n" 42 >"$file"
  bytes=$(stat -c %s "$file")
  row "$n records, $((bytes / 1048576)) MiB, load $(cut -d' ' -f1 /proc/loadavg)" "seconds" "MB/s in" "peak KiB" "vs ours"
  read -r cat_s cat_kb <<<"$(measure cat "$file")"
  row "  cat FILE (the I/O floor)" "$cat_s" "$(mbs "$bytes" "$cat_s")" "$cat_kb" ""
  read -r ch_s ch_kb <<<"$(measure $bin/bindiag export --format clickhouse "$file")"
  row "  bindiag export --format clickhouse" "$ch_s" "$(mbs "$bytes" "$ch_s")" "$ch_kb" "goal >= 200 MB/s"
  read -r ot_s ot_kb <<<"$(measure $bin/bindiag export --format otlp "$file")"
  row "  bindiag export --format otlp" "$ot_s" "$(mbs "$bytes" "$ot_s")" "$ot_kb" "goal >= 200 MB/s"
  if [ "$n" -le 1000000 ]; then
    read -r jq_s jq_kb <<<"$(measure jq -c -f Benchmarks/peers/otlp.jq "$file")"
    row "  jq -c -f Benchmarks/peers/otlp.jq" "$jq_s" "$(mbs "$bytes" "$jq_s")" "$jq_kb" "jq/otlp $(ratio "$ot_s" "$jq_s")"
  fi
done

chdb_n=${EXPORT_CHDB:-1000000}
if [ "$chdb_n" -gt 0 ]; then
  if ! python3 -c 'import chdb.session' 2>/dev/null; then
    echo "chdb: skipped (pip install chdb)"
    exit 0
  fi
  file="$out/events-$chdb_n.jsonl"
  [ -s "$file" ] || $bin/BindingBenchmarks generate "$chdb_n" 42 >"$file"
  rows="$out/export/rows-$chdb_n.jsonl"
  $bin/bindiag export --format clickhouse "$file" >"$rows"
  $bin/bindiag export --schema clickhouse >"$out/export/schema.sql"
  start=$(date +%s%N)
  $bin/bindiag summary --format json "$file" >"$out/export/summary.json"
  summary_s=$(awk "BEGIN{printf \"%.2f\", ($(date +%s%N) - $start) / 1e9}")
  python3 - "$out/export/schema.sql" "$rows" config/clickhouse/summary.sql "$out/export/summary.json" "$summary_s" <<'PY'
import json, sys, time
from chdb import session
schema, rows, queries, summary_path, summary_s = sys.argv[1:]
s = session.Session()
s.query(open(schema).read())
start = time.time()
s.query("INSERT INTO bindiag_events SELECT * FROM file('%s', JSONEachRow)" % rows)
load_s = time.time() - start
named = {}
for part in open(queries).read().split("-- name: ")[1:]:
    name, _, text = part.partition("\n")
    named[name.strip()] = text.strip().rstrip(";")
start = time.time()
results = {name: s.query(text + " FORMAT JSONEachRow", "JSONEachRow").bytes().decode() for name, text in named.items()}
query_s = time.time() - start
totals = json.loads(results["totals"].splitlines()[0])
lost = json.loads(results["lost"].splitlines()[0])["lost"]
summary = json.load(open(summary_path))
print("%-46s %9s %10s" % ("ClickHouse (chdb), %d records" % int(totals["records"]), "seconds", ""))
print("%-46s %9.2f" % ("  INSERT … FROM file(rows, JSONEachRow)", load_s))
print("%-46s %9.2f" % ("  config/clickhouse/summary.sql, all queries", query_s))
print("%-46s %9s" % ("  bindiag summary --format json (same input)", summary_s))
print("  events %s/%s, records %s/%s, lost %s/%s (ClickHouse/bindiag)" % (
    totals["events"], summary["events"], totals["records"], summary["records"], lost, summary["lost"]))
PY
fi
