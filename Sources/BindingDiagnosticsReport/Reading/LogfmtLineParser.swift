/// Splits a logfmt line into `key=value` pairs, undoing the standard-error sink's quoting.
enum LogfmtLineParser {
  /// The pairs of `line`, or `nil` when it is not logfmt (a bare word, an unterminated quote,
  /// a bad escape).
  static func pairs(_ line: UnsafeBufferPointer<UInt8>) -> [(String, String)]? {
    var pairs: [(String, String)] = []
    var index = 0
    let count = line.count
    while index < count {
      while index < count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      if index == count { break }
      let keyStart = index
      while index < count, line[index] != UInt8(ascii: "="), line[index] != 0x20 { index += 1 }
      guard index < count, line[index] == UInt8(ascii: "="), index > keyStart else { return nil }
      let key = String(
        decoding: UnsafeBufferPointer(rebasing: line[keyStart..<index]), as: UTF8.self)
      index += 1
      var value = [UInt8]()
      if index < count, line[index] == UInt8(ascii: "\"") {
        index += 1
        var closed = false
        while index < count {
          let byte = line[index]
          if byte == UInt8(ascii: "\"") {
            closed = true
            index += 1
            break
          }
          if byte == UInt8(ascii: "\\") {
            guard index + 1 < count else { return nil }
            switch line[index + 1] {
            case UInt8(ascii: "\""): value.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): value.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): value.append(0x0a)
            case UInt8(ascii: "r"): value.append(0x0d)
            case UInt8(ascii: "t"): value.append(0x09)
            case UInt8(ascii: "u"):
              guard index + 5 < count,
                let scalarValue = UInt32(
                  String(
                    decoding: UnsafeBufferPointer(rebasing: line[(index + 2)..<(index + 6)]),
                    as: UTF8.self),
                  radix: 16),
                let scalar = Unicode.Scalar(scalarValue)
              else { return nil }
              value.append(contentsOf: String(Character(scalar)).utf8)
              index += 4
            default: return nil
            }
            index += 2
            continue
          }
          value.append(byte)
          index += 1
        }
        guard closed, index == count || line[index] == 0x20 else { return nil }
      } else {
        let valueStart = index
        while index < count, line[index] != 0x20 { index += 1 }
        value.append(contentsOf: UnsafeBufferPointer(rebasing: line[valueStart..<index]))
      }
      pairs.append((key, String(decoding: value, as: UTF8.self)))
    }
    return pairs
  }

  /// Whether the line names keys `v` and `kind`: the sign of a logfmt event line.
  static func looksLikeEvent(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = line.count
    var sawV = false
    var sawKind = false
    var index = 0
    while index < count {
      // A key starts the line or follows a space.
      if index == 0 || line[index - 1] == 0x20 {
        if index + 1 < count, line[index] == UInt8(ascii: "v"), line[index + 1] == UInt8(ascii: "=")
        {
          sawV = true
        } else if index + 4 < count, line[index] == UInt8(ascii: "k"),
          line[index + 1] == UInt8(ascii: "i"),
          line[index + 2] == UInt8(ascii: "n"), line[index + 3] == UInt8(ascii: "d"),
          line[index + 4] == UInt8(ascii: "=")
        {
          sawKind = true
        }
        if sawV && sawKind { return true }
      }
      index += 1
    }
    return false
  }
}
