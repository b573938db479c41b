# Peer for `bindiag summary --journal-dir D --format json`, over `journalctl -D D -o json`:
# events (1 + BINDING_SUPPRESSED), records, lost records (per run BINDING_RUN, the seqs missing
# from 1 up to its highest BINDING_SEQ) and events/records per site (kind, file, line), sorted.
reduce inputs as $e ({events: 0, records: 0, g: {}, r: {}};
  ($e.BINDING_SUPPRESSED | tonumber) as $s
  | ([$e.BINDING_KIND, $e.CODE_FILE, $e.CODE_LINE] | join("\u0000")) as $k
  | .events += 1 + $s
  | .records += 1
  | .g[$k].events += 1 + $s
  | .g[$k].records += 1
  | .r[$e.BINDING_RUN].max = ([.r[$e.BINDING_RUN].max // 0, ($e.BINDING_SEQ | tonumber)] | max)
  | .r[$e.BINDING_RUN].seqs[$e.BINDING_SEQ] = true)
| {events, records, lost: ([.r[] | .max - (.seqs | length)] | add // 0),
   groups: (.g | to_entries
     | map((.key | split("\u0000")) as $k
       | [$k[0], $k[1], ($k[2] | tonumber), .value.events, .value.records]) | sort)}
