import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#endif

/// Windows of a regular file mapped read-only (`mmap(2)`), the calls wrapped once: the chunked
/// reader reads most of a large file through them rather than copying it with `pread(2)`, which
/// on a file in the page cache costs as much CPU as the scan of its bytes (a 2.4 GB file: about
/// 0.3 s of system time through `pread`, under 0.1 s mapped in windows of a few MiB; see
/// Performance.md).
///
/// A window of a file that shrinks under it faults (`SIGBUS`) on the pages past the new end:
/// ``BusFaultGuard`` maps zeroes there and counts the fault, and the reader, seeing the count
/// change, reads that chunk again with `pread(2)`. Only on Linux (the guard's platform), and never
/// in a task that injects system-call faults (``SystemCallFaults``), whose faults are aimed at
/// `pread(2)`.
enum FileMapping {
  /// Bytes per window: a few MiB each, since a window's pages count in the process's resident
  /// memory while it is mapped (smaller windows cost more calls: 1 MiB ones as much as `pread`).
  static let windowBytes = 4 << 20

  /// Whether windows are used here: on Linux, outside fault injection. Installs the guard.
  static var available: Bool {
    #if canImport(Glibc)
      if FileDescriptorIO.injectingFaults { return false }
      BusFaultGuard.install
      return true
    #else
      return false
    #endif
  }

  /// Faults repaired so far (``BusFaultGuard/faults``).
  static var faults: Int { BusFaultGuard.faults }

  /// The size of the file `fd` refers to now; `Int.max` when `fstat(2)` fails (nothing to
  /// tell: the read stands).
  static func size(of fd: Int32) -> Int {
    switch FileDescriptorIO.status(fd) {
    case .success(let info): Int(info.st_size)
    case .failure: Int.max
    }
  }

  /// The bytes of a page.
  static let pageBytes: Int = {
    #if canImport(Glibc)
      return Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return 4096
    #endif
  }()

  /// Maps `count` bytes of `fd` from `offset` (a multiple of ``pageBytes``) read-only.
  static func map(_ fd: Int32, at offset: Int, count: Int) -> Result<
    UnsafeRawBufferPointer, SystemError
  > {
    #if canImport(Glibc)
      guard let start = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, off_t(offset)),
        start != MAP_FAILED
      else { return .failure(SystemError("mmap", code: errno)) }
      return .success(UnsafeRawBufferPointer(start: start, count: count))
    #else
      return .failure(SystemError("mmap", code: ENOTSUP))
    #endif
  }

  /// Unmaps a window ``map(_:at:count:)`` gave.
  static func unmap(_ window: UnsafeRawBufferPointer) {
    #if canImport(Glibc)
      _ = munmap(UnsafeMutableRawPointer(mutating: window.baseAddress), window.count)
    #endif
  }
}
