"""Peer for `bindiag summary --format json`: the site grouping with DuckDB's `read_json`, its
columns given explicitly (the contract's keys and types, events.md), run from Python with the
import inside the timing.

Prints the canonical site list every grouping peer prints (see canonical.jq):
[{"kind","file","line","events","records","first","last"}, ...] sorted by kind, file, line.
Usage: python3 group_duckdb.py FILE...
"""
import json
import sys

import duckdb

# The contract's keys and types (events.md); `value` and `label` are optional, NULL when absent.
COLUMNS = {
    "v": "BIGINT", "ts": "VARCHAR", "level": "VARCHAR", "kind": "VARCHAR",
    "message_id": "VARCHAR", "msg": "VARCHAR", "file": "VARCHAR", "line": "BIGINT",
    "function": "VARCHAR", "value_type": "VARCHAR", "value_present": "BOOLEAN",
    "value": "VARCHAR", "label": "VARCHAR", "process": "VARCHAR", "pid": "BIGINT",
    "host": "VARCHAR", "run": "VARCHAR", "seq": "BIGINT", "suppressed": "BIGINT",
}

rows = duckdb.execute(
    """
    SELECT kind, file, line, sum(1 + suppressed) AS events, count(*) AS records,
           min(ts) AS first, max(ts) AS last
    FROM read_json(?, format = 'newline_delimited', columns = ?)
    GROUP BY kind, file, line
    ORDER BY kind, file, line
    """,
    [sys.argv[1:], COLUMNS],
).fetchall()
print(json.dumps(
    [{"kind": k, "file": f, "line": l, "events": int(e), "records": r, "first": a, "last": b}
     for k, f, l, e, r, a, b in rows],
    separators=(",", ":")))
