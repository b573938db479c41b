import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Xcode's runtime issues, through the seam the Apple path uses: when a misuse raises one, with
/// which text, and once per site per rate-limit interval.
@Suite struct RuntimeWarningTests {
  /// The warnings an outlet was sent, and a clock the test moves.
  private final class Outlet: Sendable {
    let sent = Lock<[String]>([])
    let now = Lock<Double>(100)

    func make() -> RuntimeWarning.Outlet {
      RuntimeWarning.Outlet(clock: { self.now.withLock { $0 } }) { text, _ in
        self.sent.withLock { $0.append(text) }
      }
    }

    var texts: [String] { sent.withLock { $0 } }
  }

  private func pipeline(interval: Double = 1, runtimeWarnings: Bool = true) -> Diagnostics {
    Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: RecordingSink(), rateLimit: RateLimit(burst: 1000, interval: interval),
        runtimeWarnings: runtimeWarnings))
  }

  @Test func aMisuseRaisesOneWarningNamingItsSite() {
    let outlet = Outlet()
    let line = #line + 4
    RuntimeWarning.withOutlet(outlet.make()) {
      DiagnosticsSystem.withDiagnostics(pipeline()) {
        let flag = LockedValue<String?>("Saved").binding
          .mappedToBool(label: "save-alert")
        flag.wrappedValue = true
      }
    }
    #expect(
      outlet.texts == [
        "BindingDiagnosticsTests/RuntimeWarningTests.swift:\(line): mapped-bool-set-true, label \"save-alert\", String?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."
      ])
  }

  @Test func theWarningIsOneLineWhateverTheLabel() {
    let outlet = Outlet()
    RuntimeWarning.withOutlet(outlet.make()) {
      DiagnosticsSystem.withDiagnostics(pipeline()) {
        LockedValue<String?>("Saved").binding
          .mappedToBool(label: "row\n\u{1b}[2Jforged").wrappedValue = true
      }
    }
    #expect(outlet.texts.count == 1)
    #expect(outlet.texts.allSatisfy { !$0.contains("\n") && !$0.contains("\u{1b}") })
    #expect(outlet.texts.first?.contains(#"label "row\u000a\u001b[2Jforged""#) == true)
  }

  @Test func oncePerSitePerRateInterval() {
    let outlet = Outlet()
    let diagnostics = pipeline(interval: 5)
    let flag = LockedValue<Int?>(1).binding.mappedToBool(label: "loop")
    let other = LockedValue<Int?>(2).binding.mappedToBool()
    RuntimeWarning.withOutlet(outlet.make()) {
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        for _ in 0..<3 { flag.wrappedValue = true }
        other.wrappedValue = true
        outlet.now.withLock { $0 += 4.9 }
        flag.wrappedValue = true
        outlet.now.withLock { $0 += 0.1 }
        flag.wrappedValue = true
      }
    }
    #expect(outlet.texts.map { $0.contains("label \"loop\"") } == [true, false, true])
    #expect(
      outlet.texts[1].hasSuffix(
        ": mapped-bool-set-true, Int?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."
      ))
  }

  @Test func theSwitchTurnsThemOff() {
    let outlet = Outlet()
    RuntimeWarning.withOutlet(outlet.make()) {
      DiagnosticsSystem.withDiagnostics(pipeline(runtimeWarnings: false)) {
        LockedValue<String?>("Saved").binding.mappedToBool().wrappedValue = true
      }
    }
    #expect(outlet.texts.isEmpty)
  }

  @Test func noOutletNoWarningOffApplePlatforms() {
    // On Linux (and in release builds) there is no platform outlet: nothing to raise.
    #if !canImport(os)
      #expect(!RuntimeWarning.isActive)
    #endif
  }

  @Test(arguments: [
    ("Swift.Optional<Swift.String>", "String?"),
    ("Swift.Optional<Swift.Array<Inbox.Message>>", "[Message]?"),
    ("Swift.Dictionary<Swift.String, Swift.Optional<Swift.Int>>", "[String: Int?]"),
    ("Swift.Optional<MyApp.Inbox.Draft>", "Inbox.Draft?"),
    ("Swift.Optional<Swift.Set<Swift.Int>>", "Set<Int>?"),
    ("Swift.Optional<(Swift.Int, Swift.String)>", "Optional<(Int, String)>"),
  ])
  func shortTypeNames(reflected: String, short: String) {
    #expect(ShortTypeName.of(reflected) == short)
  }
}
