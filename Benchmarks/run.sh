#!/usr/bin/env bash
# Benchmarks, each beside a peer measured in the same run, printed as ratios.
#   Benchmarks/run.sh            everything (about 8 minutes; journalctl and jq over the fleet's
#                                1M journal entries and jq over 1M records are the slow parts)
#   Benchmarks/run.sh quick      200 000 records only, no 1M jq run, no fleet
#   Benchmarks/run.sh fleet      only the fleet: 100 hosts' journal files (made once, then kept
#                                in $BENCH_DIR/fleet; about 1.5 minutes to make)
# Needs: a release build (done here), python3, jq, gcc; journald for the journal rows;
# systemd-journal-remote for the fleet.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-full}
out=${BENCH_DIR:-/tmp/bindiag-bench}
mkdir -p "$out"
swift build -c release >/dev/null
bin=.build/release

# seconds (best of N runs, nanosecond clock) of a command; stdout and stderr discarded.
best() {
  local runs=$1; shift
  local best_s=""
  for _ in $(seq 1 "$runs"); do
    local start end s
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    s=$(awk "BEGIN{printf \"%.3f\", ($end - $start) / 1e9}")
    if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; fi
  done
  echo "$best_s"
}
# peak RSS in KiB of one run of a command (GNU time).
rss() {
  /usr/bin/time -o "$out/time.txt" -f "%M" "$@" >/dev/null 2>&1 || true
  tail -1 "$out/time.txt"
}
ratio() { awk "BEGIN{ if ($2 == 0) print \"n/a\"; else printf \"%.1f\", $1 / $2 }"; }
row() { printf '%-58s %14s %14s %10s\n' "$@"; }

# Fleet (issue 13): what a central systemd-journal-remote holds for 100 hosts, one journal file
# per host (as --split-mode=host writes them) of 10 000 misuse entries each, made from export
# format by systemd-journal-remote itself. 10 hosts are hard links to the first 10 files.
fleet() {
  local remote=/lib/systemd/systemd-journal-remote dir="$out/fleet"
  if [ ! -x "$remote" ]; then echo "== Fleet: skipped (apt-get install systemd-journal-remote)"; return; fi
  if [ ! -e "$dir/hosts100/.complete" ]; then
    rm -rf "$dir" && mkdir -p "$dir/hosts100" "$dir/hosts10"
    local made=$(date +%s)
    seq 1 100 | xargs -P 2 -I{} sh -c 'h=$(printf "web-%03d" "$1")
      "$2" export "$h" 10000 "$1" | "$3" --split-mode=none --output="$4/remote-$h.journal" - 2>/dev/null' \
      sh {} "$bin/BindingBenchmarks" "$remote" "$dir/hosts100"
    for f in $(ls "$dir/hosts100" | head -10); do ln "$dir/hosts100/$f" "$dir/hosts10/$f"; done
    touch "$dir/hosts100/.complete"
    echo "(made 100 hosts' journal files in $(( $(date +%s) - made )) s, $(du -sm "$dir/hosts100" | cut -f1) MiB)"
  fi
  echo
  echo "== Fleet (issue 13): bindiag summary --journal-dir D --group-by host, 10 000 entries per host"
  row "measure" "bindiag" "peer" "peer/ours"
  for hosts in 10 100; do
    local d="$dir/hosts$hosts"
    local ours ours_kb jq_s floor files peer_kb
    ours="$(best 3 $bin/bindiag summary --journal-dir "$d" --group-by host --format json)"
    ours_kb="$(rss $bin/bindiag summary --journal-dir "$d" --group-by host --format json)"
    floor="$(best 1 journalctl --directory "$d" -o export)"
    peer_kb="$(rss journalctl --directory "$d" -o export)"
    files="$(best 1 sh -c 'for f in "$1"/*.journal; do journalctl --file "$f" -o export; done' sh "$d")"
    jq_s="$(best 1 sh -c "journalctl --directory '$d' BINDING_SCHEMA=1 -o json | jq -n -c -f Benchmarks/peers/group_hosts.jq")"
    # Both must find the same events and records per host.
    local same=no
    if [ "$($bin/bindiag summary --journal-dir "$d" --group-by host --format json | jq -c '[.groups[] | {host: .key.host, events, records}]')" = \
      "$(journalctl --directory "$d" BINDING_SCHEMA=1 -o json | jq -n -c -f Benchmarks/peers/group_hosts.jq)" ]; then same=yes; fi
    row "$hosts hosts ($(( hosts * 10000 )) entries), per-host counts agree: $same" "" "" ""
    row "  vs journalctl -D -o json | jq, s" "$ours" "$jq_s" "$(ratio "$jq_s" "$ours")"
    row "  vs journalctl -D -o export > /dev/null (floor), s" "$ours" "$floor" "$(ratio "$floor" "$ours")"
    row "  vs journalctl --file, one file at a time, -o export, s" "$ours" "$files" "$(ratio "$files" "$ours")"
    row "  peak memory, MiB (peer: journalctl -D -o export)" "$(( ours_kb / 1024 ))" "$(( peer_kb / 1024 ))" "-"
  done
}
if [ "$mode" = fleet ]; then fleet; exit 0; fi

