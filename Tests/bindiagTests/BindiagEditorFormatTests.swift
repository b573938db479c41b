import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Vim, from Debian's `vim` package: its `gcc` compiler plugin is the editor's own reading of
/// compiler output.
let vim = executableInPath("vim")

/// Whether Python has `junitparser` (PyPI), a JUnit XML reader as CI tools use.
let junitParserAvailable: Bool = {
  guard let python = executableInPath("python3") else { return false }
  return (try? runProduct(python, ["-c", "import junitparser"]).status) == 0
}()

/// `--format gcc` and `--format junit`, read back by what editors and CI use.
@Suite struct BindiagEditorFormatTests {
  /// Three sites under a source tree: an error with a hostile label, a note, and a warning whose
  /// `#fileID` leads outside the root.
  func fixture() throws -> (root: String, events: String) {
    let root = try temporaryTree(["Sources/App/ContentView.swift", "Sources/App/Detail.swift"])
    var labelled = fixtureEvent(seq: 1, suppressed: 9)
    labelled.label = "save <&> \"x\"\u{1b}[31m"
    let events = try writeFixture(
      jsonLines([
        labelled,
        fixtureEvent(seq: 2, kind: .unwrappedReadAfterNil, file: "App/Detail.swift", line: 7),
        // seq 3 lost.
        fixtureEvent(seq: 4, kind: .unwrappedWriteAfterNil, file: "../../etc/passwd", line: 5),
      ]))
    return (root, events)
  }

  static let seen = "first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC"

  @Test func gccLinesAreOnePerSiteWithTheSeverityOfTheLevel() throws {
    let (root, events) = try fixture()
    let result = try bindiag("summary", "--format", "gcc", "--source-root", root, events)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "warning: ../../etc/passwd is not a #fileID (Module/File.swift); reported without a file\n"
    )
    #expect(
      result.stdout == """
        Sources/App/ContentView.swift:42:1: error: A Binding<Bool> mapped from an optional was set to true: 10 events in 1 record, \(Self.seen), label "save <&> "x"\\u001b[31m". [mapped-bool-set-true]
        Sources/App/Detail.swift:7:1: note: A binding unwrapped from an optional was read after it became nil: 1 event in 1 record, \(Self.seen). [unwrapped-read-after-nil]
        bindiag: warning: A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, \(Self.seen). [unwrapped-write-after-nil]

        """)
  }

  @Test(.enabled(if: vim != nil, "vim not installed (apt-get install vim)"))
  func vimsGccErrorFormatReadsEverySite() throws {
    let (root, events) = try fixture()
    let result = try bindiag("summary", "--format", "gcc", "--source-root", root, events)
    let output = try temporaryFile(result.stdout, name: "bindiag.gcc")
    let list = try temporaryDirectory() + "/quickfix.txt"
    let entry = #"bufname(e.bufnr) . "|" . e.lnum . "|" . e.col . "|" . e.type . "|" . e.valid"#
    let read = try runProduct(
      vim!,
      [
        "-es", "-u", "NONE", "-i", "NONE", "-N", "-c", "compiler gcc", "-c", "cgetfile \(output)",
        "-c", "call writefile(map(getqflist(), {_, e -> \(entry)}), '\(list)')", "-c", "qa!",
      ], directory: root)
    #expect(read.status == 0)
    // Vim's gcc format knows errors and warnings; a note is an entry of no type, as gcc's own.
    #expect(
      try String(contentsOfFile: list, encoding: .utf8) == """
        Sources/App/ContentView.swift|42|1|e|1
        Sources/App/Detail.swift|7|1||1
        |0|0||0

        """)
  }

  @Test func junitHasOneCaseASiteFailingAtChecksThreshold() throws {
    let (root, events) = try fixture()
    let result = try bindiag("check", "--format", "junit", "--source-root", root, events)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        warning: ../../etc/passwd is not a #fileID (Module/File.swift); reported without a file
        check failed: 11 events (--max-events 0), 1 lost record (--max-lost 0)

        """)
    #expect(
      result.stdout == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="bindiag" tests="3" failures="3" errors="0" time="0">
          <testsuite name="bindiag" tests="3" failures="3" errors="0" skipped="0" time="0">
            <testcase name="mapped-bool-set-true at App/ContentView.swift:42" classname="App/ContentView.swift" file="Sources/App/ContentView.swift" line="42" time="0">
              <failure type="mapped-bool-set-true" message="A Binding&lt;Bool&gt; mapped from an optional was set to true: 10 events in 1 record, \(Self.seen), label &quot;save &lt;&amp;&gt; &quot;x&quot;\\u001b[31m&quot;.">10 counted (warning and above), 11 in all (--max-events 0)</failure>
            </testcase>
            <testcase name="unwrapped-write-after-nil at ../../etc/passwd:5" classname="../../etc/passwd" time="0">
              <failure type="unwrapped-write-after-nil" message="A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, \(Self.seen).">1 counted (warning and above), 11 in all (--max-events 0)</failure>
            </testcase>
            <testcase name="lost records" classname="bindiag" time="0">
              <failure type="lost-records" message="1 lost record (--max-lost 0)">1 lost record</failure>
            </testcase>
          </testsuite>
        </testsuites>

        """)
    // Under the thresholds, the same cases pass.
    let passing = try bindiag(
      "check", "--format", "junit", "--max-events", "20", "--max-lost", "1", events)
    #expect(passing.status == 0)
    #expect(passing.stdout.contains(#"<testsuites name="bindiag" tests="3" failures="0" "#))
    // summary counts info sites too, but only warning and above fail, as check counts them.
    let summary = try bindiag("summary", "--format", "junit", events)
    #expect(summary.status == 0)
    #expect(summary.stdout.contains(#"<testsuites name="bindiag" tests="4" failures="3" "#))
    #expect(
      summary.stdout.contains(
        "line=\"7\" time=\"0\">\n      <system-out>A binding unwrapped from an optional was read after it became nil"
      ))
  }

  @Test(
    .enabled(
      if: junitParserAvailable, "Python junitparser not installed (pip install junitparser)"))
  func junitparserReadsTheReport() throws {
    let (root, events) = try fixture()
    let result = try bindiag(
      "summary", "--format", "junit", "--level", "info", "--source-root", root, events)
    let report = try temporaryFile(result.stdout, name: "bindiag.xml")
    let script = """
      import sys
      from junitparser import JUnitXml, Failure
      xml = JUnitXml.fromfile(sys.argv[1])
      for suite in xml:
          print(suite.name, suite.tests, suite.failures, suite.errors)
          for case in suite:
              failed = [r for r in case.result if isinstance(r, Failure)]
              print(case.classname, "|", case.name, "|", "failed" if failed else "passed",
                    "|", failed[0].type if failed else "")
      """
    let read = try runProduct(executableInPath("python3")!, ["-c", script, report])
    #expect(read.stderr == "")
    #expect(
      read.stdout == """
        bindiag 4 4 0
        App/ContentView.swift | mapped-bool-set-true at App/ContentView.swift:42 | failed | mapped-bool-set-true
        App/Detail.swift | unwrapped-read-after-nil at App/Detail.swift:7 | failed | unwrapped-read-after-nil
        ../../etc/passwd | unwrapped-write-after-nil at ../../etc/passwd:5 | failed | unwrapped-write-after-nil
        bindiag | lost records | failed | lost-records

        """)
  }
}
