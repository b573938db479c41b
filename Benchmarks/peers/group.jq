# Peer for `bindiag summary --format json`: the same site grouping with jq (run with -n -s? no: reduce over inputs).
reduce inputs as $e ({};
  ([$e.kind, $e.file, ($e.line|tostring)] | join("\u0000")) as $k
  | .[$k].events += (1 + $e.suppressed)
  | .[$k].records += 1
  | .[$k].first = ([.[$k].first // $e.ts, $e.ts] | min)
  | .[$k].last = ([.[$k].last // $e.ts, $e.ts] | max)
  | .[$k].processes[$e.process] = true)
| to_entries | sort_by(-.value.events) | map({key: (.key | split("\u0000")), events: .value.events, records: .value.records, first: .value.first, last: .value.last, processes: (.value.processes | keys)})
