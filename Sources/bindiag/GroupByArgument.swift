import BindingDiagnosticsReport

/// `--group-by` values, as help and completions list them.
enum GroupByArgument {
  /// `site`, then each field by the name `--group-by` takes (`type` for the value type), the
  /// fields ``GroupField`` gains later included.
  static let names: [String] = {
    var names = ["site", "kind", "type", "process", "host", "function", "file", "line"]
    for field in GroupField.allCases where field != .valueType && !names.contains(field.rawValue) {
      names.append(field.rawValue)
    }
    return names
  }()
}
