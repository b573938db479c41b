import BindingDiagnostics

extension JSONValue {
  /// The value as indented JSON text for files people read and diff (SARIF, baselines): two
  /// spaces per level, one member per line, members in the order given, a newline at the end.
  /// Containers nested deeper than `inlineDepth` are written on one line (`{"a": 1, "b": 2}`).
  /// - Parameter inlineDepth: The depth from which containers stay on one line.
  func prettyText(inlineDepth: Int = .max) -> String {
    var out = [UInt8]()
    append(to: &out, depth: 0, inlineDepth: inlineDepth)
    out.append(UInt8(ascii: "\n"))
    return String(decoding: out, as: UTF8.self)
  }

  private func append(to out: inout [UInt8], depth: Int, inlineDepth: Int) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .string(let text): out.appendJSONString(text)
    case .array(let items):
      appendContainer(
        items.map { (nil, $0) }, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), to: &out,
        depth: depth,
        inlineDepth: inlineDepth)
    case .object(let members):
      appendContainer(
        members.map { ($0.0, $0.1) }, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), to: &out,
        depth: depth,
        inlineDepth: inlineDepth)
    }
  }

  private func appendContainer(
    _ items: [(String?, JSONValue)], open: UInt8, close: UInt8, to out: inout [UInt8],
    depth: Int, inlineDepth: Int
  ) {
    out.append(open)
    defer { out.append(close) }
    guard !items.isEmpty else { return }
    let inline = depth >= inlineDepth
    for (index, (key, value)) in items.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      if inline {
        if index > 0 { out.append(UInt8(ascii: " ")) }
      } else {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * (depth + 1)))
      }
      if let key {
        out.appendJSONString(key)
        out.append(contentsOf: ": ".utf8)
      }
      value.append(to: &out, depth: depth + 1, inlineDepth: inlineDepth)
    }
    if !inline {
      out.append(UInt8(ascii: "\n"))
      out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
  }
}

extension JSONValue {
  /// A number value for `value`.
  static func decimal(_ value: Int) -> JSONValue { .number(String(value)) }

  /// An array of strings.
  static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
