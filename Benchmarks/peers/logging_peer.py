"""Peer for the JSON Lines file sink: Python's logging with a JSON formatter writing the same
records to a file. Usage: logging_peer.py PATH COUNT. Prints records/s."""
import json
import logging
import os
import random
import sys
import time
from datetime import datetime, timezone

path, count = sys.argv[1], int(sys.argv[2])
run = "%016x" % random.getrandbits(64)


class ContractFormatter(logging.Formatter):
    def format(self, record):
        return json.dumps({
            "v": 1, "ts": datetime.fromtimestamp(record.created, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "level": "error", "kind": "mapped-bool-set-true", "message_id": "2b9f53b872d7905613eeb68e53797657",
            "msg": record.getMessage(), "file": "BindingBenchmarks/main.swift", "line": 120,
            "function": "runJSONLines(path:count:)", "value_type": "Swift.Optional<Swift.String>",
            "value_present": True, "value": "<private>", "process": "python3", "pid": os.getpid(),
            "host": "localhost", "run": run, "seq": record.seq, "suppressed": 0,
        }, separators=(",", ":"))


handler = logging.FileHandler(path)
handler.setFormatter(ContractFormatter())
logger = logging.getLogger("peer")
logger.addHandler(handler)
logger.propagate = False
start = time.perf_counter()
for seq in range(1, count + 1):
    logger.error("A Binding<Bool> mapped from an optional was set to true; the write had no effect.", extra={"seq": seq})
handler.flush()
elapsed = time.perf_counter() - start
print("logging_peer %f records/s %f ns/event" % (count / elapsed, elapsed / count * 1e9))
