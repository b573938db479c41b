/// Where a mapping was created: captured by default arguments so reports point at view code.
public struct CallSite: Sendable, Hashable {
  /// `#fileID` of the call site.
  public let fileID: String
  /// `#line` of the call site.
  public let line: Int
  /// `#function` of the call site.
  public let function: String

  /// A call site; the defaults capture the caller's own position.
  /// - Parameters:
  ///   - fileID: `#fileID` of the caller.
  ///   - line: `#line` of the caller.
  ///   - function: `#function` of the caller.
  public init(
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    self.fileID = fileID.description
    self.line = Int(line)
    self.function = function.description
  }

  /// A call site from plain values (for readers and tests).
  /// - Parameters:
  ///   - file: The file id.
  ///   - line: The line.
  ///   - function: The function.
  public init(file: String, line: Int, function: String) {
    self.fileID = file
    self.line = line
    self.function = function
  }
}
