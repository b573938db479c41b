/// `String(reflecting:)` of types, computed once per type: naming a type walks its metadata
/// and costs far more than the rest of a report.
enum TypeNames {
  private static let cache = Lock<[ObjectIdentifier: String]>([:])

  /// The fully qualified name of `type`, as `String(reflecting:)` gives it.
  static func name(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let known = cache.withLock({ $0[key] }) { return known }
    let name = String(reflecting: type)
    cache.withLock { $0[key] = name }
    return name
  }
}
