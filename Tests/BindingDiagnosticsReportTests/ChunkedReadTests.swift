import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@testable import BindingDiagnosticsReport

#if canImport(Glibc)
  import Glibc
#endif

/// A regular file is read in chunks on worker threads, contract lines as interned records; a
/// pipe is read line by line, plain contract lines as records too, the others into events. Both
/// must give the same summary and the same malformed-line reports as the classifier's read of
/// every line, for any input and any number of threads.
@Suite struct ChunkedReadTests {
  /// About 4 MiB (eight chunks of 512 KiB) of hostile lines: mutated contract lines (escapes,
  /// reordered keys, broken values), every text variety `randomEvent` makes, logfmt, other output,
  /// blank and CRLF lines, duplicated records, lines over the limit (one longer than a read
  /// piece, so it crosses reads and a chunk's end), and a byte order mark.
  static let input: [UInt8] = {
    var random = SeededGenerator(seed: 14)
    var bytes: [UInt8] = [0xef, 0xbb, 0xbf]
    var earlier: [[UInt8]] = []
    var runs = (0..<6).map { _ in format16(random.next()) }
    var seqs = [String: Int]()
    while bytes.count < 4 << 20 {
      let run = runs.randomElement(using: &random)!
      seqs[run, default: 0] += Int.random(in: 0..<20, using: &random) == 0 ? 2 : 1
      var event = randomEvent(&random, seq: seqs[run]!, run: run)
      if Int.random(in: 0..<3, using: &random) == 0 {
        event.writer = "App/W\(Int.random(in: 0..<9, using: &random)).swift:7"
      }
      var text = Array(line(event).utf8)
      switch Int.random(in: 0..<40, using: &random) {
      case 0..<8: mutate(&text, &random)
      case 8: text = Array(LogfmtEncoder().encode(event).dropLast())
      case 9: text = Array("an app's own output".utf8)
      case 10: text = Array("  \t".utf8)
      case 11: text += [0x0d]
      case 12: text = earlier.randomElement(using: &random) ?? text
      case 13:
        text = Array(
          repeating: UInt8(ascii: "x"), count: Int.random(in: 2000..<9000, using: &random))
      case 14: if runs.count < 40 { runs.append(format16(random.next())) }
      default: break
      }
      if earlier.count < 64 { earlier.append(text) }
      bytes += text
      bytes.append(0x0a)
    }
    // One line longer than a read piece (256 KiB), then the rest of a record after it.
    bytes += Array(repeating: UInt8(ascii: "{"), count: 300_000) + [0x0a]
    bytes += Array(line(randomEvent(&random, seq: 1)).utf8)  // no final newline
    return bytes
  }()

  static func read(_ aggregator: Aggregator, _ body: (InputReader, inout Aggregator) -> Void)
    -> (summary: String, malformed: [String])
  {
    var malformed: [String] = []
    var aggregator = aggregator
    let reader = InputReader(maxLineBytes: 1500) { malformed.append("\($0.line): \($0.reason)") }
    body(reader, &aggregator)
    return (JSONRenderer().render(aggregator.summary()), malformed)
  }

