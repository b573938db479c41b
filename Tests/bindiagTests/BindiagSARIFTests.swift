import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// The real SARIF client from PyPI (`pip install sarif-tools`), when installed.
let sarifTools = executableInPath("sarif")

/// Whether Python has `jsonschema` and the URI checks its format checker uses.
let schemaValidatorAvailable: Bool = {
  guard let python = executableInPath("python3") else { return false }
  return (try? runProduct(python, ["-c", "import jsonschema, rfc3986_validator"]).status) == 0
}()

/// The OASIS SARIF 2.1.0 schema (errata 01), kept beside these tests.
let sarifSchemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures/sarif-schema-2.1.0.json").path

/// Validates a SARIF file against the schema; prints each error as `PATH: message`, then
/// `valid` or `invalid`.
let validateSARIF = """
  import json, sys, jsonschema
  schema = json.load(open(sys.argv[1]))
  log = json.load(open(sys.argv[2]))
  validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
  errors = sorted(validator.iter_errors(log), key=lambda e: (list(map(str, e.absolute_path)), e.message))
  for error in errors:
      print("/".join(map(str, error.absolute_path)) + ": " + error.message)
  print("invalid" if errors else "valid")
  """

/// Events at four sites of a source tree that has a decoy `ContentView.swift` in another module.
struct CISourceFixture {
  let root: String
  let events: String

  init() throws {
    root = try temporaryTree([
      "Sources/App/ContentView.swift", "Sources/Other/ContentView.swift",
      "Sources/App/Views/Detail.swift", ".build/checkouts/Dep/Sources/App/Detail.swift",
    ])
    var labelled = fixtureEvent(seq: 1, suppressed: 9)
    labelled.label = "save-alert"
    var detail = fixtureEvent(
      seq: 2, kind: .unwrappedReadAfterNil, file: "App/Detail.swift", line: 7,
      at: "2026-11-30T05:00:00.000000Z")
    detail.level = .info
    events = try writeFixture(
      jsonLines([
        labelled,
        detail,
        fixtureEvent(seq: 3, file: "Third/ContentView.swift", line: 3),
        fixtureEvent(seq: 4, kind: .unwrappedWriteAfterNil, file: "Gone/Gone.swift", line: 5),
      ]))
  }

  /// What `--source-root` says on standard error about the two sites it cannot resolve.
  func unresolvedWarnings(root: String) -> String {
    """
    warning: cannot resolve Gone/Gone.swift under \(root): no file named Gone.swift; reported as the file ID
    warning: cannot resolve Third/ContentView.swift under \(root): 2 files named ContentView.swift (Sources/App/ContentView.swift, Sources/Other/ContentView.swift), not one alone in a folder named after the module; reported as the file ID

    """
  }
}

