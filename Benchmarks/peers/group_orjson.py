"""Peer for `bindiag summary --format json`: the site grouping with orjson, one `orjson.loads`
per line and a dict of groups.

Prints the canonical site list every grouping peer prints (see canonical.jq):
[{"kind","file","line","events","records","first","last"}, ...] sorted by kind, file, line.
Usage: python3 group_orjson.py FILE...
"""
import sys

import orjson

groups = {}
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        for line in handle:
            try:
                event = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            key = (event["kind"], event["file"], event["line"])
            ts = event["ts"]
            group = groups.get(key)
            if group is None:
                groups[key] = [1 + event["suppressed"], 1, ts, ts]
            else:
                group[0] += 1 + event["suppressed"]
                group[1] += 1
                if ts < group[2]:
                    group[2] = ts
                if ts > group[3]:
                    group[3] = ts
sys.stdout.buffer.write(orjson.dumps(
    [{"kind": k[0], "file": k[1], "line": k[2], "events": g[0], "records": g[1], "first": g[2], "last": g[3]}
     for k, g in sorted(groups.items())]))
sys.stdout.buffer.write(b"\n")
