package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing baseline files, through the system-call seam (`FileDescriptorIO`), with
/// failures returned as values.
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

  /// Whether the input `input` (a path, or `-` for the descriptor `standardInput`) and `path`
  /// are the same file (its device and inode), following symlinks.
  package static func sameFile(_ input: String, standardInput: Int32 = 0, _ path: String) -> Bool {
    let one =
      input == "-" ? FileDescriptorIO.status(standardInput) : FileDescriptorIO.pathStatus(input)
    guard case .success(let one) = one, case .success(let two) = FileDescriptorIO.pathStatus(path)
    else { return false }
    return one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }

  /// Reads the baseline at `path` (`open(2)` without blocking, `fstat(2)`, `read(2)`), at most
  /// ``maxBytes``; anything but a regular file is refused before it is read.
  /// - Parameter path: The file.
  package static func read(path: String) -> Result<Baseline, Failure> {
    let fd: Int32
    switch FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
    case .success(let opened): fd = opened
    case .failure(let error): return .failure(.unreadable(error))
    }
    defer { FileDescriptorIO.closeFile(fd) }
    switch FileDescriptorIO.status(fd) {
    case .success(let status) where status.st_mode & S_IFMT == S_IFREG: break
    case .success: return .failure(.notARegularFile)
    case .failure(let error): return .failure(.unreadable(error))
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count: Int
      switch chunk.withUnsafeMutableBytes({ FileDescriptorIO.read(fd, into: $0) }) {
      case .success(let got): count = got
      case .failure(let error): return .failure(.unreadable(error))
      }
      if count == 0 { break }
      bytes += chunk[..<count]
      if bytes.count > maxBytes { return .failure(.unreadable(SystemError("read", code: EFBIG))) }
    }
    // A byte order mark an editor put first is skipped, as the readers skip one.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    return Baseline.parse(bytes).mapError { .invalid($0) }
  }

  /// Writes `baseline` to `path` whole or not at all: a new sibling temporary file (a random
  /// name, `O_EXCL | O_NOFOLLOW`, mode `0640`, so nothing planted there is written through),
  /// then `rename(2)` over `path` (a symlink at `path` is replaced, never followed; anything
  /// else there but a file, a device or a FIFO, is refused).
  /// - Parameters:
  ///   - baseline: The baseline.
  ///   - path: The file.
  package static func write(_ baseline: Baseline, to path: String) -> Result<Void, SystemError> {
    // Only a file is replaced: renamed over, a device (`/dev/null` for a root CI runner), a FIFO
    // or a socket would become a file, and a write that cannot go anywhere would pass.
    // A symlink is replaced, never followed, but not one to a device or a FIFO either (root's
    // `/dev/stdout` is a symlink to a pipe or a terminal).
    if case .success(let status) = FileDescriptorIO.pathStatus(path),
      status.st_mode & S_IFMT != S_IFREG
    {
      return .failure(SystemError("rename", code: EINVAL, detail: "not a regular file"))
    }
    let temporary = path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    let fd: Int32
    switch FileDescriptorIO.openFile(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
    {
    case .success(let opened): fd = opened
    case .failure(let error): return .failure(error)
    }
    let written = FileDescriptorIO.writeAll(fd, Array(baseline.text.utf8))
    FileDescriptorIO.closeFile(fd)
    if case .failure(let error) = written {
      _ = FileDescriptorIO.unlinkFile(temporary)
      return .failure(error)
    }
    if case .failure(let error) = FileDescriptorIO.renameFile(temporary, path) {
      _ = FileDescriptorIO.unlinkFile(temporary)
      return .failure(error)
    }
    return .success(())
  }
}
