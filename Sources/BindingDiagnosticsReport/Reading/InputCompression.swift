package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A compression an input may come in (a rotated log that logrotate compressed, piped in as it
/// is): read as text, its bytes are only `other` lines, and `check` would pass on them. The
/// readers refuse such an input from its first bytes, whether named, standard input or a pipe.
package struct InputCompression: Sendable, Equatable {
  /// `gzip`, `zstd`, ….
  package let name: String
  /// The command that prints such a file decompressed (`zcat`).
  package let command: String
  /// The bytes its data starts with.
  let magic: [UInt8]
  /// Bytes that follow at an offset past the magic (bzip2's block magic after its level
  /// digit), or none.
  let then: (offset: Int, bytes: [UInt8])?

  package static func == (lhs: InputCompression, rhs: InputCompression) -> Bool {
    lhs.name == rhs.name
  }

  /// Every compression told apart by its first bytes (none holds a newline, so a first line
  /// holds the whole of its magic).
  package static let all = [
    InputCompression(name: "gzip", command: "zcat", magic: [0x1F, 0x8B], then: nil),
    InputCompression(name: "zstd", command: "zstdcat", magic: [0x28, 0xB5, 0x2F, 0xFD], then: nil),
    InputCompression(
      name: "xz", command: "xzcat", magic: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], then: nil),
    InputCompression(
      name: "bzip2", command: "bzcat", magic: Array("BZh".utf8),
      then: (4, Array("1AY&SY".utf8))),
    InputCompression(name: "lz4", command: "lz4cat", magic: [0x04, 0x22, 0x4D, 0x18], then: nil),
  ]

  /// Bytes of an input's start that tell every compression of ``all``.
  package static let headBytes = 10

  /// The compression whose data starts as `head` does, or `nil`.
  package static func of(head: UnsafeRawBufferPointer) -> InputCompression? {
    all.first { compression in
      guard head.starts(with: compression.magic) else { return false }
      guard let then = compression.then else { return true }
      return head.count >= then.offset + then.bytes.count
        && head[then.offset..<(then.offset + then.bytes.count)].elementsEqual(then.bytes)
    }
  }

  /// The failure a reader returns for such an input (``InputCompression/of(refusal:)`` tells
  /// it from others).
  package var refusal: SystemError {
    SystemError("read", code: EILSEQ, detail: "compressed with \(name)")
  }

  /// The compression a reader refused an input for, when `error` is such a refusal.
  package static func of(refusal error: SystemError) -> InputCompression? {
    all.first { $0.refusal == error }
  }
}