echo "== Core (issue 2): correct path of a mapping and the cost of a misuse"
core=$($bin/BindingBenchmarks mapping; $bin/BindingBenchmarks misuse 2>/dev/null)
get() { echo "$core" | awk -v k="$1" '$1 == k {print $2}'; }
row "measure" "ours" "peer" "ratio"
row "mapping get+set(false) vs hand-written Binding, ns/op" "$(get mapping.correct_path)" "$(get handwritten.correct_path)" "$(ratio "$(get mapping.correct_path)" "$(get handwritten.correct_path)")"
row "one misuse into a null sink (rate limit off), ns" "$(get misuse.null_sink)" "-" "-"
row "one misuse folded by the rate limiter, ns" "$(get misuse.rate_limited_fold)" "-" "-"
row "one misuse into the stderr sink (to /dev/null), ns" "$(get misuse.stderr_sink)" "-" "-"

echo
echo "== JSON Lines file sink (issue 3), 1 000 000 records vs Python logging + JSON formatter, 200 000 (best of 3 each)"
ours_rate=0 ours_call=999999999 peer_rate=0 peer_call=999999999
for _ in 1 2 3; do
  rm -f "$out/sink.jsonl" "$out/peer.jsonl"
  sink=$($bin/BindingBenchmarks jsonl "$out/sink.jsonl" 1000000)
  peer=$(python3 Benchmarks/peers/logging_peer.py "$out/peer.jsonl" 200000)
  ours_rate=$(echo "$sink" | awk -v b="$ours_rate" '$1 == "jsonl.sustained" {print ($2 > b ? $2 : b)}')
  ours_call=$(echo "$sink" | awk -v b="$ours_call" '$1 == "jsonl.caller_side" {print ($2 < b ? $2 : b)}')
  peer_rate=$(echo "$peer" | awk -v b="$peer_rate" '{print ($2 > b ? $2 : b)}')
  peer_call=$(echo "$peer" | awk -v b="$peer_call" '{print ($4 < b ? $4 : b)}')
done
row "measure" "ours" "python" "ours/peer"
row "sustained records/s" "$ours_rate" "$peer_rate" "$(ratio "$ours_rate" "$peer_rate")"
row "caller side ns per misuse (peer: per logger.error)" "$ours_call" "$peer_call" "$(ratio "$peer_call" "$ours_call")x less"
row "records on disk / dropped" "$(wc -l <"$out/sink.jsonl")" "$(echo "$sink" | awk '$1 == "jsonl.dropped" {print $2}')" "-"

echo
echo "== JSON Lines rotation (issue 8): 160 000 records, max_bytes 1 000 000, keep 100 000 vs no rotation"
rm -rf "$out/rotate" && mkdir -p "$out/rotate"
rot=$($bin/BindingBenchmarks jsonl-rotate "$out/rotate/app.jsonl" 160000 1000000 100000)
rm -f "$out/plain.jsonl"
plain=$($bin/BindingBenchmarks jsonl "$out/plain.jsonl" 160000)
rot_s=$(echo "$rot" | awk '$1 == "jsonl.seconds" {print $2}')
plain_s=$(echo "$plain" | awk '$1 == "jsonl.seconds" {print $2}')
largest=$(find "$out/rotate" -name 'app.jsonl*' -printf '%s\n' | sort -n | tail -1)
row "measure" "rotating" "no rotation" "ratio"
row "160 000 records, s ($(echo "$rot" | awk '$1 == "jsonl.rotations" {print $2}') rotations)" "$rot_s" "$plain_s" "$(ratio "$rot_s" "$plain_s")"
row "largest file, bytes (max_bytes 1 000 000)" "$largest" "-" "-"

