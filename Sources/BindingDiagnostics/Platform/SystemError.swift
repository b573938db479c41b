#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system or libsystemd call: which call, and the errno it gave.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The C function that failed.
  public let operation: String
  /// The (positive) errno value.
  public let code: Int32

  /// What went wrong, when the errno's text would not say it (a reader refusing an input).
  private let detail: String?

  /// An error for `operation` failing with `code`.
  /// - Parameters:
  ///   - operation: The C function's name.
  ///   - code: The positive errno value.
  public init(_ operation: String, code: Int32) {
    self.operation = operation
    self.code = code
    self.detail = nil
  }

  /// An error for `operation` with `code`, whose ``message`` is `detail`.
  package init(_ operation: String, code: Int32, detail: String) {
    self.operation = operation
    self.code = code
    self.detail = detail
  }

  /// The errno symbol's text, from `strerror`, or the detail given.
  public var message: String { detail ?? String(cString: strerror(code)) }

  /// `operation: message (errno N)`.
  public var description: String { "\(operation): \(message) (errno \(code))" }
}
