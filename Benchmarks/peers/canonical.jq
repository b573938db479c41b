# The canonical site list the grouping peers are compared in: one object per site with events,
# records, first and last, sorted by kind, file, line. Accepts `bindiag summary --format json`
# (an object with .groups), group_python.py's output (the same shape, key as an array), group.jq's
# (a list, key as an array of strings), or a list that is already canonical (then only re-sorted).
(if type == "object" then .groups else . end)
| map(if has("key") then
      (if (.key | type) == "array" then {kind: .key[0], file: .key[1], line: (.key[2] | tonumber)} else .key end)
      + {events, records, first, last}
    else {kind, file, line, events, records, first, last} end)
| sort_by(.kind, .file, .line)
