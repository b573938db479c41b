import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// A directory with one followed file, and the moves the JSON Lines sink makes on it.
private struct Rotation {
  let directory: String
  let path: String

  init() throws {
    directory = NSTemporaryDirectory() + "follower-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    path = directory + "/app.jsonl"
    try append("", to: path)
  }

  /// Appends `text` to `file` (created when missing), as one `write(2)`.
  func append(_ text: String, to file: String) throws {
    let fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    #expect(write(fd, text, text.utf8.count) == text.utf8.count)
  }

  /// Appends contract records with these sequence numbers to `file`.
  func append(seqs: [Int], to file: String, kind: MisuseKind = .mappedBoolSetTrue) throws {
    try append(seqs.map { record($0, kind: kind) }.joined(), to: file)
  }

  /// One poll's items, written short: `7` for the event with seq 7, `truncated NAME`,
  /// `malformed NAME:LINE`.
  func poll(_ follower: FileFollower) -> [String] {
    var items: [String] = []
    let finished = follower.poll { item in
      switch item {
      case .event(let event): items.append(String(event.seq))
      case .truncated(let source):
        items.append("truncated " + source.replacingOccurrences(of: directory + "/", with: ""))
      case .malformed(let source, let line, _):
        items.append(
          "malformed " + source.replacingOccurrences(of: directory + "/", with: "") + ":\(line)")
      }
      return true
    }
    #expect(finished)
    return items
  }

  /// Appends records with `seqs`, then starts following from the end: the first poll finds
  /// nothing.
  func followFromTheEnd(after seqs: [Int] = []) throws -> FileFollower {
    try append(seqs: seqs, to: path)
    let follower = FileFollower(path: path, start: .last(0))
    #expect(poll(follower) == [])
    return follower
  }

  /// Renames `PATH.N` to `PATH.N+1` … and `PATH` to `PATH.1`, then creates an empty `PATH`.
  func rotate() throws {
    var highest = 0
    while FileManager.default.fileExists(atPath: "\(path).\(highest + 1)") { highest += 1 }
    for generation in stride(from: highest, through: 1, by: -1) {
      #expect(rename("\(path).\(generation)", "\(path).\(generation + 1)") == 0)
    }
    #expect(rename(path, path + ".1") == 0)
    try append("", to: path)
  }

  /// Renames `PATH` to the generation `PATH.STAMP` as the sink does, then creates an empty
  /// `PATH`.
  func rotate(to stamp: String) throws {
    #expect(rename(path, path + "." + stamp) == 0)
    try append("", to: path)
  }

  /// Rotates as logrotate's `copytruncate` does: copies `PATH` to `PATH` + `suffix` (`.1`,
  /// `-20261201`), then truncates `PATH` in place. Numbered copies shift first (`.1` to `.2`, …).
  func copyTruncate(to suffix: String) throws {
    if suffix == ".1" {
      var highest = 0
      while FileManager.default.fileExists(atPath: "\(path).\(highest + 1)") { highest += 1 }
      for generation in stride(from: highest, through: 1, by: -1) {
        #expect(rename("\(path).\(generation)", "\(path).\(generation + 1)") == 0)
      }
    }
    try FileManager.default.copyItem(atPath: path, toPath: path + suffix)
    #expect(truncate(path, 0) == 0)
  }
}

/// One contract line.
private func record(_ seq: Int, kind: MisuseKind = .mappedBoolSetTrue) -> String {
  let event = MisuseEvent(
    timestamp: Timestamp(rfc3339: "2026-11-30T04:12:33.123456Z")!, level: kind.defaultLevel,
    kind: kind, message: "A misuse.", file: "App/ContentView.swift", line: 42, function: "body",
    valueType: "Swift.Optional<Swift.String>", valuePresent: true, value: "<private>",
    process: "Demo", pid: 4242, host: "build-01", run: "0123456789abcdef", seq: seq,
    suppressed: 0)
  return String(decoding: JSONLinesEncoder().encode(event), as: UTF8.self)
}

