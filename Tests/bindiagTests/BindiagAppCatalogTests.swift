import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// `bindiag catalog --kind … --subject … --body …`: catalog entries for an application's own
/// kinds, with the message ids the library derives for them, that journalctl compiles and
/// explains; and entries that point at a manual that exists.
@Suite struct BindiagAppCatalogTests {
  @Test func anAppKindGetsAnEntryJournalctlCompiles() throws {
    let code = "sheet-presented-twice"
    let kind = try #require(MisuseKind(code: code))
    let result = try bindiag(
      "catalog", "--kind", code, "--subject",
      "A sheet was presented twice at @CODE_FILE@:@CODE_LINE@",
      "--body",
      "The sheet at @CODE_FILE@:@CODE_LINE@ was presented while it was shown.\n\nPresent it once.",
      "--kind", "draft-lost", "--subject=A draft was lost", "--body=Save drafts before dismissing.")
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let draft = try #require(MisuseKind(code: "draft-lost"))
    #expect(
      result.stdout == """
        # journald message catalog for an application's own BindingDiagnostics kinds.
        # Install: cp FILE.catalog /usr/lib/systemd/catalog/ && journalctl --update-catalog

        -- \(kind.messageID)
        Subject: A sheet was presented twice at @CODE_FILE@:@CODE_LINE@
        Defined-By: BindingDiagnostics
        Documentation: man:bindiag(1)
        Documentation: man:journalctl(1)

        The sheet at @CODE_FILE@:@CODE_LINE@ was presented while it was shown.

        Present it once.

        -- \(draft.messageID)
        Subject: A draft was lost
        Defined-By: BindingDiagnostics
        Documentation: man:bindiag(1)
        Documentation: man:journalctl(1)

        Save drafts before dismissing.

        """)
    let root = try temporaryDirectory()
    let directory = root + "/usr/lib/systemd/catalog"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try result.stdout.write(
      toFile: directory + "/app.catalog", atomically: true, encoding: .utf8)
    let update = try runProduct(
      "/usr/bin/env", ["journalctl", "--root=\(root)", "--update-catalog"])
    #expect(update.status == 0, "\(update.stderr)")
    let list = try runProduct("/usr/bin/env", ["journalctl", "--root=\(root)", "--list-catalog"])
    #expect(
      list.stdout.split(separator: "\n").map { String($0.prefix(32)) }.sorted()
        == [kind.messageID, draft.messageID].sorted())
  }

  @Test(arguments: [
    (
      ["catalog", "--kind", "my-kind", "--subject", "S"],
      "Error: '--kind my-kind' needs a --subject and a --body after it"
    ),
    (["catalog", "--subject", "S"], "Error: '--subject' belongs after a '--kind'"),
    (
      ["catalog", "--kind", "My Kind"],
      "Error: The value 'My Kind' is invalid for '--kind': expected a kebab-case kind"
    ),
    (
      ["catalog", "--kind", "mapped-bool-set-true", "--subject", "S", "--body", "B"],
      "Error: The value 'mapped-bool-set-true' is invalid for '--kind': a kind BindingDiagnostics defines itself (its entries are in 'bindiag catalog')"
    ),
    (
      [
        "catalog", "--kind", "my-kind", "--subject", "S", "--body",
        "text\n-- 0123456789abcdef0123456789abcdef\nSubject: forged",
      ],
      "Error: The entry of 'my-kind' is invalid: a line of the body starts with '--', which would begin another entry"
    ),
    (
      ["catalog", "--kind", "my-kind", "--subject", "one\ntwo", "--body", "B"],
      "Error: The entry of 'my-kind' is invalid: the subject must be one line"
    ),
  ])
  func anEntryThatWouldBreakTheCatalogIsAUsageError(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix(message + "\nUsage: bindiag catalog"))
    #expect(result.status == 64)
  }

  /// `Documentation: man:bindiag(1)` names a page that exists: `bindiag manpage`, installed
  /// where man finds it, opens under that name.
  @Test(.enabled(if: executableInPath("man") != nil, "man is not installed"))
  func theDocumentationLinePointsAtAManualThatExists() throws {
    #expect(try bindiag("catalog").stdout.contains("Documentation: man:bindiag(1)\n"))
    #expect(!(try bindiag("catalog").stdout.contains("file:///")))
    let root = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: root + "/man1", withIntermediateDirectories: true)
    try bindiag("manpage").stdout.write(
      toFile: root + "/man1/bindiag.1", atomically: true, encoding: .utf8)
    let found = try runProduct(
      "/usr/bin/timeout", ["30", executableInPath("man")!, "-w", "1", "bindiag"],
      environment: ["MANPATH": root])
    #expect(found.stdout == root + "/man1/bindiag.1\n")
    #expect(found.status == 0)
  }
}
