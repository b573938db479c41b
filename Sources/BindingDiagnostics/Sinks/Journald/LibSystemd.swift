#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one libsystemd call an app needs, `sd_journal_sendv`, loaded at run time from
/// `libsystemd.so.0`.
///
/// Loading happens once (a `static let` is initialised exactly once, thread-safely). Reading the
/// journal is `BindingDiagnosticsReport`'s business and loads its own functions.
struct LibSystemd: Sendable {
  typealias SendV = @convention(c) (UnsafePointer<iovec>?, Int32) -> Int32

  /// `sd_journal_sendv`.
  let sendv: SendV

  /// The loaded library, or why it could not be loaded (always, off Linux: journald is Linux's).
  static let shared: Result<LibSystemd, JournalError> = DynamicLibrary.libsystemd.flatMap {
    library in
    Result { () throws(JournalError) in
      LibSystemd(sendv: try library.function("sd_journal_sendv", as: SendV.self))
    }
  }
}
