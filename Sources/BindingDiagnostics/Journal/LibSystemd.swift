#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libsystemd's journal API, loaded at run time from `libsystemd.so.0` with `dlopen`/`dlsym`.
///
/// The only place in the package that touches libsystemd. Loading happens once (a `static let`
/// is initialised exactly once, thread-safely); every call returns errors as ``SystemError``
/// values, turning libsystemd's negative-errno returns around.
struct LibSystemd: @unchecked Sendable {
  // `@unchecked Sendable`: only immutable C function pointers resolved once, safe to share.
  typealias SendV = @convention(c) (UnsafePointer<iovec>?, Int32) -> Int32
  typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, Int32) -> Int32
  typealias OpenDirectory =
    @convention(c) (
      UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, Int32
    ) -> Int32
  typealias OpenFiles =
    @convention(c) (
      UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32
    ) -> Int32
  typealias Close = @convention(c) (OpaquePointer?) -> Void
  typealias AddMatch = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
  typealias Simple = @convention(c) (OpaquePointer?) -> Int32
  typealias SeekUsec = @convention(c) (OpaquePointer?, UInt64) -> Int32
  typealias GetUsec = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt64>?) -> Int32
  typealias EnumerateData =
    @convention(c) (
      OpaquePointer?, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?
    ) -> Int32
  typealias GetData =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeRawPointer?>?,
      UnsafeMutablePointer<Int>?
    ) -> Int32
  typealias SetThreshold = @convention(c) (OpaquePointer?, Int) -> Int32
  typealias Wait = @convention(c) (OpaquePointer?, UInt64) -> Int32

  let sendv: SendV
  let open: Open
  let openDirectory: OpenDirectory
  let openFiles: OpenFiles
  let close: Close
  let addMatch: AddMatch
  let addConjunction: Simple
  let addDisjunction: Simple
  let seekHead: Simple
  let seekTail: Simple
  let seekRealtime: SeekUsec
  let next: Simple
  let previous: Simple
  let getRealtime: GetUsec
  let restartData: @convention(c) (OpaquePointer?) -> Void
  let enumerateData: EnumerateData
  let getData: GetData
  let setDataThreshold: SetThreshold
  let wait: Wait

  /// The loaded library, or why it could not be loaded.
  static let shared: Result<LibSystemd, JournalError> = load()

  private static func load() -> Result<LibSystemd, JournalError> {
    guard let handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
      return .failure(.libraryUnavailable(reason))
    }
    func symbol<T>(_ name: String, as type: T.Type) throws(JournalError) -> T {
      guard let pointer = dlsym(handle, name) else {
        throw JournalError.libraryUnavailable("libsystemd.so.0 has no \(name)")
      }
      return unsafeBitCast(pointer, to: type)
    }
    do {
      return .success(
        LibSystemd(
          sendv: try symbol("sd_journal_sendv", as: SendV.self),
          open: try symbol("sd_journal_open", as: Open.self),
          openDirectory: try symbol("sd_journal_open_directory", as: OpenDirectory.self),
          openFiles: try symbol("sd_journal_open_files", as: OpenFiles.self),
          close: try symbol("sd_journal_close", as: Close.self),
          addMatch: try symbol("sd_journal_add_match", as: AddMatch.self),
          addConjunction: try symbol("sd_journal_add_conjunction", as: Simple.self),
          addDisjunction: try symbol("sd_journal_add_disjunction", as: Simple.self),
          seekHead: try symbol("sd_journal_seek_head", as: Simple.self),
          seekTail: try symbol("sd_journal_seek_tail", as: Simple.self),
          seekRealtime: try symbol("sd_journal_seek_realtime_usec", as: SeekUsec.self),
          next: try symbol("sd_journal_next", as: Simple.self),
          previous: try symbol("sd_journal_previous", as: Simple.self),
          getRealtime: try symbol("sd_journal_get_realtime_usec", as: GetUsec.self),
          restartData: try symbol(
            "sd_journal_restart_data", as: (@convention(c) (OpaquePointer?) -> Void).self),
          enumerateData: try symbol("sd_journal_enumerate_data", as: EnumerateData.self),
          getData: try symbol("sd_journal_get_data", as: GetData.self),
          setDataThreshold: try symbol("sd_journal_set_data_threshold", as: SetThreshold.self),
          wait: try symbol("sd_journal_wait", as: Wait.self)))
    } catch {
      return .failure(error)
    }
  }

  /// Turns a libsystemd return value into a result: negative means `-errno`.
  static func check(_ value: Int32, _ operation: String) -> Result<Int32, JournalError> {
    value < 0 ? .failure(.call(SystemError(operation, code: -value))) : .success(value)
  }
}
