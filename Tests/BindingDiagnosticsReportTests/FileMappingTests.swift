import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@testable import BindingDiagnosticsReport

#if canImport(Glibc)
  import Glibc
#endif

/// A regular file's chunks are read through windows of it mapped (`mmap(2)`) on Linux: the lines
/// they give must be the file's, across windows, past the last one (by `pread(2)`), and when the
/// file shrinks under a window (`SIGBUS`, repaired by ``BusFaultGuard``, the chunk read again).
#if canImport(Glibc)
  @Suite struct FileMappingTests {
    /// Lines of every length from 0 to a few KiB, a few longer than a read piece and one longer
    /// than a window, each ending in `\n` but the last: about 11 MiB, three windows and more.
    static let input: [UInt8] = {
      var random = SeededGenerator(seed: 31)
      var bytes: [UInt8] = []
      var number = 0
      while bytes.count < 11 << 20 {
        number += 1
        let length: Int
        if number == 100 {
          length = FileMapping.windowBytes + 12_345
        } else {
          switch Int.random(in: 0..<1000, using: &random) {
          case 0..<20: length = 0
          case 20..<23: length = Int.random(in: 300_000..<600_000, using: &random)
          default: length = Int.random(in: 1..<3_000, using: &random)
          }
        }
        let text = Array("\(number):".utf8)
        bytes += text.prefix(length)
        if length > text.count {
          bytes += (text.count..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        }
        bytes.append(0x0a)
      }
      bytes += Array("the last line, without its newline".utf8)
      return bytes
    }()

    static func file(_ bytes: [UInt8], name: String) throws -> String {
      let path = try temporaryDirectory() + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }

    /// A piece reader from `start` through windows below `limit` gives each line of the file,
    /// byte for byte, with the line longer than a window read on by `pread(2)`.
    @Test(arguments: [0, 1, 4095, 4096, 3 << 20])
    func theLinesReadThroughWindowsAreTheFiles(start: Int) throws {
      let input = Self.input
      #expect(input.count > 2 * FileMapping.windowBytes)
      let path = try Self.file(input, name: "lines.txt")
      let fd = open(path, O_RDONLY)
      try #require(fd >= 0)
      defer { close(fd) }
      var reader = ChunkedFileReader.PieceReader(
        fd: fd, buffer: .allocate(byteCount: ChunkedFileReader.pieceBytes, alignment: 64),
        maxLineBytes: 8 << 20)
      defer { reader.buffer.deallocate() }
      reader.start(at: start, mappingBelow: input.count)
      defer { reader.close() }
      var expected = input[start...].split(separator: 0x0a, omittingEmptySubsequences: false)
        .map { Array($0) }
      if input.last == 0x0a { expected.removeLast() }
      var read: [[UInt8]] = []
      while true {
        let line = reader.nextLine(before: .max)
        guard case .line(let bytes) = line else {
          #expect("\(line)" == "end")
          break
        }
        read.append(Array(bytes))
      }
      #expect(reader.mapped)
      #expect(read.count == expected.count)
      let first = zip(read, expected).enumerated().first { $0.element.0 != $0.element.1 }
      #expect(first == nil, "line \(first?.offset ?? -1) differs")
      if start <= 4096 { #expect(read.contains { $0.count > FileMapping.windowBytes }) }
    }

    /// The summary and the malformed-line reports of a chunked read through windows (one
    /// thread and two) equal those of the same read by `pread(2)` alone (a task injecting
    /// faults, none here, reads so), on input of every kind 12 MiB long: two chunks, windows
    /// within them.
    @Test func aChunkedReadThroughWindowsEqualsOneByPread() throws {
      let input = ChunkedReadTests.input + ChunkedReadTests.input + ChunkedReadTests.input
      let path = try Self.file(input, name: "mixed.jsonl")
      func read(threads: Int) -> (summary: String, malformed: [String]) {
        ChunkedReadTests.read(Aggregator()) { reader, aggregator in
          var reader = reader
          reader.threads = threads
          _ = reader.read(path: path, into: &aggregator)
        }
      }
      #expect(FileMapping.available)
      let byPread = SystemCallFaults.$current.withValue(SystemCallFaults([:])) {
        #expect(!FileMapping.available)
        return read(threads: 1)
      }
      #expect(byPread.malformed.count > 3000)
      for threads in [1, 2] {
        let mapped = read(threads: threads)
        #expect(mapped.summary == byPread.summary, "\(threads) threads")
        #expect(mapped.malformed.count == byPread.malformed.count, "\(threads) threads")
        #expect(zip(mapped.malformed, byPread.malformed).first { $0 != $1 } == nil)
      }
    }

    /// Contract records, 12 MiB and more, then a line of `x`s so that the file's last page
    /// holds 3 000 bytes.
    static let records: [UInt8] = {
      var random = SeededGenerator(seed: 32)
      var input: [UInt8] = []
      var seq = 0
      while input.count < 12 << 20 {
        seq += 1
        input += Array(line(randomEvent(&random, seq: seq, run: "00000000000000cd")).utf8) + [0x0a]
      }
      let pad = (3_000 - (input.count + 1) % 4096 + 4096) % 4096
      return input + Array(repeating: UInt8(ascii: "x"), count: max(pad, 1)) + [0x0a]
    }()

    /// A file cut short after its first chunk was read, while the second is read through
    /// windows mapped to its old end, reads as its remaining bytes:
    /// - cut mid-line 3 MiB before its end: the pages past the new end fault, and the chunk is
    ///   read again by `pread(2)`;
    /// - cut within its last page: nothing faults (the page holding the new end reads as zeroes
    ///   past it), and the chunk is read again because the file is now shorter than the windows
    ///   served.
    /// No zero byte the windows held is read as a line.
    @Test(arguments: [(9 << 20) + 100, -1_500])
    func aFileCutShortUnderAWindowReadsAsItsRemainingBytes(cut: Int) throws {
      let input = Self.records
      #expect(input.count % 4096 == 3_000)
      let cut = cut < 0 ? input.count + cut : cut
      let path = try Self.file(input, name: "shrinking.jsonl")
      let reference = try Self.file(Array(input.prefix(cut)), name: "reference.jsonl")
      let faults = FileMapping.faults
      let shrunk = ChunkedReadTests.read(Aggregator()) { reader, aggregator in
        var reader = reader
        reader.threads = 1
        var cutAlready = false
        reader.onProgress = { progress in
          guard !cutAlready, (progress.bytes ?? 0) >= ChunkedFileReader.defaultChunkBytes else {
            return
          }
          cutAlready = true
          #expect(truncate(path, off_t(cut)) == 0)
        }
        _ = reader.read(path: path, into: &aggregator)
      }
      if cut < input.count - 4096 { #expect(FileMapping.faults > faults) }
      let clean = ChunkedReadTests.read(Aggregator()) { reader, aggregator in
        _ = reader.read(path: reference, into: &aggregator)
      }
      #expect(shrunk.summary == clean.summary)
      #expect(shrunk.malformed == clean.malformed)
      #expect(!clean.summary.contains(#""events":0,"#))
    }
  }
#endif
