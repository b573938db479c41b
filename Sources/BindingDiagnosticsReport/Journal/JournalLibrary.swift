import BindingDiagnostics

/// libsystemd's journal-reading functions (`sd_journal_*`), loaded at run time from
/// `libsystemd.so.0`, so `bindiag` builds anywhere and says the journal is unavailable where the
/// library is missing.
///
/// `@unchecked Sendable`: only immutable C function pointers resolved once, safe to share.
struct JournalLibrary: @unchecked Sendable {
  typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, Int32) -> Int32
  typealias OpenDirectory =
    @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, Int32) -> Int32
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
  typealias SetThreshold = @convention(c) (OpaquePointer?, Int) -> Int32
  typealias Wait = @convention(c) (OpaquePointer?, UInt64) -> Int32
  typealias Restart = @convention(c) (OpaquePointer?) -> Void

  let open: Open
  let openDirectory: OpenDirectory
  let openFiles: OpenFiles
  let close: Close
  let addMatch: AddMatch
  let seekHead: Simple
  let seekTail: Simple
  let seekRealtime: SeekUsec
  let next: Simple
  let previous: Simple
  let getRealtime: GetUsec
  let restartData: Restart
  /// `sd_journal_enumerate_available_data` (systemd 246 and later), which skips a field it
  /// cannot decompress instead of failing; `sd_journal_enumerate_data` on older libraries.
  let enumerateData: EnumerateData
  /// Whether ``enumerateData`` skips unreadable fields (so a negative return is not the end).
  let skipsUnreadableFields: Bool
  let setDataThreshold: SetThreshold
  let wait: Wait
  /// `sd_journal_get_usage`: the bytes of the files the handle still has open (a file
  /// libsystemd could not go on reading is dropped from the handle, without an error).
  let getUsage: GetUsec

  /// The loaded functions, or why they could not be loaded.
  static let shared: Result<JournalLibrary, JournalError> = DynamicLibrary.libsystemd
    .flatMap { library in Result { () throws(JournalError) in try JournalLibrary(library) } }

  private init(_ library: DynamicLibrary) throws(JournalError) {
    open = try library.function("sd_journal_open", as: Open.self)
    openDirectory = try library.function("sd_journal_open_directory", as: OpenDirectory.self)
    openFiles = try library.function("sd_journal_open_files", as: OpenFiles.self)
    close = try library.function("sd_journal_close", as: Close.self)
    addMatch = try library.function("sd_journal_add_match", as: AddMatch.self)
    seekHead = try library.function("sd_journal_seek_head", as: Simple.self)
    seekTail = try library.function("sd_journal_seek_tail", as: Simple.self)
    seekRealtime = try library.function("sd_journal_seek_realtime_usec", as: SeekUsec.self)
    next = try library.function("sd_journal_next", as: Simple.self)
    previous = try library.function("sd_journal_previous", as: Simple.self)
    getRealtime = try library.function("sd_journal_get_realtime_usec", as: GetUsec.self)
    restartData = try library.function("sd_journal_restart_data", as: Restart.self)
    if let available = library.optionalFunction(
      "sd_journal_enumerate_available_data", as: EnumerateData.self)
    {
      enumerateData = available
      skipsUnreadableFields = true
    } else {
      enumerateData = try library.function("sd_journal_enumerate_data", as: EnumerateData.self)
      skipsUnreadableFields = false
    }
    setDataThreshold = try library.function("sd_journal_set_data_threshold", as: SetThreshold.self)
    wait = try library.function("sd_journal_wait", as: Wait.self)
    getUsage = try library.function("sd_journal_get_usage", as: GetUsec.self)
  }
}
