import BindingDiagnostics
import BindingDiagnosticsReport

/// The options of `catalog`: none for the built-in kinds' catalog, or one `--kind` per
/// application kind, each followed by its `--subject` and `--body`.
struct CatalogOptions {
  var help = false
  /// The application's entries, in the order given.
  var entries: [MessageCatalog.Entry] = []

  static func parse(_ arguments: [String]) throws(UsageError) -> CatalogOptions {
    var options = CatalogOptions()
    var scanner = ArgumentScanner(arguments, command: .catalog)
    /// The entry being given: its kind, subject and body so far.
    var current: (kind: MisuseKind, subject: String?, body: String?)?
    func finish() throws(UsageError) {
      guard let entry = current else { return }
      guard let subject = entry.subject, let body = entry.body else {
        throw UsageError(
          "'--kind \(entry.kind.code)' needs a --subject and a --body after it", command: .catalog)
      }
      if let problem = MessageCatalog.problem(subject: subject, body: body) {
        throw UsageError(
          "The entry of '\(entry.kind.code)' is invalid: \(problem)", command: .catalog)
      }
      options.entries.append(MessageCatalog.Entry(kind: entry.kind, subject: subject, body: body))
      current = nil
    }
    while let token = scanner.next() {
      switch token {
      case .positional(let value):
        throw UsageError("Unexpected argument '\(value)'", command: .catalog)
      case .option(let name, let inline):
        let option = try OptionSpec.find(name, inline: inline, command: .catalog)
        switch option.id {
        case .help: options.help = true
        case .appKind:
          try finish()
          let code = try scanner.value(name, inline: inline)
          guard let kind = MisuseKind(code: code) else {
            throw UsageError(
              "The value '\(code)' is invalid for '--kind': expected a kebab-case kind",
              command: .catalog)
          }
          guard !MisuseKind.known.contains(kind) else {
            throw UsageError(
              "The value '\(code)' is invalid for '--kind': a kind BindingDiagnostics defines "
                + "itself (its entries are in 'bindiag catalog')", command: .catalog)
          }
          current = (kind, nil, nil)
        case .subject, .body:
          let text = try scanner.value(name, inline: inline)
          guard current != nil else {
            throw UsageError("'\(name)' belongs after a '--kind'", command: .catalog)
          }
          if option.id == .subject { current?.subject = text } else { current?.body = text }
        default: throw scanner.unknown(name)
        }
      }
    }
    try finish()
    return options
  }
}
