import Foundation
import TestSupport
import Testing

/// The file sink and the process's descriptors: none left at the first misuse (the sink opens
/// its file later), and thousands of sinks (a cap keeps descriptors for the app).
@Suite struct JSONLinesFileSinkDescriptorTests {
  /// A real process lowers its descriptor limit and takes every descriptor before its first
  /// misuse, so the sink cannot open its file (`EMFILE`); it says so once, drops and counts,
  /// and after the process frees them it opens the file, says `recovered` once, and writes.
  /// Before, it printed to stderr for the life of the process. (The exit-time flush cannot get
  /// its pipes either, and says so; the helper flushes before it exits.)
  @Test func aSinkWithNoDescriptorLeftOpensItsFileLaterAndSaysSoOnce() throws {
    let path = try temporaryDirectory() + "/late.jsonl"
    let result = try runProduct(
      "misuse-helper", ["3", "--hoard-fds", "--more", "4", "--stats"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    #expect(result.stdout == "freed\nwritten=4 dropped=3\n")
    #expect(
      result.stderr == """
        binding-diagnostics: sink=jsonl path=\(path) error="open: Too many open files (errno 24)" errno=24 action="dropping records and retrying"
        binding-diagnostics: no flush at exit or on signals: pipe: pipe: Too many open files (errno 24)
        binding-diagnostics: sink=jsonl path=\(path) dropped=3 action=recovered

        """)
    let records = try parseRecords(try lines(ofFile: path))
    #expect(records.map { $0["seq"] as? Int } == [4, 5, 6, 7])
  }

  /// 3 000 sinks in a process whose descriptor limit is 256: the first 128 (half the limit)
  /// open, the rest are refused with a clear error, and the app still has descriptors. Before,
  /// the sinks took every descriptor.
  @Test func thousandsOfSinksLeaveTheAppItsDescriptors() throws {
    let directory = try temporaryDirectory()
    let result = try runProduct("misuse-helper", ["0", "--jsonl-sinks", "3000:\(directory)"])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        opened 128 refused 2872
        open (too many JSON Lines sinks open: 128): Too many open files (errno 24)
        a descriptor is left

        """)
    #expect(result.stderr == "")
  }
}