@Suite struct BindiagSARIFTests {
  @Test func sourceRootPrefersTheModuleFolderOverADecoy() throws {
    let fixture = try CISourceFixture()
    let result = try runProduct(
      "bindiag", ["summary", "--format", "github", "--source-root", ".", fixture.events],
      directory: fixture.root)
    #expect(result.status == 0)
    #expect(result.stderr == fixture.unresolvedWarnings(root: "."))
    #expect(
      result.stdout == """
        ::error file=Sources/App/ContentView.swift,line=42,title=mapped-bool-set-true (bindiag)::A Binding<Bool> mapped from an optional was set to true: 10 events in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC, label "save-alert".
        ::error file=Third/ContentView.swift,line=3,title=mapped-bool-set-true (bindiag)::A Binding<Bool> mapped from an optional was set to true: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.
        ::notice file=Sources/App/Views/Detail.swift,line=7,title=unwrapped-read-after-nil (bindiag)::A binding unwrapped from an optional was read after it became nil: 1 event in 1 record, first seen 2026-11-30 05:00:00 UTC, last seen 2026-11-30 05:00:00 UTC.
        ::warning file=Gone/Gone.swift,line=5,title=unwrapped-write-after-nil (bindiag)::A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.

        """)
  }

  @Test func pathsAreRelativeToTheSourceRootHoweverItIsGiven() throws {
    let fixture = try CISourceFixture()
    let parent = URL(fileURLWithPath: fixture.root).deletingLastPathComponent().path
    let name = URL(fileURLWithPath: fixture.root).lastPathComponent
    for root in ["./\(name)/", fixture.root, parent + "/./\(name)"] {
      let result = try runProduct(
        "bindiag",
        [
          "summary", "--format", "github", "--source-root", root, "--kind",
          "unwrapped-read-after-nil", fixture.events,
        ],
        directory: parent)
      #expect(result.status == 0)
      #expect(result.stderr == "")
      #expect(
        result.stdout.hasPrefix("::notice file=Sources/App/Views/Detail.swift,line=7,"), "\(root)")
    }
  }

  @Test func pathsLeadingOutsideTheSourceRootAreNeverWritten() throws {
    let events = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, file: "../../../../etc/passwd", line: 1),
        fixtureEvent(seq: 2, file: "/etc/shadow", line: 2),
        fixtureEvent(seq: 3, file: "App/../../x.swift", line: 3),
      ]))
    // A root holding files of those names, and the file system's root.
    let root = try temporaryTree(["etc/passwd", "etc/shadow", "x.swift"])
    let github = try bindiag("summary", "--format", "github", "--source-root", root, events)
    #expect(github.status == 0)
    #expect(
      github.stderr == """
        warning: ../../../../etc/passwd is not a #fileID (Module/File.swift); reported without a file
        warning: /etc/shadow is not a #fileID (Module/File.swift); reported without a file
        warning: App/../../x.swift is not a #fileID (Module/File.swift); reported without a file

        """)
    // No file: the annotations belong to the run, not to a path.
    let lines = github.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    for line in lines {
      #expect(line.hasPrefix("::error title=mapped-bool-set-true (bindiag)::A Binding<Bool>"))
    }
    let atSlash = try bindiag("summary", "--format", "github", "--source-root", "/", events)
    #expect(atSlash.stdout == github.stdout)
    let sarif = try bindiag("summary", "--format", "sarif", "--source-root", root, events)
    #expect(sarif.status == 0)
    #expect(!sarif.stdout.contains("\"uri\": \"%2F"))
    #expect(!sarif.stdout.contains("artifactLocation"))
    #expect(sarif.stdout.contains("\"name\": \"../../../../etc/passwd\""))
  }

  @Test func sarifPointsEachResultAtItsResolvedFile() throws {
    let fixture = try CISourceFixture()
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", fixture.root, fixture.events)
    #expect(result.status == 0)
    #expect(result.stderr == fixture.unresolvedWarnings(root: fixture.root))
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    let locations = results.map { result -> String in
      let physical =
        ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
      let uri = (physical?["artifactLocation"] as? [String: String])?["uri"] ?? "?"
      let line = (physical?["region"] as? [String: Int])?["startLine"] ?? 0
      return "\(result["ruleId"] as? String ?? "?") \(uri):\(line)"
    }
    #expect(
      locations == [
        "mapped-bool-set-true Sources/App/ContentView.swift:42",
        "mapped-bool-set-true Third/ContentView.swift:3",
        "unwrapped-read-after-nil Sources/App/Views/Detail.swift:7",
        "unwrapped-write-after-nil Gone/Gone.swift:5",
      ])
    let root = URL(fileURLWithPath: fixture.root).standardizedFileURL.path
    #expect(
      (run["originalUriBaseIds"] as? [String: [String: String]])
        == ["%SRCROOT%": ["uri": "file://\(root)/"]])
  }

  @Test(
    .enabled(
      if: schemaValidatorAvailable,
      "Python jsonschema and rfc3986-validator not installed (pip install jsonschema rfc3986-validator)"
    ))
  func sarifIsValidAgainstTheSchema() throws {
    let fixture = try CISourceFixture()
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", fixture.root, fixture.events)
    let path = try temporaryFile(result.stdout, name: "bindiag.sarif")
    let validation = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, path])
    #expect(validation.stderr == "")
    #expect(validation.stdout == "valid\n")
    #expect(validation.status == 0)

    // The validator is live: a wrong level and a URI with a space are both refused.
    let broken = result.stdout.replacingOccurrences(
      of: #""level": "note""#, with: #""level": "info""#
    )
    .replacingOccurrences(of: "Gone/Gone.swift\"", with: "Gone/Gone me.swift\"")
    let brokenPath = try temporaryFile(broken, name: "broken.sarif")
    let refused = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, brokenPath])
    #expect(
      refused.stdout == """
        runs/0/results/2/level: 'info' is not one of ['none', 'note', 'warning', 'error']
        runs/0/results/3/locations/0/physicalLocation/artifactLocation/uri: 'Gone/Gone me.swift' is not a 'uri-reference'
        runs/0/tool/driver/rules/1/defaultConfiguration/level: 'info' is not one of ['none', 'note', 'warning', 'error']
        invalid

        """)
  }

  @Test(
    .enabled(
      if: schemaValidatorAvailable,
      "Python jsonschema and rfc3986-validator not installed (pip install jsonschema rfc3986-validator)"
    ))
  func anEmptyRunIsValidToo() throws {
    let result = try bindiag("summary", "--format", "sarif", stdin: "")
    #expect(result.status == 0)
    let path = try temporaryFile(result.stdout, name: "empty.sarif")
    let validation = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, path])
    #expect(validation.stdout == "valid\n")
  }

  @Test(
    .enabled(
      if: schemaValidatorAvailable,
      "Python jsonschema and rfc3986-validator not installed (pip install jsonschema rfc3986-validator)"
    ))
  func hostileSitesStayValid() throws {
    let files = [
      "App/with space.swift", "App/quote\"d.swift", "App/new\nline.swift", "App/tab\t.swift",
      "Feature/ünïcode 😀.swift", "App/a=b%20c#d?.swift", "", "NoModule.swift", "a:b/c.swift",
    ]
    var events: [MisuseEvent] = []
    for (index, file) in files.enumerated() {
      var event = fixtureEvent(
        seq: index + 1, kind: MisuseKind.builtIn[index % 3], file: file,
        line: [0, 7, 1, 9_007_199_254_740_991][index % 4])
      event.label = index % 2 == 0 ? "label \u{1b}[31m\r\n\"x\"" : nil
      events.append(event)
    }
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", try temporaryDirectory(),
      try writeFixture(jsonLines(events)))
    #expect(result.status == 0)
    #expect(result.stdout.components(separatedBy: #""ruleId": "#).count - 1 == files.count)
    let path = try temporaryFile(result.stdout, name: "hostile.sarif")
    let validation = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, path])
    #expect(validation.stdout == "valid\n")
  }

  @Test(.enabled(if: sarifTools != nil, "sarif-tools not installed (pip install sarif-tools)"))
  func sarifToolsReadsTheResultsBack() throws {
    let fixture = try CISourceFixture()
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", fixture.root, fixture.events)
    let directory = try temporaryDirectory()
    let sarifPath = directory + "/bindiag.sarif"
    try result.stdout.write(toFile: sarifPath, atomically: true, encoding: .utf8)
    let csvPath = directory + "/results.csv"
    let csv = try runProduct(sarifTools!, ["csv", "--output", csvPath, sarifPath])
    #expect(csv.status == 0)
    // sarif-tools orders rows by severity, then description.
    let rows = try String(contentsOfFile: csvPath, encoding: .utf8)
    #expect(
      rows == """
        Tool,Severity,Code,Description,Location,Line
        bindiag,error,mapped-bool-set-true,"A Binding<Bool> mapped from an optional was set to true: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.",Third/ContentView.swift,3
        bindiag,error,mapped-bool-set-true,"A Binding<Bool> mapped from an optional was set to true: 10 events in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC, label ""save-alert"".",Sources/App/ContentView.swift,42
        bindiag,warning,unwrapped-write-after-nil,"A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.",Gone/Gone.swift,5
        bindiag,note,unwrapped-read-after-nil,"A binding unwrapped from an optional was read after it became nil: 1 event in 1 record, first seen 2026-11-30 05:00:00 UTC, last seen 2026-11-30 05:00:00 UTC.",Sources/App/Views/Detail.swift,7

        """)
    let summary = try runProduct(sarifTools!, ["summary", sarifPath])
    #expect(summary.status == 0)
    #expect(summary.stdout.contains("error: 2\n"))
    #expect(summary.stdout.contains("warning: 1\n"))
    #expect(summary.stdout.contains("note: 1\n"))
  }
}
