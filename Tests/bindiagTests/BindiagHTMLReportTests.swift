import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Debian's Chromium, if installed (`.ci/run` installs it).
let chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// `bindiag summary --format html` checked in a real browser: headless Chromium loads the page
/// from a file, runs its script, and the tests read the DOM it ends with (or its screenshot).
@Suite(.enabled(if: chromiumPath != nil, "chromium is not installed (apt-get install chromium)"))
struct BindiagHTMLReportTests {
  /// Three call sites over two hours on two hosts: one record folding 40 misuses, a label, a
  /// lost record, and a file name that is an HTML injection attempt.
  static let events: [MisuseEvent] = {
    var save = fixtureEvent(seq: 1, at: "2026-11-30T04:00:00.000000Z", suppressed: 39)
    save.label = "save-alert"
    var again = fixtureEvent(seq: 2, at: "2026-11-30T05:59:00.000000Z", host: "build-02")
    again.label = "save-alert"
    let detail = fixtureEvent(
      seq: 3, kind: .unwrappedWriteAfterNil, file: "Inbox/Views/MessageDetailView.swift", line: 7,
      at: "2026-11-30T05:00:00.000000Z")
    var hostile = fixtureEvent(
      seq: 5, kind: .unwrappedReadAfterNil,
      file: #"Evil/<img src=x onerror="document.title='pwned'">.swift"#, line: 1,
      at: "2026-11-30T06:00:00.000000Z")
    hostile.label = "</script><script>document.title='pwned'</script>"
    return [save, again, detail, hostile]
  }()

  /// Writes the report of ``events`` and returns its path.
  func report(_ extra: [String] = []) throws -> String {
    let input = try writeFixture(jsonLines(Self.events))
    let result = try bindiag(arguments: ["summary", "--format", "html"] + extra + [input])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let path = try temporaryDirectory() + "/report.html"
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Runs headless Chromium on `path` (with `fragment`) and returns what it printed and the
  /// page's console messages.
  func chromium(_ arguments: [String], _ path: String, fragment: String = "") throws -> (
    output: String, console: [String]
  ) {
    let profile = try temporaryDirectory()
    let result = try runProduct(
      chromiumPath!,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--user-data-dir=\(profile)", "--enable-logging=stderr",
        "--v=0",
      ] + arguments + ["file://\(path)" + (fragment.isEmpty ? "" : "#" + fragment)])
    #expect(result.status == 0, "\(result.stderr)")
    let console = result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
    return (result.stdout, console.map(String.init))
  }

  /// The DOM after the page's script ran.
  func renderedDOM(_ path: String, fragment: String = "") throws -> String {
    let (dom, console) = try chromium(["--dump-dom"], path, fragment: fragment)
    #expect(console.isEmpty, "the page logged: \(console)")
    #expect(dom.contains(#"<html lang="en" data-ready="true">"#), "the script did not finish")
    return dom
  }

