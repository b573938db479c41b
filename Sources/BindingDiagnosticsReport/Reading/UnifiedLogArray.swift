/// Splits the JSON array that `log show --style json` (and `log stream --style json`) writes,
/// pretty-printed over many lines, into its elements, fed one line at a time: an export of any
/// size is read in memory bounded by its largest element.
///
/// Only an input whose first non-blank line opens an array of objects (`[{`, `[` alone, or `[]`)
/// is read this way, so text lines such as `[INFO] …` stay lines.
struct UnifiedLogArray {
  /// One element of the array.
  enum Element {
    /// The element's bytes, its lines joined by `\n`, and the line it starts on.
    case bytes([UInt8], line: Int)
    /// An element longer than the limit, which was not kept, and the line it starts on.
    case tooLong(line: Int)
  }

  /// Whether the array is open: lines belong to it until its closing `]`.
  private(set) var isOpen = false
  private let maxBytes: Int
  private var element: [UInt8] = []
  private var inElement = false
  private var elementLine = 0
  private var overLimit = false
  /// Nesting inside the current element; 0 for a scalar element.
  private var depth = 0
  private var isScalar = false
  private var inString = false
  private var escaped = false

  /// A splitter for elements of at most `maxBytes` bytes.
  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  /// Whether `line` opens an array of unified-log entries: after blanks (and a UTF-8 byte-order
  /// mark), `[` followed by blanks and then `{`, `]` or the end of the line.
  static func opens(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    if line.count >= 3, line[0] == 0xef, line[1] == 0xbb, line[2] == 0xbf { index = 3 }
    while index < line.count, isBlank(line[index]) { index += 1 }
    guard index < line.count, line[index] == UInt8(ascii: "[") else { return false }
    index += 1
    while index < line.count, isBlank(line[index]) { index += 1 }
    return index == line.count || line[index] == UInt8(ascii: "{")
      || line[index] == UInt8(ascii: "]")
  }

  /// Whether the open array goes on with `line`. Between elements, a line can only start with
  /// what continues a JSON array (`{`, `[`, `]`, `,`, a string, a number, `true`/`false`/`null`);
  /// any other line (a logfmt event, an app's output) closes the array, so a lone `[` at the top
  /// of a stream cannot hide the events after it.
  mutating func continues(with line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard isOpen else { return false }
    guard !inElement else { return true }
    var index = 0
    while index < line.count, UnifiedLogArray.isBlank(line[index]) { index += 1 }
    guard index < line.count else { return true }
    switch line[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","),
      UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      return true
    default:
      isOpen = false
      return false
    }
  }

  /// Feeds line `number` (without its `\n`); `emit` receives each element completed on it.
  mutating func feed(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, emit: (Element) -> Void
  ) {
    var index = 0
    if !isOpen {
      if line.count >= 3, line[0] == 0xef, line[1] == 0xbb, line[2] == 0xbf { index = 3 }
      while index < line.count, line[index] != UInt8(ascii: "[") { index += 1 }
      guard index < line.count else { return }
      isOpen = true
      index += 1
    }
    while index < line.count && isOpen {
      let byte = line[index]
      index += 1
      if inElement {
        if inString {
          append(byte)
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
          append(byte)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          append(byte)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if isScalar {
            finish(emit)
            if byte == UInt8(ascii: "]") { isOpen = false }
          } else {
            append(byte)
            depth -= 1
            if depth == 0 { finish(emit) }
          }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0d:
          if isScalar && depth == 0 { finish(emit) } else { append(byte) }
        default:
          append(byte)
        }
        continue
      }
      switch byte {
      case 0x20, 0x09, 0x0d, UInt8(ascii: ","):
        continue
      case UInt8(ascii: "]"):
        isOpen = false
      default:
        inElement = true
        elementLine = number
        overLimit = false
        element.removeAll(keepingCapacity: true)
        isScalar = byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
        depth = isScalar ? 0 : 1
        inString = byte == UInt8(ascii: "\"")
        escaped = false
        append(byte)
      }
    }
    // JSON strings never span lines: an element whose string is still open at the end of a
    // line is broken; it ends here (and reads as malformed) instead of swallowing what follows.
    if inElement && inString {
      finish(emit)
    } else if inElement {
      append(0x0a)
    }
  }

  /// Ends the input: an element still open (the export was cut off) is handed over as it is.
  mutating func finish(emit: (Element) -> Void) {
    if inElement { finish(emit) }
    isOpen = false
  }

  private mutating func append(_ byte: UInt8) {
    guard !overLimit else { return }
    if element.count >= maxBytes {
      overLimit = true
      element.removeAll()
      return
    }
    element.append(byte)
  }

  private mutating func finish(_ emit: (Element) -> Void) {
    inElement = false
    emit(overLimit ? .tooLong(line: elementLine) : .bytes(element, line: elementLine))
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0d
  }
}
