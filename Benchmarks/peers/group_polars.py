"""Peer for `bindiag summary --format json`: the site grouping with Polars' `scan_ndjson`, the
schema given explicitly (the contract's keys and types, events.md).

Prints the canonical site list every grouping peer prints (see canonical.jq):
[{"kind","file","line","events","records","first","last"}, ...] sorted by kind, file, line.
Usage: python3 group_polars.py FILE...
"""
import json
import sys

import polars as pl

# The contract's keys and types (events.md); `value` and `label` are optional, null when absent.
SCHEMA = {
    "v": pl.Int64, "ts": pl.String, "level": pl.String, "kind": pl.String,
    "message_id": pl.String, "msg": pl.String, "file": pl.String, "line": pl.Int64,
    "function": pl.String, "value_type": pl.String, "value_present": pl.Boolean,
    "value": pl.String, "label": pl.String, "process": pl.String, "pid": pl.Int64,
    "host": pl.String, "run": pl.String, "seq": pl.Int64, "suppressed": pl.Int64,
}

frame = (
    pl.concat([pl.scan_ndjson(path, schema=SCHEMA) for path in sys.argv[1:]])
    .group_by("kind", "file", "line")
    .agg(
        (1 + pl.col("suppressed")).sum().alias("events"),
        pl.len().alias("records"),
        pl.col("ts").min().alias("first"),
        pl.col("ts").max().alias("last"),
    )
    .sort("kind", "file", "line")
    .collect()
)
print(json.dumps(frame.to_dicts(), separators=(",", ":")))
