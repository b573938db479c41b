package import BindingDiagnostics

/// The journald message catalog for the built-in kinds (`bindiag catalog`), the source of
/// `config/binding-diagnostics.catalog`. Its text is `KindTable`'s, in the core.
package enum MessageCatalog {
  /// One catalog entry.
  package struct Entry: Sendable {
    /// An entry.
    /// - Parameters:
    ///   - kind: The kind it explains.
    ///   - subject: The `Subject:` line.
    ///   - body: What happened and how to fix it.
    package init(kind: MisuseKind, subject: String, body: String) {
      self.kind = kind
      self.subject = subject
      self.body = body
    }

    /// The kind it explains.
    package var kind: MisuseKind
    /// The `Subject:` line.
    package var subject: String
    /// The body: what happened and how to fix it.
    package var body: String
  }

  /// The entries, one per built-in misuse kind, made from `KindTable`'s rows in their order.
  package static let entries: [Entry] = KindTable.rows.compactMap { row in
    row.catalog.map { Entry(kind: MisuseKind(row: row), subject: $0.subject, body: $0.body) }
  }

  /// The catalog file's text.
  package static var text: String {
    text(
      of: entries,
      header: """
        # journald message catalog for BindingDiagnostics: one entry per built-in misuse kind.
        # Install: cp binding-diagnostics.catalog /usr/lib/systemd/catalog/ && journalctl --update-catalog
        # Then `journalctl -x MESSAGE_ID=<id>` explains each report. The entries point at
        # bindiag(1): bindiag manpage > /usr/local/share/man/man1/bindiag.1

        """)
  }

  /// The catalog text of an application's own kinds (`bindiag catalog --kind … --subject …
  /// --body …`), to install beside the built-in one.
  /// - Parameter entries: The app's entries, checked with ``problem(subject:body:)``.
  package static func appText(of entries: [Entry]) -> String {
    text(
      of: entries,
      header: """
        # journald message catalog for an application's own BindingDiagnostics kinds.
        # Install: cp FILE.catalog /usr/lib/systemd/catalog/ && journalctl --update-catalog

        """)
  }

  /// Why `subject` or `body` cannot be written into a catalog entry, or `nil` when they can: the
  /// subject is one line, neither is empty, and no line of the body starts with `--`, which
  /// would begin another entry (another message id's text).
  package static func problem(subject: String, body: String) -> String? {
    if subject.isEmpty { return "the subject is empty" }
    if subject.contains(where: \.isNewline) { return "the subject must be one line" }
    if body.allSatisfy(\.isWhitespace) { return "the body is empty" }
    if body.split(separator: "\n", omittingEmptySubsequences: false).contains(where: {
      $0.hasPrefix("--")
    }) {
      return "a line of the body starts with '--', which would begin another entry"
    }
    return nil
  }

  private static func text(of entries: [Entry], header: String) -> String {
    var out = header
    for entry in entries {
      out += """

        -- \(entry.kind.messageID)
        Subject: \(entry.subject)
        Defined-By: BindingDiagnostics
        Documentation: man:bindiag(1)
        Documentation: man:journalctl(1)

        \(entry.body)

        """
    }
    return out
  }
}
