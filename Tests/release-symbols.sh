#!/usr/bin/env bash
# A release `bindiag` holds no fault-injection symbol: the system-call seam's test hook
# (`SystemCallFaults`: the class, its task-local `current`, its `Fault` queues) is compiled
# only into debug and test builds (`BINDING_FAULT_INJECTION`, defined by the manifest for the
# debug configuration). Builds the release product and fails, naming each symbol found.
#
# Usage: Tests/release-symbols.sh [extra swift build arguments]
# (`Tests/release-symbols.sh --scratch-path .build-hook -Xswiftc -DBINDING_FAULT_INJECTION`
# compiles the hook in, as removing the `#if`s would, and fails.)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product bindiag "$@"
binary="$(swift build -c release --show-bin-path "$@")/bindiag"
[[ -x "$binary" ]] || { echo "release-symbols: no binary at $binary" >&2; exit 2; }

# Every symbol of the hook has `SystemCallFaults` in its mangled name (the class, `current`,
# `next`, `remaining`, `Fault`); `swift demangle` makes the report readable.
found="$(nm "$binary" | grep -E 'SystemCallFaults' || true)"
if [[ -n "$found" ]]; then
  echo "release-symbols: fault-injection symbols in the release bindiag ($binary):" >&2
  awk '{ print $NF }' <<<"$found" | sort -u | swift demangle --compact | sed 's/^/  /' >&2
  exit 1
fi
echo "release-symbols: no fault-injection symbol in $binary"
