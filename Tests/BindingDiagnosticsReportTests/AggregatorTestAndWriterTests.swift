import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

/// Events added one by one (as the journal and standard input are read) group by `test` and
/// `writer`, and a site's group keeps the writers of its records.
@Suite struct AggregatorTestAndWriterTests {
  private func event(seq: Int, test: String?, writer: String?, suppressed: Int = 0) -> MisuseEvent {
    MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: 1_000_000 * Int64(seq)), level: .error,
      kind: .mappedBoolSetTrue, message: "A misuse.", file: "InboxKit/InboxModel.swift",
      line: 18, function: "body", valueType: "Swift.Optional<Swift.String>", valuePresent: true,
      test: test, writer: writer, process: "Demo", pid: 1, host: "build-01",
      run: "0123456789abcdef", seq: seq, suppressed: suppressed)
  }

  private var events: [MisuseEvent] {
    [
      event(seq: 1, test: "T/a()", writer: "InboxKit/InboxModel.swift:35", suppressed: 2),
      event(seq: 2, test: "T/b()", writer: "InboxKit/InboxView.swift:61"),
      event(seq: 3, test: nil, writer: nil),
      event(seq: 4, test: "T/a()", writer: "InboxKit/InboxView.swift:61"),
    ]
  }

  @Test func groupsByTest() {
    var aggregator = Aggregator(groupBy: [.test])
    for event in events { aggregator.add(event) }
    let groups = aggregator.summary().groups
    #expect(groups.map { $0.key.map(\.description) } == [["T/a()"], [""], ["T/b()"]])
    #expect(groups.map(\.events) == [4, 1, 1])
  }

  @Test func groupsByWriter() {
    var aggregator = Aggregator(groupBy: [.writer])
    for event in events { aggregator.add(event) }
    let groups = aggregator.summary().groups
    #expect(
      groups.map { $0.key.map(\.description) } == [
        ["InboxKit/InboxModel.swift:35"], ["InboxKit/InboxView.swift:61"], [""],
      ])
    #expect(groups.map(\.events) == [3, 2, 1])
  }

  @Test func aSiteKeepsItsWriters() {
    var aggregator = Aggregator()
    for event in events { aggregator.add(event) }
    let groups = aggregator.summary().groups
    #expect(groups.count == 1)
    #expect(
      groups.first?.writers == ["InboxKit/InboxModel.swift:35", "InboxKit/InboxView.swift:61"])
  }
}
