import Foundation

/// Reads the entries of one run back with the real `journalctl -o json --all`, retrying while
/// journald catches up, until `count` entries are there (or about 10 s have passed).
public func journalEntries(run: String, count: Int) throws -> [[String: Any]] {
  var entries: [[String: Any]] = []
  for _ in 0..<200 {
    let output = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "--all", "-o", "json", "BINDING_RUN=\(run)"])
    entries = output.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
    if entries.count >= count { break }
    Thread.sleep(forTimeInterval: 0.05)
  }
  return entries
}
