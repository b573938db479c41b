#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who is reporting: process name, pid, host, and the random run id of this pipeline.
///
/// An immutable class, not a struct: the report path holds one (its stripe's, one retain) while
/// the record is built and borrows the three strings from its `let`s. A struct read from its
/// stripe was copied, its strings retained and released, per record.
final class ProcessIdentity: Sendable {
  let process: String
  let pid: Int
  let host: String
  let run: String

  private init(process: String, pid: Int, host: String, run: String) {
    self.process = process
    self.pid = pid
    self.host = host
    self.run = run
  }

  /// The identity of the current process, with a fresh random run id.
  static func current() -> ProcessIdentity {
    ProcessIdentity(process: processName(), pid: Int(getpid()), host: hostName(), run: newRun())
  }

  /// The same identity with strings in storage of their own (not shared with this one's), each
  /// at least a cache line long, so that copies made one after the other do not share a line.
  func copied() -> ProcessIdentity {
    func copy(_ text: String) -> String {
      var copy = ""
      copy.reserveCapacity(max(64, text.utf8.count))
      copy.append(contentsOf: text)
      return copy
    }
    return ProcessIdentity(process: copy(process), pid: pid, host: copy(host), run: copy(run))
  }

  /// 16 lowercase hex digits from the system's random source.
  static func newRun() -> String {
    var generator = SystemRandomNumberGenerator()
    return Hex.fixed64(generator.next())
  }

  /// The name journald tools use for `SYSLOG_IDENTIFIER`: glibc's
  /// `program_invocation_short_name` (the basename of `argv[0]`, never cut), so `--process` and
  /// `journalctl -t` find the reports. `/proc/self/comm` is not used: the kernel cuts it to 15
  /// bytes.
  private static func processName() -> String {
    if let name = invocationShortName(), !name.isEmpty { return name }
    let argument = CommandLine.arguments.first ?? ""
    let base = argument.split(separator: "/").last.map(String.init) ?? ""
    return base.isEmpty ? "unknown" : base
  }

  #if canImport(Glibc)
    /// Where glibc keeps `program_invocation_short_name`, looked up once: by the process's
    /// first pipeline, so that a forked child's pipeline does not call `dlsym`, whose lock a
    /// parent thread inside `dlopen` at the fork would leave held.
    nonisolated(unsafe) private static let invocationShortNameSymbol = dlsym(
      nil, "program_invocation_short_name")  // RTLD_DEFAULT is a null handle on glibc.
  #endif

  /// glibc's `program_invocation_short_name`, found with `dlsym` (Swift's Glibc module does not
  /// import it: it is declared only under `_GNU_SOURCE`); `getprogname()` on Darwin.
  private static func invocationShortName() -> String? {
    #if canImport(Glibc)
      guard let symbol = invocationShortNameSymbol,
        let name = symbol.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee
      else { return nil }
      return String(cString: name)
    #elseif canImport(Darwin)
      return getprogname().map { String(cString: $0) }
    #else
      return nil
    #endif
  }

  private static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
