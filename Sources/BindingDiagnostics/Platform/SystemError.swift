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

  /// An error for `operation` failing with `code`.
  /// - Parameters:
  ///   - operation: The C function's name.
  ///   - code: The positive errno value.
  public init(_ operation: String, code: Int32) {
    self.operation = operation
    self.code = code
  }

  /// The errno symbol's text, from `strerror`.
  public var message: String { String(cString: strerror(code)) }

  /// `operation: message (errno N)`.
  public var description: String { "\(operation): \(message) (errno \(code))" }
}
