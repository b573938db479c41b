package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing baseline files: the POSIX calls, each retrying `EINTR` and returning
/// failures as values.
package enum BaselineFile {
  /// Why a baseline file could not be used.
  package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(SystemError)
    /// The file is not a baseline.
    case invalid(MalformedReason)
    /// The path names no regular file (a FIFO, a device, a directory), which could block or
    /// never end.
    case notARegularFile

    /// The reason, for `Error: cannot use baseline 'FILE': …`.
    package var description: String {
      switch self {
      case .unreadable(let error): error.message
      case .invalid(let reason): reason.text
      case .notARegularFile: "not a regular file (a baseline is a file --write-baseline wrote)"
      }
    }
  }

  /// The largest baseline read: far above any real one (a site is about 100 bytes), so a
  /// device or a hostile file cannot exhaust memory.
  package static let maxBytes = 64 << 20

  /// Reads the baseline at `path` (`open(2)` without blocking, `fstat(2)`, `read(2)`), at most
  /// ``maxBytes``; anything but a regular file is refused before it is read.
  /// - Parameter path: The file.
  package static func read(path: String) -> Result<Baseline, Failure> {
    let fd = retrying { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    guard fd >= 0 else { return .failure(.unreadable(SystemError("open", code: errno))) }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      return .failure(.unreadable(SystemError("fstat", code: errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        retrying { systemRead(fd, buffer.baseAddress!, buffer.count) }
      }
      if count < 0 { return .failure(.unreadable(SystemError("read", code: errno))) }
      if count == 0 { break }
      bytes += chunk[..<count]
      if bytes.count > maxBytes { return .failure(.unreadable(SystemError("read", code: EFBIG))) }
    }
    return Baseline.parse(bytes).mapError { .invalid($0) }
  }

  /// Writes `baseline` to `path` whole or not at all: a new sibling temporary file (a random
  /// name, `O_EXCL | O_NOFOLLOW`, mode `0640`, so nothing planted there is written through),
  /// then `rename(2)` over `path` (a symlink at `path` is replaced, never followed).
  /// - Parameters:
  ///   - baseline: The baseline.
  ///   - path: The file.
  package static func write(_ baseline: Baseline, to path: String) -> Result<Void, SystemError> {
    let temporary = path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    let fd = retrying {
      open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
    }
    guard fd >= 0 else { return .failure(SystemError("open", code: errno)) }
    let bytes = Array(baseline.text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        retrying { systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset) }
      }
      if written < 0 {
        let error = SystemError("write", code: errno)
        close(fd)
        unlink(temporary)
        return .failure(error)
      }
      offset += written
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let error = SystemError("rename", code: errno)
      unlink(temporary)
      return .failure(error)
    }
    return .success(())
  }

  /// Calls `body` again while it fails with `EINTR`.
  private static func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
      let result = body()
      if result >= 0 || errno != EINTR { return result }
    }
  }
}

/// `read(2)` and `write(2)`, named apart from ``BaselineFile/read(path:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