  /// The pipe's read: line by line, plain contract lines as records (the summary path's
  /// parser, `outputBytes` of them at a time), the others as events; with `classified`, every
  /// line as the classifier's event (the reference).
  static func readThroughPipe(
    _ aggregator: Aggregator, input: [UInt8] = input, outputBytes: Int = defaultBudget,
    classified: Bool = false
  ) -> (summary: String, malformed: [String]) {
    var pair: [Int32] = [0, 0]
    _ = pipe(&pair)
    let ends = pair
    let writer = Thread {
      input.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let wrote = write(ends[1], bytes.baseAddress! + offset, bytes.count - offset)
          if wrote <= 0 { break }
          offset += wrote
        }
      }
      close(ends[1])
    }
    writer.start()
    defer { close(ends[0]) }
    return read(aggregator) { reader, aggregator in
      guard classified else {
        var reader = reader
        reader.chunkOutputBytes = outputBytes
        _ = reader.read(fd: ends[0], name: "x", into: &aggregator)
        return
      }
      _ = reader.classifyLines(
        fd: ends[0], name: "x",
        forged: { _ in
          aggregator.countForged()
          return true
        }
      ) { kind, _ in
        aggregator.add(kind)
        return true
      }
    }
  }

  static let defaultBudget = InputReader().chunkOutputBytes

  static func aggregators() -> [(String, Aggregator)] {
    var filter = EventFilter()
    filter.kinds = [MisuseKind.mappedBoolSetTrue.code, MisuseKind.unwrappedReadAfterNil.code]
    filter.fileSubstring = "App/"
    filter.since = Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + 3_600_000_000)
    filter.minimumLevel = .info
    var hostFilter = EventFilter()
    hostFilter.host = "h2"
    hostFilter.process = "Demo"
    return [
      ("site", Aggregator()),
      ("host, function, type", Aggregator(groupBy: [.host, .function, .valueType])),
      ("filtered", Aggregator(groupBy: [.process, .line], filter: filter)),
      ("host and process", Aggregator(filter: hostFilter)),
      // Tests are moved to the aggregator's table only to group by them (labels, only when a
      // group keeps them): the parser's roles of a chunk's strings decide which.
      ("test, writer", Aggregator(groupBy: [.test, .writer])),
    ]
  }

  /// The pipe's read of `input` by each of `aggregators()`, made once for every argument of
  /// the comparison below: it depends on the aggregator only.
  static let pipedReads: [String: (summary: String, malformed: [String])] = Dictionary(
    uniqueKeysWithValues: aggregators().map { ($0.0, readThroughPipe($0.1)) })

  /// The pipe's read (plain contract lines through the summary path's parser) equals the
  /// classifier's, line by line, with the default budget and one so small that records are
  /// aggregated every few dozen lines.
  @Test(arguments: [ChunkedReadTests.defaultBudget, 5_000])
  func thePipesReadEqualsTheClassifiersRead(outputBytes: Int) {
    for (name, aggregator) in Self.aggregators() {
      let classified = Self.readThroughPipe(aggregator, classified: true)
      let piped =
        outputBytes == Self.defaultBudget
        ? Self.pipedReads[name] ?? Self.readThroughPipe(aggregator)
        : Self.readThroughPipe(aggregator, outputBytes: outputBytes)
      #expect(piped.summary == classified.summary, "\(name)")
      #expect(piped.malformed.count == classified.malformed.count, "\(name)")
      #expect(zip(piped.malformed, classified.malformed).first { $0 != $1 } == nil, "\(name)")
      #expect(!classified.summary.contains(#""events":0,"#), "\(name)")
    }
  }

  /// A record, then a duplicate of it (same run and `seq`) in another file that only the
  /// exact parser reads: the pipe counts the first, as the classifier's read does, so the
  /// records it holds are aggregated before any later event.
  @Test func thePipeCountsRecordsInTheInputsOrder() {
    var random = SeededGenerator(seed: 16)
    var plain = randomEvent(&random, seq: 7)
    plain.message = "plain"
    plain.file = "App/A.swift"
    plain.function = "body"
    plain.valueType = "Swift.Int"
    plain.value = nil
    plain.label = nil
    plain.test = nil
    plain.writer = nil
    plain.process = "App"
    plain.host = "h1"
    var escaped = plain
    escaped.file = "App/\"B\".swift"
    let input = Array([plain, escaped].map { line($0) + "\n" }.joined().utf8)
    let classified = Self.readThroughPipe(Aggregator(), input: input, classified: true)
    let piped = Self.readThroughPipe(Aggregator(), input: input)
    #expect(piped.summary == classified.summary)
    #expect(classified.summary.contains("App/A.swift"))
    #expect(classified.summary.contains(#""duplicates":1"#))
  }

  /// Output budgets: the default, and one so small that every chunk stops early many times and
  /// the aggregating thread reads the rest.
  @Test(arguments: [1, 2, 5], [ChunkedReadTests.defaultBudget, 20_000])
  func chunkedReadEqualsThePipesLineByLineRead(threads: Int, outputBytes: Int) throws {
    let path = try temporaryDirectory() + "/mixed.jsonl"
    try Data(Self.input).write(to: URL(fileURLWithPath: path))
    for (name, aggregator) in Self.aggregators() {
      let piped = try #require(Self.pipedReads[name])
      let chunked = Self.read(aggregator) { reader, aggregator in
        var reader = reader
        reader.threads = threads
        reader.chunkBytes = 1 << 19
        reader.chunkOutputBytes = outputBytes
        _ = reader.read(path: path, into: &aggregator)
      }
      #expect(chunked.summary == piped.summary, "\(name)")
      // The first report that differs, not two lists of thousands.
      #expect(chunked.malformed.count == piped.malformed.count, "\(name)")
      #expect(zip(chunked.malformed, piped.malformed).first { $0 != $1 } == nil, "\(name)")
      // The input must exercise what it claims, or the comparison proves little.
      #expect(piped.malformed.count > 1000, "\(name)")
      #expect(piped.malformed.contains { $0.hasSuffix("line longer than 1500 bytes") }, "\(name)")
      #expect(!piped.summary.contains(#""events":0,"#), "\(name)")
      #expect(!piped.summary.contains(#""duplicates":0,"#), "\(name)")
    }
  }

  /// A chunk boundary at every byte offset of a record: a first line whose length moves the
  /// boundaries of 256-byte chunks one byte at a time through the records after it (plain
  /// ASCII ones the structural scan takes, one with non-ASCII text it leaves to the byte-by-byte
  /// scan, one it leaves to the exact parser, the last without its newline); every read, on one
  /// thread and on two, equals the pipe's line-by-line read.
  @Test func aChunkBoundaryAtEveryOffsetOfARecordReadsAsThePipe() throws {
    var random = SeededGenerator(seed: 15)
    var plain = randomEvent(&random, seq: 1)
    plain.message = "plain"
    plain.file = "App/A.swift"
    plain.function = "body"
    plain.value = "<private>"
    plain.label = "save"
    plain.test = nil
    var unicode = plain
    unicode.seq = 2
    unicode.message = "ünïcode 😀"
    var escaped = plain
    escaped.seq = 3
    escaped.file = "App/\"B\".swift"
    var wide = plain
    wide.seq = 5
    wide.line = 12_345_678
    wide.suppressed = 3
    let records = [plain, unicode, escaped, wide].map { line($0) }
    let first = records[0].utf8.count + 1
    #expect(first < 512)
    let body = Array(records.joined(separator: "\n").utf8)
    let path = try temporaryDirectory() + "/boundaries.jsonl"
    for shift in 0..<256 {
      let bytes = Array(repeating: UInt8(ascii: "x"), count: shift) + [0x0a] + body
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let piped = Self.readThroughPipe(Aggregator(), input: bytes)
      #expect(piped.summary.contains(#""events":"#) && !piped.summary.contains(#""events":0,"#))
      for threads in [1, 2] {
        let chunked = Self.read(Aggregator()) { reader, aggregator in
          var reader = reader
          reader.threads = threads
          reader.chunkBytes = 256
          _ = reader.read(path: path, into: &aggregator)
        }
        #expect(chunked.summary == piped.summary, "shift \(shift), \(threads) threads")
        #expect(chunked.malformed == piped.malformed, "shift \(shift), \(threads) threads")
      }
    }
  }
}
