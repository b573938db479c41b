/// Why a line that looked like an event is not one: a short phrase for `FILE:LINE: reason`.
package struct MalformedReason: Error, Sendable, Hashable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  /// The phrase.
  package let text: String

  /// A reason from a literal or an interpolation.
  /// - Parameter value: The phrase.
  package init(stringLiteral value: String) {
    self.text = value
  }

  /// The phrase.
  package var description: String { text }
}
