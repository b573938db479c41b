/// A parsed JSON value, for the exact (slow) path of the reader.
enum JSONValue {
  case null
  case bool(Bool)
  /// A number as written; integers are read from it exactly when they fit.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The value of `key` in an object (keys are unique: the parser refuses duplicates).
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// An integer when the number is integral (`12`, `-3`, `1.0`, `1e2`) and fits.
  var integer: Int? {
    guard case .number(let text) = self else { return nil }
    if let value = Int(text) { return value }
    guard let double = Double(text), double == double.rounded(), abs(double) < 9e15 else {
      return nil
    }
    return Int(double)
  }
}

/// A strict RFC 8259 parser over bytes: UTF-8 validated, nesting bounded, keys unique, no
/// trailing garbage.
struct JSONParser {
  enum Failure: Error {
    case syntax(String)
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0

  /// Parses one JSON text that fills `bytes` (surrounding blanks allowed).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, Failure> {
    var parser = JSONParser(bytes: bytes)
    do {
      parser.skipBlanks()
      let value = try parser.value()
      parser.skipBlanks()
      guard parser.index == bytes.count else {
        throw Failure.syntax("trailing characters after the object")
      }
      return .success(value)
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(.syntax("invalid JSON"))
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  private mutating func skipBlanks() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0a, 0x0d: index += 1
      default: return
      }
    }
  }

  private mutating func value() throws(Failure) -> JSONValue {
    guard index < bytes.count else { throw .syntax("unexpected end of line") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw .syntax("unexpected character at byte \(index + 1)")
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw .syntax("unexpected end of line") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw .syntax("unexpected character at byte \(index + offset + 1)")
    }
    index += count
  }

  private mutating func object() throws(Failure) -> JSONValue {
    depth += 1
    guard depth <= 64 else { throw .syntax("nesting deeper than 64") }
    defer { depth -= 1 }
    index += 1
    var members: [(String, JSONValue)] = []
    // Keys of large objects, hashed; small ones are scanned.
    var keys: Set<String> = []
    skipBlanks()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipBlanks()
      guard index < bytes.count else { throw .syntax("unexpected end of line") }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw .syntax("expected a key at byte \(index + 1)")
      }
      let key = try string()
      // RFC 8259 leaves duplicate names undefined; readers disagree on which one wins, so a
      // record with one is malformed rather than read one way here and another way by jq.
      let duplicate: Bool
      if members.count < 16 {
        duplicate = members.contains { $0.0 == key }
      } else {
        if keys.isEmpty { keys = Set(members.map(\.0)) }
        duplicate = !keys.insert(key).inserted
      }
      guard !duplicate else { throw .syntax(JSONParser.duplicateKey(key)) }
      skipBlanks()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw .syntax("expected ':' at byte \(index + 1)")
      }
      index += 1
      skipBlanks()
      members.append((key, try value()))
      skipBlanks()
      guard index < bytes.count else { throw .syntax("unexpected end of line") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else {
        throw .syntax("expected ',' or '}' at byte \(index + 1)")
      }
      index += 1
      return .object(members)
    }
  }

  /// `duplicate key "seq"`; a long key is cut to 64 characters and `…`.
  static func duplicateKey(_ key: String) -> String {
    let shown = key.count <= 64 ? key : key.prefix(64) + "…"
    return #"duplicate key "\#(shown)""#
  }

  private mutating func array() throws(Failure) -> JSONValue {
    depth += 1
    guard depth <= 64 else { throw .syntax("nesting deeper than 64") }
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipBlanks()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipBlanks()
      elements.append(try value())
      skipBlanks()
      guard index < bytes.count else { throw .syntax("unexpected end of line") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else {
        throw .syntax("expected ',' or ']' at byte \(index + 1)")
      }
      index += 1
      return .array(elements)
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() -> Int {
      let begin = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - begin
    }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { throw .syntax("invalid number at byte \(start + 1)") }
    if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
      throw .syntax("invalid number at byte \(start + 1)")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw .syntax("invalid number at byte \(start + 1)") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { throw .syntax("invalid number at byte \(start + 1)") }
    }
    return .number(
      String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
  }

  /// A string starting at the opening quote; escapes decoded, UTF-8 validated.
  private mutating func string() throws(Failure) -> String {
    index += 1
    var out = [UInt8]()
    var runStart = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        guard let text = String(validating: out, as: UTF8.self) else {
          throw .syntax("invalid UTF-8 in a string")
        }
        return text
      }
      if byte < 0x20 { throw .syntax("control character in a string at byte \(index + 1)") }
      if byte == UInt8(ascii: "\\") {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        guard index < bytes.count else { throw .syntax("unexpected end of line") }
        switch bytes[index] {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0c)
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xd800...0xdbff).contains(scalar) {
            guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"),
              bytes[index + 2] == UInt8(ascii: "u")
            else { throw .syntax("unpaired surrogate in a string") }
            index += 2
            let low = try hex4()
            guard (0xdc00...0xdfff).contains(low) else {
              throw .syntax("unpaired surrogate in a string")
            }
            scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
          } else if (0xdc00...0xdfff).contains(scalar) {
            throw .syntax("unpaired surrogate in a string")
          }
          out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
          throw .syntax("invalid escape at byte \(index + 1)")
        }
        index += 1
        runStart = index
        continue
      }
      index += 1
    }
    throw .syntax("unterminated string")
  }

  /// Reads 4 hex digits after `\u`, leaving `index` on the last one.
  private mutating func hex4() throws(Failure) -> UInt32 {
    guard index + 4 < bytes.count else { throw .syntax("unexpected end of line") }
    var value: UInt32 = 0
    for offset in 1...4 {
      let byte = bytes[index + offset]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw .syntax("invalid \\u escape")
      }
      value = value << 4 | digit
    }
    index += 4
    return value
  }
}
