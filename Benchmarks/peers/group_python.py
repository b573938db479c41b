"""Peer for `bindiag summary --format json`: the same site grouping with Python's json module."""
import json
import sys

groups = {}
records = events = 0
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        for line in handle:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            key = (event["kind"], event["file"], event["line"])
            count = 1 + event["suppressed"]
            group = groups.get(key)
            if group is None:
                group = groups[key] = {"events": 0, "records": 0, "first": event["ts"], "last": event["ts"], "processes": set()}
            group["events"] += count
            group["records"] += 1
            group["first"] = min(group["first"], event["ts"])
            group["last"] = max(group["last"], event["ts"])
            group["processes"].add(event["process"])
            records += 1
            events += count
ordered = sorted(groups.items(), key=lambda item: (-item[1]["events"], item[0]))
print(json.dumps({"events": events, "records": records, "groups": [
    {"key": list(key), "events": g["events"], "records": g["records"], "first": g["first"], "last": g["last"],
     "processes": sorted(g["processes"])} for key, g in ordered]}))
