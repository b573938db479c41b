/// The built-in kinds, one row each: the one place their code, message id, default level and
/// journald catalog text are written.
///
/// Everything that lists kinds is made from it: ``MisuseKind/builtIn`` and
/// ``MisuseKind/runRecordKinds`` (and so the levels readers give a kind back), the journald
/// catalog (`bindiag catalog`, `config/binding-diagnostics.catalog`) and the SARIF rules.
/// Adding a kind is one row in `KindTable+Rows.swift`, its constant on ``MisuseKind`` and the
/// code that reports it; `KindTableTests` names the kind and the place when a consumer misses
/// a row.
package enum KindTable {
  /// One built-in kind.
  package struct Row: Sendable {
    /// What records of a kind are.
    package enum Role: Sendable {
      /// A misuse, explained by a catalog entry: its `Subject:` line (with journald's
      /// `@FIELD@` placeholders) and its body, what happened and how to fix it.
      case misuse(subject: String, body: String)
      /// A run record (`run-heartbeat`, `run-end`): never a misuse event, no catalog entry.
      case runRecord
    }

    /// The kebab-case code written as `kind`.
    package let code: String
    /// 32 lowercase hex digits written as `message_id`; fixed forever once released.
    package let messageID: String
    /// The level reports of this kind get unless the reporter names another, and the level
    /// readers give it back.
    package let defaultLevel: MisuseLevel
    /// A misuse with its catalog text, or a run record.
    package let role: Role

    /// A row.
    /// - Parameters:
    ///   - code: The kebab-case code.
    ///   - messageID: The journald message id.
    ///   - defaultLevel: The default level.
    ///   - role: A misuse with its catalog text, or a run record.
    package init(code: String, messageID: String, defaultLevel: MisuseLevel, role: Role) {
      self.code = code
      self.messageID = messageID
      self.defaultLevel = defaultLevel
      self.role = role
    }

    /// Whether it is a run record's kind.
    package var isRunRecord: Bool {
      if case .runRecord = role { return true }
      return false
    }

    /// The catalog entry's subject and body, or `nil` for a run record.
    package var catalog: (subject: String, body: String)? {
      guard case .misuse(let subject, let body) = role else { return nil }
      return (subject, body)
    }
  }

  /// The row of the built-in kind `code`, or `nil` for an application's own kind.
  /// - Parameter code: A kind's code.
  package static func row(code: String) -> Row? {
    rows.first { $0.code == code }
  }
}
