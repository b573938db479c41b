/// Why the journal could not be written or read.
public enum JournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `libsystemd.so.0` could not be loaded, or lacks a function.
  case libraryUnavailable(String)
  /// No journald listens on the socket.
  case socketUnavailable(path: String, SystemError)
  /// A libsystemd call returned a negative errno.
  case call(SystemError)
  /// A field name journald would silently drop (`[A-Z0-9_]{1,64}`, no leading `_` or digit).
  case invalidFieldName(String)

  /// A one-line reason.
  public var description: String {
    switch self {
    case .libraryUnavailable(let reason): "libsystemd unavailable: \(reason)"
    case .socketUnavailable(let path, let error): "no journal at \(path): \(error.message)"
    case .call(let error): error.description
    case .invalidFieldName(let name): "invalid journal field name \(name)"
    }
  }
}

extension JournalError {
  /// Turns a libsystemd return value into a result: negative means `-errno`.
  /// - Parameters:
  ///   - value: What the `sd_journal_*` function returned.
  ///   - operation: Its name, for the error.
  package static func check(_ value: Int32, _ operation: String) -> Result<Int32, JournalError> {
    value < 0 ? .failure(.call(SystemError(operation, code: -value))) : .success(value)
  }
}