if [ -S /run/systemd/journal/socket ]; then
  echo
  echo "== journald sink and reader (issue 4), 50 000 entries (sink: best of 3)"
  cc -O2 -o "$out/sendv_peer" Benchmarks/peers/sendv_peer.c -ldl
  # journald itself is the bottleneck and its speed drifts: alternate, keep the best of 3 each.
  ours=0 peer=0
  for _ in 1 2 3; do
    journal=$($bin/BindingBenchmarks journald 50000)
    run=$(echo "$journal" | awk '$1 == "journald.run" {print $2}')
    ours=$(echo "$journal" | awk -v b="$ours" '$1 == "journald.sink" {print ($2 > b ? $2 : b)}')
    peer_run=$(printf '%016x' $((RANDOM * 32768 + RANDOM)))
    peer=$("$out/sendv_peer" 50000 "$peer_run" | awk -v b="$peer" '{print ($2 > b ? $2 : b)}')
  done
  row "measure" "ours" "peer" "ours/peer"
  row "sink entries/s vs raw sd_journal_sendv from C" "$ours" "$peer" "$(ratio "$ours" "$peer")"
  row "sink caller side, ns per misuse (queue, no wait)" "$(echo "$journal" | awk '$1 == "journald.caller_side" {print $2}')" "-" "-"
  sleep 1
  b_s="$(best 3 $bin/bindiag summary --journal --run "$run" --format json)"
  j_s="$(best 3 journalctl --no-pager -o json BINDING_RUN="$run")"
  row "reader: bindiag --journal vs journalctl -o json, s" "$b_s" "$j_s" "$(ratio "$j_s" "$b_s")x faster"
  p_s="$(best 1 bash -c "journalctl --no-pager -o json BINDING_RUN=$run | jq -n -c 'reduce inputs as \$e ({}; .[\$e.BINDING_KIND + \"|\" + \$e.CODE_FILE + \"|\" + \$e.CODE_LINE] += 1)'")"
  row "summary --journal vs journalctl -o json | jq grouping, s" "$b_s" "$p_s" "$(ratio "$p_s" "$b_s")x faster"
fi

echo
echo "== bindiag summary (issue 5): generated records, fixed seed 42"
sizes="200000 1000000"
[ "$mode" = quick ] && sizes="200000"
for n in $sizes; do
  file="$out/events-$n.jsonl"
  [ -s "$file" ] || $bin/BindingBenchmarks generate "$n" 42 >"$file"
  ours="$(best 3 $bin/bindiag summary --format json "$file")"
  ours_kb="$(rss $bin/bindiag summary --format json "$file")"
  wc_s="$(best 3 wc -l "$file")"
  py="$(best 1 python3 Benchmarks/peers/group_python.py "$file")"
  row "measure ($n records, $(( $(stat -c %s "$file") / 1048576 )) MiB)" "bindiag" "peer" "peer/ours"
  row "  vs wc -l (the I/O floor), s (ours/wc: goal <= 10)" "$ours" "$wc_s" "$(ratio "$ours" "$wc_s")"
  row "  vs Python json grouping, s" "$ours" "$py" "$(ratio "$py" "$ours")"
  if [ "$n" = 200000 ] || [ "$mode" = full ]; then
    jq_s="$(best 1 jq -n -c -f Benchmarks/peers/group.jq "$file")"
    row "  vs jq grouping, s" "$ours" "$jq_s" "$(ratio "$jq_s" "$ours")"
  fi
  row "  bindiag peak memory, MiB" "$(( ours_kb / 1024 ))" "-" "-"
done

if [ "$mode" = full ]; then fleet; fi