@Suite struct FileFollowerTests {
  @Test func startsWithTheLastEventsLikeTail() throws {
    let files = try Rotation()
    try files.append(seqs: [1, 2], to: files.path)
    try files.append("an app's own output\n\n", to: files.path)
    try files.append(seqs: [3, 4, 5], to: files.path)
    func first(_ start: FollowStart) -> [String] {
      files.poll(FileFollower(path: files.path, start: start))
    }
    #expect(first(.last(3)) == ["3", "4", "5"])
    #expect(first(.last(0)) == [])
    #expect(first(.last(10)) == ["1", "2", "3", "4", "5"])
    #expect(first(.beginning) == ["1", "2", "3", "4", "5"])
  }

  @Test func theLastEventsReachBackThroughRotatedFiles() throws {
    let files = try Rotation()
    try files.append(seqs: [1, 2], to: files.path + ".2")
    try files.append(seqs: [3, 4], to: files.path + ".1")
    try files.append(seqs: [5], to: files.path)
    let follower = FileFollower(path: files.path, start: .last(4))
    #expect(files.poll(follower) == ["2", "3", "4", "5"])
    try files.append(seqs: [6], to: files.path)
    #expect(files.poll(follower) == ["6"])
    #expect(
      files.poll(FileFollower(path: files.path, start: .beginning)) == [
        "1", "2", "3", "4", "5", "6",
      ])
  }

  @Test func onlyEventsTheFilterAcceptsCountTowardsTheLast() throws {
    let files = try Rotation()
    try files.append(seqs: [1], to: files.path, kind: .unwrappedReadAfterNil)
    try files.append(seqs: [2], to: files.path)
    try files.append(seqs: [3, 4], to: files.path, kind: .unwrappedReadAfterNil)
    var filter = EventFilter()
    filter.kinds = [MisuseKind.mappedBoolSetTrue.code]
    // The start is the last accepted event; what follows it is handed over for the caller to
    // filter, as everything appended later is.
    let follower = FileFollower(path: files.path, start: .last(1), filter: filter)
    #expect(files.poll(follower) == ["2", "3", "4"])
  }

  @Test func aRecordHalfWrittenAtTheStartIsReadWholeOnceFinished() throws {
    let files = try Rotation()
    let second = record(2)
    let cut = second.utf8.count / 2
    try files.append(
      record(1) + String(decoding: Array(second.utf8)[..<cut], as: UTF8.self), to: files.path)
    let follower = FileFollower(path: files.path, start: .last(5))
    #expect(files.poll(follower) == ["1"])
    try files.append(
      String(decoding: Array(second.utf8)[cut...], as: UTF8.self) + record(3), to: files.path)
    #expect(files.poll(follower) == ["2", "3"])
  }

  @Test func rotatedFilesAreCaughtUpOldestFirstLateAppendsIncluded() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.append(seqs: [2], to: files.path)
    try files.rotate()
    // A writer that has not noticed the rotation yet appends to the file now named PATH.1.
    try files.append(seqs: [3], to: files.path + ".1")
    try files.append(seqs: [4], to: files.path)
    try files.rotate()
    try files.append(seqs: [5], to: files.path + ".2")
    try files.append(seqs: [6], to: files.path + ".1")
    try files.append(seqs: [7], to: files.path)
    // One poll: each file in order, the oldest file first.
    #expect(files.poll(follower) == ["2", "3", "5", "4", "6", "7"])
    #expect(files.poll(follower) == [])
  }

  @Test func aHundredRotationsBetweenTwoPollsLoseNothing() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd()
    for seq in 1...100 {
      try files.append(seqs: [seq], to: files.path)
      try files.rotate()
    }
    #expect(files.poll(follower) == (1...100).map(String.init))
    try files.append(seqs: [101], to: files.path + ".100")
    try files.append(seqs: [102], to: files.path)
    // Only the newest FileFollower.maxFiles files are still read.
    #expect(FileFollower.maxFiles < 100)
    #expect(files.poll(follower) == ["102"])
  }

  /// Under load, writers rotated `PATH` twice between the directory listings of a look and
  /// its `stat` of `PATH`: the look took the file `PATH` held by then and missed the one rotated
  /// in between, which was read only after the next rotation (its records reported lost, then
  /// printed out of order). Here the two rotations come just before that `stat`.
  @Test func twoRotationsDuringALookAreReadInOrder() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd()
    try files.append(seqs: [1], to: files.path)
    try files.rotate(to: "20261130T041233.000001Z")
    try files.append(seqs: [2], to: files.path)
    // The look's `stat` calls: `PATH` (changed: the directory is listed), `PATH.1` and
    // `PATH.2` (none), the generation listed, then `PATH` again.
    let rotations = SystemCallFaults([
      .status: [
        .asUsual, .asUsual, .asUsual, .asUsual,
        .interleaved({
          do {
            try files.rotate(to: "20261130T041233.000002Z")
            try files.append(seqs: [3], to: files.path)
            try files.rotate(to: "20261130T041233.000003Z")
            try files.append(seqs: [4], to: files.path)
          } catch {
            Issue.record(error)
          }
        }),
      ]
    ])
    let first = SystemCallFaults.$current.withValue(rotations) { files.poll(follower) }
    #expect(rotations.remaining == [])
    let second = files.poll(follower)
    try files.rotate(to: "20261130T041233.000004Z")
    try files.append(seqs: [5], to: files.path)
    #expect(first + second + files.poll(follower) == ["1", "2", "3", "4", "5"])
  }

  @Test func aTruncatedFileIsReadAgainFromItsStart() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1, 2])
    #expect(truncate(files.path, 0) == 0)
    try files.append(seqs: [3], to: files.path)
    #expect(files.poll(follower) == ["truncated app.jsonl", "3"])
  }

  /// Outside review: with logrotate's `copytruncate`, the records appended after follow's last
  /// read and before the truncation were lost (follow saw the file shrink and started it
  /// again at 0). They are read from the rotated copy first.
  @Test(arguments: [".1", "-20261201", "-2026120114", "-20261201-1764547200"])
  func aCopyTruncatedFileIsReadToTheEndOfItsCopyFirst(copy: String) throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.append(seqs: [2, 3], to: files.path)
    try files.copyTruncate(to: copy)
    try files.append(seqs: [4], to: files.path)
    #expect(files.poll(follower) == ["2", "3", "4"])
    try files.append(seqs: [5], to: files.path)
    #expect(files.poll(follower) == ["5"])
  }

  /// Two `copytruncate` rotations between polls: the newest copy that holds what was read is
  /// `.2`; `.1`, made after it, is read whole; at the next rotation both are known.
  @Test func twoCopyTruncationsBetweenPollsLoseNothing() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.append(seqs: [2], to: files.path)
    try files.copyTruncate(to: ".1")
    try files.append(seqs: [3], to: files.path)
    try files.copyTruncate(to: ".1")
    try files.append(seqs: [4], to: files.path)
    #expect(files.poll(follower) == ["2", "3", "4"])
    try files.append(seqs: [5], to: files.path)
    try files.copyTruncate(to: ".1")
    try files.append(seqs: [6], to: files.path)
    #expect(files.poll(follower) == ["5", "6"])
  }

  /// Truncated, then written past follow's offset before the next poll: follow read from the
  /// old offset in the middle of the new content (here only seq 5). The file's first bytes
  /// changed, so it was replaced in place: read from its start, after its copy's rest if there
  /// is one.
  @Test(arguments: [false, true])
  func aFileTruncatedAndRegrownPastTheOffsetIsReadFromItsStart(withCopy: Bool) throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.append(seqs: [2], to: files.path)
    if withCopy {
      try files.copyTruncate(to: ".1")
    } else {
      #expect(truncate(files.path, 0) == 0)
    }
    try files.append(seqs: [3, 4, 5], to: files.path)
    #expect(
      files.poll(follower)
        == (withCopy ? ["2", "3", "4", "5"] : ["truncated app.jsonl", "3", "4", "5"]))
  }

  /// Nothing of the file read yet (it was empty at the last look), then written, copied and
  /// truncated before the next: the copies made since are read (nothing showed a truncation,
  /// and the records were lost). A copy whose truncation is still to come (logrotate copies,
  /// then truncates) is not taken for one until then: what it holds is read from the file.
  @Test func copiesMadeBeforeAnythingWasReadAreRead() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd()
    try files.append(seqs: [1], to: files.path)
    try files.copyTruncate(to: "-20261201")
    #expect(files.poll(follower) == ["1"])
    try files.append(seqs: [2], to: files.path)
    try FileManager.default.copyItem(atPath: files.path, toPath: files.path + "-20261202")
    #expect(files.poll(follower) == ["2"])
    #expect(truncate(files.path, 0) == 0)
    try files.append(seqs: [3], to: files.path)
    #expect(files.poll(follower) == ["3"])
  }

  /// A copy logrotate has begun (empty yet) was taken for one and followed as it grew: what it
  /// copied was printed twice, from it and from the file. It is looked at once it is made
  /// and the file truncated.
  @Test func aCopyStillBeingMadeIsNotReadTwice() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd()
    try files.append(seqs: [1], to: files.path)
    try files.append("", to: files.path + "-20261201")
    #expect(files.poll(follower) == ["1"])
    try files.append(record(1), to: files.path + "-20261201")
    #expect(truncate(files.path, 0) == 0)
    try files.append(seqs: [2], to: files.path)
    #expect(files.poll(follower) == ["2"])
  }

  /// Truncated and written again between two reads of one poll: the second read got the new
  /// records from the middle. What was read of a file is checked to be still there after each
  /// read; here the next poll reads 2 from the copy, then the new records.
  @Test func aFileRewrittenWhileItIsReadIsNotReadAcross() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.append(seqs: [2], to: files.path)
    // The poll's reads: the first and last bytes read (still there), then the new ones.
    let rewrite = SystemCallFaults([
      .read: [
        .asUsual, .asUsual,
        .interleaved({
          do {
            try files.copyTruncate(to: ".1")
            try files.append(seqs: [3, 4, 5], to: files.path)
          } catch {
            Issue.record(error)
          }
        }),
      ]
    ])
    let first = SystemCallFaults.$current.withValue(rewrite) { files.poll(follower) }
    #expect(rewrite.remaining == [])
    #expect(first + files.poll(follower) == ["2", "3", "4", "5"])
  }

  /// A rotated file as long as the one followed, with the same first 4 KiB, but not the same
  /// record before where follow was, is not its copy: the truncation is reported.
  @Test func aRotatedFileThatDoesNotHoldWhatWasReadIsNotTakenForTheCopy() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: Array(1...30))
    try files.append(seqs: Array(1...29) + [99], to: files.path + ".1")
    #expect(truncate(files.path, 0) == 0)
    try files.append(seqs: [31], to: files.path)
    #expect(files.poll(follower) == ["truncated app.jsonl", "31"])
  }

  /// logrotate's `dateext` generations (`PATH-20261201`, `PATH-20261201-<epoch>`) are found at
  /// the start as the numbered and timestamped ones are: after `PATH.N`, before
  /// `PATH.<UTC time>`, ordered by their digits. Compressed ones are not read.
  @Test func logrotateDateextGenerationsAreReadOldestFirst() throws {
    let files = try Rotation()
    try files.append(seqs: [1], to: files.path + ".1")
    try files.append(seqs: [3], to: files.path + "-20261201-1764547200")
    try files.append(seqs: [2], to: files.path + "-20261201")
    try files.append("{broken\n", to: files.path + "-20261202.gz")
    try files.append("{broken\n", to: files.path + "-2026x")
    try files.append(seqs: [4], to: files.path + ".20261203T000000.000000Z")
    try files.append(seqs: [5], to: files.path)
    #expect(
      files.poll(FileFollower(path: files.path, start: .beginning)) == ["1", "2", "3", "4", "5"])
    #expect(files.poll(FileFollower(path: files.path, start: .last(4))) == ["2", "3", "4", "5"])
    #expect(
      FileFollower.rotationSets([
        "a.jsonl", "a.jsonl-20261201", "a.jsonl-2026-12-01", "a.jsonl-2026.gz", "a.jsonl-2",
      ])
        == ["a.jsonl", "a.jsonl-2026.gz", "a.jsonl-2"])
  }

  /// A writer that has not yet noticed a rotation appends to the generation; a read in the
  /// middle of that `write(2)` saw half a record, which was handed over as a malformed last
  /// line (and its rest as another) because a newer file followed. Newer files wait until the
  /// line is finished, or has not grown for ``FileFollower/writerGrace``.
  @Test func aRecordHalfAppendedToARotatedFileIsReadWholeOnceFinished() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    try files.rotate()
    let second = Array(record(2).utf8)
    try files.append(
      String(decoding: second[..<(second.count / 2)], as: UTF8.self), to: files.path + ".1")
    try files.append(seqs: [3], to: files.path)
    #expect(files.poll(follower) == [])
    try files.append(
      String(decoding: second[(second.count / 2)...], as: UTF8.self), to: files.path + ".1")
    #expect(files.poll(follower) == ["2", "3"])
  }

  @Test func aReplacedFileIsReadFromItsStartAfterTheOldOnesLastRecords() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    let stale = open(files.path, O_WRONLY | O_APPEND)
    defer { close(stale) }
    try files.append(seqs: [2, 3], to: files.directory + "/new")
    #expect(rename(files.directory + "/new", files.path) == 0)
    // The old file has no name any more, but a writer still holding it appends one more.
    let late = record(4)
    #expect(write(stale, late, late.utf8.count) == late.utf8.count)
    #expect(files.poll(follower) == ["4", "2", "3"])
  }

  @Test func aDeletedAndRecreatedFileIsFollowed() throws {
    let files = try Rotation()
    let follower = try files.followFromTheEnd(after: [1])
    #expect(unlink(files.path) == 0)
    #expect(files.poll(follower) == [])
    try files.append(seqs: [2], to: files.path)
    #expect(files.poll(follower) == ["2"])
  }

  @Test func malformedLinesCarryTheirTrueLineNumbers() throws {
    let files = try Rotation()
    try files.append(seqs: [1], to: files.path)
    try files.append("output\n", to: files.path)
    let follower = try files.followFromTheEnd(after: [2])
    try files.append("{\"v\":1,\"kind\":\n", to: files.path)
    try files.append(seqs: [3], to: files.path)
    try files.append("{broken\n", to: files.path)
    #expect(
      files.poll(follower) == [
        "malformed app.jsonl:4", "3", "malformed app.jsonl:6",
      ])
  }

  @Test func rotatedSiblingsNamedWithTheirFileAreOneRotation() {
    #expect(
      FileFollower.rotationSets(["a.jsonl", "a.jsonl.1", "a.jsonl", "b.log.2", "c.1x", "a.jsonl.x"])
        == ["a.jsonl", "b.log.2", "c.1x", "a.jsonl.x"])
  }

  @Test func inotifyWakesAWaitAsSoonAsAFileChanges() throws {
    let files = try Rotation()
    let watcher = ChangeWatcher(directories: [files.directory], polling: false)
    #expect(watcher.mode == .inotify)
    let path = files.path
    let writer = Thread {
      Thread.sleep(forTimeInterval: 0.05)
      try? Rotation.appendRaw(record(1), to: path)
    }
    let start = ContinuousClock.now
    writer.start()
    _ = watcher.wait(stop: nil)
    // Woken by the append, well before the 1 s safety-net interval.
    #expect(ContinuousClock.now - start < .milliseconds(800))
    #expect(ChangeWatcher(directories: [files.directory], polling: true).mode == .polling)
  }
}

extension Rotation {
  /// Appends without a `Rotation` value (for another thread).
  static func appendRaw(_ text: String, to file: String) throws {
    let fd = open(file, O_WRONLY | O_APPEND)
    defer { close(fd) }
    _ = write(fd, text, text.utf8.count)
  }
}
