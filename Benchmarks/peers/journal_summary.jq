# Peer for `bindiag summary --journal-dir D --format json`, over `journalctl -D D -o json`:
# events (1 + BINDING_SUPPRESSED), records, lost records (per run BINDING_RUN, the seqs missing
# from 1 up to its highest BINDING_SEQ) and events/records per site (kind, file, line), sorted.
# The entries are collected first and grouped after: jq 1.6 copies a large object it updates
# inside `reduce` (the set of seqs seen), which makes a reduce over 1M entries quadratic.
[inputs | {k: [.BINDING_KIND, .CODE_FILE, (.CODE_LINE | tonumber)], s: (.BINDING_SUPPRESSED | tonumber),
  run: .BINDING_RUN, seq: (.BINDING_SEQ | tonumber)}] as $all
| {events: ($all | map(1 + .s) | add // 0), records: ($all | length),
   lost: ($all | group_by(.run) | map((map(.seq) | max) - (map(.seq) | unique | length)) | add // 0),
   groups: ($all | group_by(.k)
     | map([.[0].k[0], .[0].k[1], .[0].k[2], (map(1 + .s) | add), length]) | sort)}
