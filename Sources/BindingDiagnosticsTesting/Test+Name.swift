import Testing

extension Test {
  /// `Suite/test()`: the test's id without its module, as the test runner's `--filter` reads it.
  var qualifiedName: String {
    let components = id.nameComponents
    return components.isEmpty ? name : components.joined(separator: "/")
  }

  /// ``qualifiedName`` with a parameterised case's arguments in place of its labels,
  /// `Suite/tapping(times: 5)`, so two cases of one test are two tests in the records.
  ///
  /// Swift Testing names a case's arguments only to tools (`@_spi`), so they are read by
  /// reflection: each argument's parameter label and `String(describingForTest:)` of its value.
  /// When that fails (another Swift Testing), the name without arguments.
  /// - Parameter testCase: The running case, `Test.Case.current`.
  /// - Returns: The name.
  func nameWithArguments(_ testCase: Test.Case?) -> String {
    let name = qualifiedName
    guard let testCase, testCase.isParameterized,
      let arguments = Test.reflectedArguments(of: testCase), !arguments.isEmpty,
      name.hasSuffix(":)"), let open = name.lastIndex(of: "(")
    else { return name }
    let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
      .split(separator: ":", omittingEmptySubsequences: true)
    let parts = arguments.enumerated().map { index, argument in
      let label = argument.label ?? (index < labels.count ? String(labels[index]) : "_")
      return label == "_" ? argument.value : label + ": " + argument.value
    }
    return name[..<open] + "(" + parts.joined(separator: ", ") + ")"
  }

  /// The case's arguments as (parameter label, value text), found by reflection.
  private static func reflectedArguments(of testCase: Test.Case)
    -> [(label: String?, value: String)]?
  {
    guard let list = child(named: "arguments", in: Mirror(reflecting: testCase), depth: 4) else {
      return nil
    }
    let mirror = Mirror(reflecting: list)
    guard mirror.displayStyle == .collection else { return nil }
    return mirror.children.compactMap { element in
      let argument = Mirror(reflecting: element.value)
      guard let value = argument.children.first(where: { $0.label == "value" })?.value else {
        return nil
      }
      let parameter = argument.children.first { $0.label == "parameter" }.map {
        Mirror(reflecting: $0.value)
      }
      let label = parameter?.children.first { $0.label == "firstName" }?.value as? String
      return (label, String(describingForTest: value))
    }
  }

  /// The first child labelled `name`, searching `depth` levels of stored properties and enum
  /// payloads.
  private static func child(named name: String, in mirror: Mirror, depth: Int) -> Any? {
    for child in mirror.children where child.label == name { return child.value }
    guard depth > 0 else { return nil }
    for child in mirror.children {
      if let found = self.child(named: name, in: Mirror(reflecting: child.value), depth: depth - 1)
      {
        return found
      }
    }
    return nil
  }
}
