import BindingDiagnostics
import Foundation

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Whether this process runs the fixtures: they fail on purpose, so they run only as the child
/// process `FixtureProcessTests` starts, and are skipped otherwise.
enum FixtureGate {
  static let isOn =
    ProcessInfo.processInfo.environment["BINDING_DIAGNOSTICS_TESTING_FIXTURES"] == "1"
}

/// App-like view code in a file of its own, so fixtures misuse mappings made in another file.
/// Lines the parent test looks for carry a `fixture-mark:` comment.
enum FixtureViews {
  /// An alert whose flag is written `true` `times` times.
  static func tapAlertOK(times: Int) {
    let alert = LockedValue<String?>("Saved").binding
    let isPresented = alert.mappedToBool(label: "save-alert")  // fixture-mark: views-alert
    for _ in 0..<times { isPresented.wrappedValue = true }  // fixture-mark: views-alert-writer
  }

  /// A detail view read twice and edited once after its selection was cleared.
  static func dismissDetail() {
    let selection = LockedValue<String?>("Lunch")
    let base = selection.binding
    let unwrapped = Binding(unwrapping: base, label: "detail")  // fixture-mark: views-detail
    guard let detail = unwrapped else { return }
    selection.value = nil
    _ = detail.wrappedValue  // fixture-mark: views-detail-reader
    _ = detail.wrappedValue
    detail.wrappedValue = "Dinner"  // fixture-mark: views-detail-writer
  }

  /// A detail view read once after its selection was cleared, as SwiftUI does while it animates
  /// the dismissal.
  static func peekAfterDismissal() {
    let selection = LockedValue<String?>("Lunch")
    let base = selection.binding
    let unwrapped = Binding(unwrapping: base, label: "peek")  // fixture-mark: views-read
    guard let detail = unwrapped else { return }
    selection.value = nil
    _ = detail.wrappedValue  // fixture-mark: views-read-reader
  }

  /// The correct pattern: nothing to report.
  static func editWithDefault() {
    LockedValue<String?>(nil).binding.mappedToBool(default: "Untitled").wrappedValue = true
  }

  /// A flag labelled `label`, written `true` once.
  static func misuse(label: String) {
    let binding = LockedValue<Int?>(1).binding
    binding.mappedToBool(label: label).wrappedValue = true  // fixture-mark: views-labelled
  }
}
