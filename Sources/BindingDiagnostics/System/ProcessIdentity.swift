#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who is reporting: process name, pid, host, and the random run id of this pipeline.
struct ProcessIdentity: Sendable {
  let process: String
  let pid: Int
  let host: String
  let run: String

  /// The identity of the current process, with a fresh random run id.
  static func current() -> ProcessIdentity {
    ProcessIdentity(process: processName(), pid: Int(getpid()), host: hostName(), run: newRun())
  }

  /// 16 lowercase hex digits from the system's random source.
  static func newRun() -> String {
    var generator = SystemRandomNumberGenerator()
    return Hex.fixed64(generator.next())
  }

  private static func processName() -> String {
    // /proc/self/comm is the kernel's name for the process; argv[0] where /proc is missing.
    if let comm = readSmallFile("/proc/self/comm") {
      let name = comm.trimmingSuffix { $0 == "\n" }
      if !name.isEmpty { return name }
    }
    let argument = CommandLine.arguments.first ?? "unknown"
    return String(argument.split(separator: "/").last ?? Substring(argument))
  }

  private static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func readSmallFile(_ path: String) -> String? {
    guard case .success(let fd) = FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC, 0) else {
      return nil
    }
    defer { FileDescriptorIO.closeFile(fd) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }
}

extension String {
  fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
    var result = self
    while let last = result.last, predicate(last) { result.removeLast() }
    return result
  }
}
