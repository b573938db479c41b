import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

/// A small deterministic random generator (SplitMix64), so generated inputs are reproducible.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// A random but valid event.
func randomEvent(_ random: inout SeededGenerator, seq: Int = 1, run: String? = nil) -> MisuseEvent {
  let kinds = MisuseKind.builtIn
  let texts = [
    "plain", "with space", "quote\"d", "back\\slash", "new\nline", "tab\t", "ünïcode 😀", "", "a=b",
    "\u{1}\u{7f}",
  ]
  func text() -> String { texts.randomElement(using: &random)! }
  let kind = kinds.randomElement(using: &random)!
  // Mostly one day of 2026; one in four anywhere in the years 0000 to 9999 the contract allows.
  let micros =
    Int.random(in: 0..<4, using: &random) == 0
    ? Int64.random(in: -62_167_219_200_000_000...253_402_300_799_999_999, using: &random)
    : 1_796_000_000_000_000 + Int64.random(in: 0..<86_400_000_000, using: &random)
  var event = MisuseEvent(
    timestamp: Timestamp(microsecondsSinceEpoch: micros),
    level: MisuseLevel.allCases.randomElement(using: &random)!, kind: kind,
    message: "msg " + text(),
    file: ["App/A.swift", "App/B.swift", "Feature/" + text()].randomElement(using: &random)!,
    line: Int.random(in: 0..<500, using: &random), function: "body" + text(),
    valueType: "Swift.Optional<Swift.String>", valuePresent: Bool.random(using: &random),
    value: Bool.random(using: &random) ? nil : text(),
    label: Bool.random(using: &random) ? nil : text(),
    process: ["Demo", "Other App"].randomElement(using: &random)!,
    pid: Int.random(in: 1..<99_999, using: &random),
    host: ["h1", "h2"].randomElement(using: &random)!,
    run: run ?? String(format16(random.next())), seq: seq,
    suppressed: Int.random(in: 0..<3, using: &random))
  if Int.random(in: 0..<4, using: &random) == 0 { event.test = "Suite/test " + text() }
  return event
}

func format16(_ value: UInt64) -> String {
  let digits = Array("0123456789abcdef")
  return String((0..<16).map { digits[Int((value >> (60 - UInt64($0) * 4)) & 0xf)] })
}

/// Classifies `text` (one line) with a fresh classifier.
func classify(_ text: String) -> LineClass {
  var classifier = LineClassifier()
  return Array(text.utf8).withUnsafeBufferPointer { classifier.classify($0) }
}

func classifyBytes(_ bytes: [UInt8]) -> (fast: LineClass, exact: LineClass) {
  var classifier = LineClassifier()
  return bytes.withUnsafeBufferPointer {
    (classifier.classify($0), LineClassifier.classifyExactly($0))
  }
}

func line(_ event: MisuseEvent) -> String {
  var text = String(decoding: JSONLinesEncoder().encode(event), as: UTF8.self)
  text.removeLast()
  return text
}

/// The `rules` of the SARIF log `bindiag` writes for `kinds`: one event of each, at its level.
func sarifRules(of kinds: [(kind: MisuseKind, level: MisuseLevel)]) throws -> [[String: Any]] {
  var aggregator = Aggregator()
  for (index, entry) in kinds.enumerated() {
    var event = sampleEvent()
    event.kind = entry.kind
    event.level = entry.level
    event.seq = index + 1
    aggregator.add(event)
  }
  let log = try #require(
    try JSONSerialization.jsonObject(
      with: Data(SARIFRenderer(toolVersion: "1").render(aggregator.summary()).utf8))
      as? [String: Any])
  let run = try #require((log["runs"] as? [[String: Any]])?.first)
  let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
  return try #require(driver["rules"] as? [[String: Any]])
}