  /// The table's rows as rendered, in order: their site (tags removed) and whether hidden.
  func rows(_ dom: String) -> [(site: String, hidden: Bool)] {
    return groupRows(dom).map { row in
      let opening = row.prefix { $0 != ">" }
      let site = row.components(separatedBy: #"<td class="key site"><code>"#)[1]
        .components(separatedBy: "</code>")[0]
        .replacingOccurrences(of: "</?span>", with: "", options: .regularExpression)
      return (site, opening.contains("hidden"))
    }
  }

  /// The group table's rows, in order, from their attributes on.
  func groupRows(_ dom: String) -> [String] {
    let table = dom.components(separatedBy: #"<table id="groups""#)[1]
    let body = table.components(separatedBy: "<tbody>")[1].components(separatedBy: "</tbody>")[0]
    return Array(body.components(separatedBy: "<tr ").dropFirst())
  }

  @Test func theReportIsOneSelfContainedPage() throws {
    let html = try String(contentsOfFile: try report(), encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>\n"))
    // Nothing is fetched: no URL at all, no src or href, and a policy that forbids loading.
    #expect(!html.contains("://"))
    #expect(!html.contains(" src=\"") && !html.contains(" href="))
    #expect(
      html.contains(
        #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">"#
      ))
    #expect(html.components(separatedBy: "<script>").count == 2)
    #expect(html.components(separatedBy: "<style>").count == 2)
  }

  @Test func chromiumShowsTotalsLostRecordsAndATimelinePerGroup() throws {
    let dom = try renderedDOM(try report())
    #expect(dom.contains(#"<div class="total" id="total-events"><b>43</b> events</div>"#))
    #expect(dom.contains(#"<div class="total" id="total-records"><b>4</b> records</div>"#))
    #expect(dom.contains(#"<div class="total alert" id="total-lost"><b>1</b> lost record</div>"#))
    #expect(dom.contains(#"<section class="lost" id="lost" role="alert">"#))
    #expect(dom.contains("<h2>1 lost record in 1 run</h2>"))
    #expect(
      dom.contains(
        "<tr><td>Demo</td><td>build-01</td><td><code>0123456789abcdef</code></td><td class=\"num\">1</td><td class=\"num\">0</td></tr>"))
    #expect(dom.contains(#"<span id="shown" aria-live="polite">3 of 3 groups</span>"#))
    // A timeline per group: eight bars whose counts are the group's events, the 39 folded
    // into the first record included.
    let groupRows = groupRows(dom)
    #expect(groupRows.count == 3)
    for row in groupRows {
      let counts = row.matches(of: /<rect [^>]*data-count="(\d+)"/).map { Int($0.1)! }
      #expect(counts.count == 8)
      let events = try #require(row.firstMatch(of: /<td class="num" data-value="(\d+)">/))
      #expect(counts.reduce(0, +) == Int(events.1)!)
    }
    #expect(
      groupRows.first?.contains(
        "<title>2026-11-30 04:00:00 to 2026-11-30 04:15:00: 40 events</title>") == true)
    // The overview sums every group.
    let overview = dom.components(separatedBy: #"<section id="overview">"#)[1]
      .components(separatedBy: "</section>")[0]
    #expect(overview.matches(of: /data-count="(\d+)"/).map { Int($0.1)! }.reduce(0, +) == 43)
  }

  @Test func sortingAndFilteringRunInTheBrowser() throws {
    let path = try report()
    func sites(_ dom: String) -> [String] { rows(dom).map { String($0.site.prefix(5)) } }
    // As rendered: events descending, then key ascending.
    let byEvents = try renderedDOM(path)
    #expect(sites(byEvents) == ["App/C", "Evil/", "Inbox"])
    #expect(byEvents.contains(#"<table id="groups" data-sorted-by="events desc">"#))
    let bySite = try renderedDOM(path, fragment: "sort=site&order=desc")
    #expect(bySite.contains(#"<table id="groups" data-sorted-by="site desc">"#))
    #expect(sites(bySite) == ["Inbox", "Evil/", "App/C"])
    #expect(bySite.contains(#"<th data-sort="site" tabindex="0" aria-sort="descending">Site</th>"#))
    // Ties keep the rendered order.
    #expect(
      sites(try renderedDOM(path, fragment: "sort=events&order=asc")) == [
        "Evil/", "Inbox", "App/C",
      ])
    #expect(sites(try renderedDOM(path, fragment: "sort=last")) == ["Inbox", "App/C", "Evil/"])
    let filtered = try renderedDOM(path, fragment: "filter=detailview")
    #expect(rows(filtered).map(\.hidden) == [true, true, false])
    #expect(filtered.contains(#"<span id="shown" aria-live="polite">1 of 3 groups</span>"#))
    #expect(filtered.contains(#"<input id="filter" type="search""#))
    let level = try renderedDOM(path, fragment: "level=error&filter=save-alert")
    #expect(rows(level).map(\.hidden) == [false, true, true])
    #expect(level.contains(#"<span id="shown" aria-live="polite">1 of 3 groups</span>"#))
  }

  @Test func textFromTheInputStaysText() throws {
    let dom = try renderedDOM(try report())
    #expect(dom.contains("<title>Binding misuse report</title>"))
    #expect(!dom.contains("pwned</title>"))
    #expect(!dom.contains("<img"))
    #expect(dom.contains("&lt;/script&gt;&lt;script&gt;document.title="))
  }

