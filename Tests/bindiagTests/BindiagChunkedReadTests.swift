import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A regular file is read in chunks on worker threads, a pipe line by line: the same bytes must
/// give the same output both ways, and the chunked read must cost what the pipe's does.
@Suite struct BindiagChunkedReadTests {
  /// Runs `summary --format json` on `text` as a file (with each of `threads`) and through
  /// standard input, and expects the same stdout, stderr and status.
  static func expectSameBothWays(_ text: [UInt8], _ arguments: [String] = [], threads: [Int])
    throws -> ProcessOutput
  {
    let path = try temporaryDirectory() + "/input.jsonl"
    try Data(text).write(to: URL(fileURLWithPath: path))
    let piped = try bindiag(
      arguments: ["summary", "--format", "json"] + arguments, stdin: Data(text))
    for count in threads {
      let chunked = try bindiag(
        arguments: ["summary", "--format", "json", "--threads", "\(count)"] + arguments + [path])
      #expect(chunked.stdout == piped.stdout, "--threads \(count)")
      #expect(
        chunked.stderr == piped.stderr.replacingOccurrences(of: "<stdin>", with: path),
        "--threads \(count)")
      #expect(chunked.status == piped.status, "--threads \(count)")
    }
    return piped
  }

  /// A `log show --style json` array is recognised on the first line that is neither blank
  /// nor over the limit, in a file as in a pipe.
  @Test(arguments: [
    "\n", "  \t\r\n", "\u{feff}\n", "\n\n\r\n", String(repeating: "x", count: 100) + "\n",
  ])
  func anArrayAfterBlankOrTooLongLinesIsAnArray(prefix: String) throws {
    let record = jsonLines([fixtureEvent(seq: 1)]).dropLast()
    let text = Array((prefix + "[\n" + record + "\n]\n").utf8)
    let piped = try Self.expectSameBothWays(text, ["--max-line-bytes", "64"], threads: [1, 2])
    // The pipe reads the array: its one element is too long, the `[` and `]` are not lines.
    #expect(piped.stdout.contains(#""other":0,"#))
  }

  /// A chunk whose range lies inside one long line has no line of its own: it must not read
  /// the rest of that line to find the next, nor the chunk where a line too long starts read
  /// past its end to skip it. Nor may a buffer grown for a long line (one within a large
  /// `--max-line-bytes`) make the chunks after it read far past their ends; a line that long is
  /// read by its chunk, and looked through by the others. Measured as the bytes `bindiag` read
  /// (`rchar` of the shell that waited for it), which must stay near the file's size.
  @Test(arguments: [
    (["--threads", "1"], 1.5), (["--threads", "2"], 1.5),
    (["--threads", "1", "--max-line-bytes", "1073741824"], 2.25),
  ])
  func aLongLineIsReadOnce(options: [String], times: Double) throws {
    let size = 64 << 20
    let path = try temporaryDirectory() + "/long-line"
    // A short first line, so the file is read in chunks.
    var text = Data(repeating: UInt8(ascii: "x"), count: size)
    text[1] = 0x0a
    text[size - 1] = 0x0a
    try text.write(to: URL(fileURLWithPath: path))
    let script = #"b="$1"; shift; "$b" summary "$@" >/dev/null 2>&1; grep rchar /proc/$$/io"#
    let bindiagPath = productsDirectory().appendingPathComponent("bindiag").path
    let result = try runProduct(
      "/bin/sh", ["-c", script, "sh", bindiagPath] + options + [path],
      environment: bindiagEnvironment)
    let read = try #require(Int(result.stdout.dropFirst("rchar: ".count).dropLast()))
    #expect(read >= size)
    #expect(Double(read) < Double(size) * times, "read \(read) bytes of a \(size)-byte file")
  }
}

@Suite struct BindiagChunkedReadMemoryTests {
  /// Message ids are checked, never shown: 400 000 distinct ones (about 160 MiB of records)
  /// must not stay in memory once their chunk is aggregated.
  @Test func distinctMessageIDsAreNotKept() throws {
    let path = try temporaryDirectory() + "/message-ids.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let record = jsonLines([fixtureEvent(seq: 1)])
    let messageID = MisuseKind.mappedBoolSetTrue.messageID
    var text = ""
    for seq in 1...400_000 {
      let id = String(seq, radix: 16)
      text += record.replacingOccurrences(
        of: messageID, with: String(messageID.dropLast(id.count)) + id
      ).replacingOccurrences(of: #""seq":1,"#, with: #""seq":\#(seq),"#)
      if seq % 10_000 == 0 {
        try handle.write(contentsOf: Data(text.utf8))
        text = ""
      }
    }
    try handle.close()
    let result = try runProduct(
      "/usr/bin/time",
      [
        "-f", "maxrss_kib=%M", productsDirectory().appendingPathComponent("bindiag").path,
        "summary", "--format", "json", "--threads", "1", path,
      ])
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":400000,"records":400000,"#))
    let rss = try #require(
      result.stderr.split(separator: "\n").last.flatMap { Int($0.dropFirst("maxrss_kib=".count)) })
    #expect(rss < 40 * 1024, "peak memory \(rss) KiB")
  }
}

@Suite struct BindiagByteComparisonTests {
  /// Text is compared byte for byte: a host spelt with a precomposed "é" and one with "e" and a
  /// combining accent are two hosts, for `summary` (ids of bytes) and `follow` (the filter)
  /// alike.
  @Test func summaryAndFollowFilterTheSameSpellingOfAHost() throws {
    let precomposed = "caf\u{e9}"
    let combining = "cafe\u{301}"
    let events = [
      fixtureEvent(seq: 1, host: precomposed), fixtureEvent(seq: 2, host: combining),
      fixtureEvent(seq: 3, host: precomposed),
    ]
    let path = try writeFixture(jsonLines(events))
    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--host", precomposed, path,
    ])
    #expect(summary.status == 0)
    #expect(summary.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"#))
    let follow = try bindiag(
      arguments: [
        "follow", "--format", "json", "-n", "all", "--count", "2", "--host", precomposed, path,
      ])
    #expect(follow.status == 0)
    // Compared as bytes: `String.contains` would take either spelling for the other.
    let hosts = follow.stdout.utf8.split(separator: UInt8(ascii: "\n")).map { line in
      Array(line).firstRange(of: Array(#""host":"\#(precomposed)""#.utf8)) != nil
        && Array(line).firstRange(of: Array(combining.utf8)) == nil
    }
    #expect(hosts == [true, true])
    let all = try bindiag(arguments: ["summary", "--format", "json", "--group-by", "host", path])
    #expect(all.stdout.contains(#""key":{"host":"\#(precomposed)"},"events":2"#))
    #expect(all.stdout.contains(#""key":{"host":"\#(combining)"},"events":1"#))
  }
}
