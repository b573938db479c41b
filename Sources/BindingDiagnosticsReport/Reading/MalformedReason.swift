/// Why a line that looked like an event is not one: a short phrase for `FILE:LINE: reason`.
public struct MalformedReason: Error, Sendable, Hashable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  /// The phrase.
  public let text: String

  /// A reason from a literal or an interpolation.
  /// - Parameter value: The phrase.
  public init(stringLiteral value: String) {
    self.text = value
  }

  /// The phrase.
  public var description: String { text }
}