  /// Issue 22.3: input of any size keeps the page's layout at 1280 px: a page around the
  /// report measures, in Chromium, whether any element reaches past the window's right edge.
  @Test func anyInputKeepsTheLayoutAt1280Pixels() throws {
    var huge = fixtureEvent(seq: 1)
    huge.label = String(repeating: "x", count: 200_000)
    var wide = fixtureEvent(
      seq: 2, kind: MisuseKind(code: String(repeating: "abcdefg-", count: 7) + "end")!,
      file: String(repeating: "P", count: 5_000) + ".swift", line: 7,
      host: String(repeating: "H", count: 3_000))
    wide.valueType = String(repeating: "T", count: 3_000)
    var deep = fixtureEvent(
      seq: 5, file: Array(repeating: "Deep", count: 300).joined(separator: "/") + "/V.swift",
      line: 1, process: String(repeating: "Q", count: 4_000))
    deep.label = String(repeating: "y ", count: 3_000)
    let input = try writeFixture(jsonLines([huge, wide, deep]))
    let result = try bindiag("summary", "--format", "html", input)
    #expect(result.status == 0)
    #expect(result.stdout.utf8.count < 64_000)
    let directory = try temporaryDirectory()
    try result.stdout.write(toFile: directory + "/report.html", atomically: true, encoding: .utf8)
    let probe = directory + "/probe.html"
    try """
    <!DOCTYPE html><html><body style="margin:0">
    <iframe id="f" src="report.html" style="width:1280px;height:1040px;border:0"></iframe>
    <script>
    document.getElementById("f").onload = function () {
      var page = document.getElementById("f").contentDocument;
      var edge = page.documentElement.clientWidth;
      var past = Array.prototype.filter.call(page.querySelectorAll("body *"), function (e) {
        return e.getBoundingClientRect().right > edge + 0.5;
      }).map(function (e) { return e.tagName; });
      document.body.setAttribute("data-width", page.documentElement.scrollWidth + "/" + edge);
      document.body.setAttribute("data-past", past.join(" ") || "none");
    };
    </script></body></html>
    """.write(toFile: probe, atomically: true, encoding: .utf8)
    let (dom, _) = try chromium(
      ["--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom"], probe)
    #expect(dom.contains(#"data-past="none""#), "\(dom.prefix(600))")
    // The window less its scroll bar.
    #expect(dom.contains(#"data-width="1265/1265""#), "\(dom.prefix(600))")
  }

  @Test func aScreenshotShowsThePage() throws {
    // The README's sample, not the hostile one.
    let sample = try writeFixture(jsonLines(TriageDay.events))
    let html = try bindiag("summary", "--format", "html", sample)
    let path = try temporaryDirectory() + "/report.html"
    try html.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    let png = try temporaryDirectory() + "/report.png"
    let (_, console) = try chromium(
      ["--screenshot=\(png)", "--window-size=1280,1040", "--hide-scrollbars"], path)
    #expect(console.isEmpty)
    let data = try Data(contentsOf: URL(fileURLWithPath: png))
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 1280 && height == 1040)
    // What a person sees: the timelines' bars and the lost records called out in red.
    let colours = try pixelCounts(png, ["3b6fb6", "c62828"])
    #expect(colours["3b6fb6", default: 0] > 20_000, "\(colours)")
    #expect(colours["c62828", default: 0] > 1_000, "\(colours)")
    // `BINDIAG_UPDATE_SNAPSHOTS=1 swift test --filter aScreenshotShowsThePage` refreshes the
    // README's picture.
    if ProcessInfo.processInfo.environment["BINDIAG_UPDATE_SNAPSHOTS"] == "1" {
      let snapshot = TriageDay.snapshots.appendingPathComponent("report.png")
      try? FileManager.default.removeItem(at: snapshot)
      try data.write(to: snapshot)
    }
  }
}

/// How many pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced, as Chromium writes)
/// have each of `colours` (`rrggbb`), decoded by Python's zlib.
func pixelCounts(_ png: String, _ colours: [String]) throws -> [String: Int] {
  let script = #"""
    import json, struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and kind in (2, 6), (depth, kind)
    channels = 3 if kind == 2 else 4
    raw, at = b"", 8
    while at < len(data):
        length, name = struct.unpack(">I4s", data[at:at + 8])
        if name == b"IDAT":
            raw += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(raw)
    stride = width * channels
    previous = bytearray(stride)
    wanted = {bytes.fromhex(c): c for c in sys.argv[2:]}
    counts = dict.fromkeys(sys.argv[2:], 0)
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + left) & 255
            elif kind == 2: line[i] = (line[i] + up) & 255
            elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        for x in range(0, stride, channels):
            name = wanted.get(bytes(line[x:x + 3]))
            if name: counts[name] += 1
        previous = line
    print(json.dumps(counts))
    """#
  let result = try runProduct("/usr/bin/env", ["python3", "-c", script, png] + colours)
  try #require(result.status == 0, "\(result.stderr)")
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  return try #require(object as? [String: Int])
}
