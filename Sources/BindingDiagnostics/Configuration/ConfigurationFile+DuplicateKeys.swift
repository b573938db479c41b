import Foundation

extension ConfigurationFile {
  /// A key written twice in one JSON object, where the second one is.
  struct DuplicateKey: Equatable {
    /// The top-level key it is in (itself, when it is a top-level key).
    var topLevelKey: String
    /// The repeated key.
    var key: String
    /// Whether it is a key of the top-level object.
    var isTopLevel: Bool
    /// Line and column (from 1, in characters) of the repeat's opening quote.
    var line: Int
    var column: Int
    /// Line and column of the first one.
    var firstLine: Int
    var firstColumn: Int
  }

  /// Every key written twice in one object of `bytes`, a valid JSON text (a decoder accepts it
  /// and keeps one of the two). A scan that only follows strings and brackets.
  static func duplicateKeys(in bytes: [UInt8]) -> [DuplicateKey] {
    /// An open object (its keys so far, where each was, and whether a key comes next) or array.
    struct Frame {
      var isObject: Bool
      var keys: [String: (line: Int, column: Int)] = [:]
      var expectsKey = true
    }
    var frames: [Frame] = []
    var topLevelKey = ""
    var found: [DuplicateKey] = []
    var line = 1
    var column = 1
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"): frames.append(Frame(isObject: true))
      case UInt8(ascii: "["): frames.append(Frame(isObject: false))
      case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = frames.popLast()
      case UInt8(ascii: ","):
        if frames.last?.isObject == true { frames[frames.count - 1].expectsKey = true }
      case UInt8(ascii: ":"):
        if frames.last?.isObject == true { frames[frames.count - 1].expectsKey = false }
      case UInt8(ascii: "\n"):
        line += 1
        column = 0
      case UInt8(ascii: "\""):
        let start = index
        let (startLine, startColumn) = (line, column)
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\") { index += 1 }
          index += 1
        }
        let end = min(index + 1, bytes.count)
        column += String(decoding: bytes[(start + 1)..<end], as: UTF8.self).count
        guard let last = frames.indices.last, frames[last].isObject, frames[last].expectsKey
        else { break }
        let key = decodedString(bytes[start..<end])
        if last == 0 { topLevelKey = key }
        if let first = frames[last].keys[key] {
          found.append(
            DuplicateKey(
              topLevelKey: topLevelKey, key: key, isTopLevel: last == 0, line: startLine,
              column: startColumn,
              firstLine: first.line, firstColumn: first.column))
        } else {
          frames[last].keys[key] = (startLine, startColumn)
        }
      default:
        break
      }
      // A column counts characters: UTF-8 continuation bytes do not start one.
      if byte & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return found
  }

  /// A JSON string literal's text (quotes included in `literal`), escapes decoded.
  private static func decodedString(_ literal: ArraySlice<UInt8>) -> String {
    let inner = literal.dropFirst().dropLast()
    guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
    let decoded = try? JSONSerialization.jsonObject(
      with: Data(literal), options: [.fragmentsAllowed])
    return decoded as? String ?? String(decoding: inner, as: UTF8.self)
  }
}
