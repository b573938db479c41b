import Foundation

/// A compressed input file (a rotated log that logrotate compressed): read as it is, its bytes
/// are only `other` lines, and `check` would pass on them.
enum CompressedInput {
  /// A compression: its name, the bytes its files start with, and the command that prints
  /// such a file decompressed.
  struct Format {
    let name: String
    let magic: [UInt8]
    let command: String
  }

  static let formats = [
    Format(name: "gzip", magic: [0x1F, 0x8B], command: "zcat"),
    Format(name: "zstd", magic: [0x28, 0xB5, 0x2F, 0xFD], command: "zstdcat"),
    Format(name: "xz", magic: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], command: "xzcat"),
  ]

  /// The compression of the regular file at `path`, `nil` when it has none or is not a regular
  /// file (a pipe's bytes must not be taken to look at them).
  static func format(of path: String) -> Format? {
    guard path != "-" else { return nil }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard
      (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        == .typeRegular,
      let handle = FileHandle(forReadingAtPath: resolved)
    else { return nil }
    defer { try? handle.close() }
    let head = [UInt8]((try? handle.read(upToCount: 6)) ?? Data())
    return formats.first { head.starts(with: $0.magic) }
  }
}
