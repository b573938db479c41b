#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a debugger is attached, and a stop in it: what ``MisusePolicy/break`` does.
enum Debugger {
  /// Whether a tracer (a debugger) is attached to this process now: `TracerPid` in
  /// `/proc/self/status` on Linux, `P_TRACED` from `sysctl(3)` on Darwin. `false` when that
  /// cannot be read.
  static var isAttached: Bool {
    #if canImport(Darwin)
      var info = kinfo_proc()
      var size = MemoryLayout<kinfo_proc>.stride
      var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PID, getpid()]
      let status = name.withUnsafeMutableBufferPointer {
        sysctl($0.baseAddress, UInt32($0.count), &info, &size, nil, 0)
      }
      return status == 0 && (info.kp_proc.p_flag & P_TRACED) != 0
    #else
      guard let status = readStatus() else { return false }
      return tracer(inStatus: status) != nil
    #endif
  }

  /// The tracer's process id a `/proc/PID/status` text names, or `nil` when none is attached
  /// (`TracerPid:\t0`) or the line is missing.
  /// - Parameter status: The file's text.
  /// - Returns: The tracer's pid.
  static func tracer(inStatus status: String) -> Int? {
    for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
      let value = line.dropFirst("TracerPid:".count).trimmingPrefix(while: {
        $0 == " " || $0 == "\t"
      })
      guard let pid = Int(value), pid > 0 else { return nil }
      return pid
    }
    return nil
  }

  /// Stops in the attached debugger (`raise(SIGTRAP)`); continuing returns here.
  static func stop() {
    _ = raise(SIGTRAP)
  }

  #if !canImport(Darwin)
    /// `/proc/self/status`, read through the system-call seam; `nil` when it cannot be read.
    private static func readStatus() -> String? {
      guard
        case .success(let fd) = FileDescriptorIO.openFile("/proc/self/status", O_RDONLY | O_CLOEXEC)
      else { return nil }
      defer { FileDescriptorIO.closeFile(fd) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let got = chunk.withUnsafeMutableBytes { FileDescriptorIO.read(fd, into: $0) }
        guard case .success(let count) = got else { return nil }
        if count == 0 { break }
        bytes += chunk[0..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  #endif
}
