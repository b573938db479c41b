/// The configuration file's model: every key optional, each value kept as written so the
/// parser can name the key of a value of the wrong type, and the keys nobody knows.
struct ConfigurationFile: Decodable {
  /// The top-level keys, in the order the parser reports them (sorted).
  var entries: [Member]
  /// Keys written twice in one object (the decoder keeps only one of the two), found by
  /// ``duplicateKeys(in:)``.
  var duplicateKeys: [DuplicateKey] = []

  /// One key of an object and its value.
  struct Member {
    var key: String
    var value: Value
  }

  /// A JSON value, as much of it as configuration needs.
  enum Value: Decodable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([Value])
    case object([Member])
    /// A number that is not an integer, or `null`.
    case other

    init(from decoder: any Decoder) throws {
      if let object = try? decoder.container(keyedBy: AnyKey.self) {
        self = .object(
          try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
            Member(key: $0.stringValue, value: try object.decode(Value.self, forKey: $0))
          })
        return
      }
      if var array = try? decoder.unkeyedContainer() {
        var values: [Value] = []
        while !array.isAtEnd { values.append(try array.decode(Value.self)) }
        self = .array(values)
        return
      }
      let single = try decoder.singleValueContainer()
      if let flag = try? single.decode(Bool.self) {
        self = .bool(flag)
      } else if let number = try? single.decode(Int.self) {
        self = .integer(number)
      } else if let text = try? single.decode(String.self) {
        self = .string(text)
      } else {
        self = .other
      }
    }
  }

  /// Any key of a JSON object.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    guard case .object(let entries) = try Value(from: decoder) else {
      throw DecodingError.typeMismatch(
        [String: Value].self,
        DecodingError.Context(codingPath: [], debugDescription: "not an object"))
    }
    self.entries = entries
  }
}
