import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// An app's model as a new user writes one: the binding is made in a getter, and the misuse is
/// the write in a method, so the writer's line differs from the mapping's.
final class InboxModel: Sendable {
  private let alert = LockedValue<String?>("Saved")

  /// The alert's flag, made where the view would read it.
  var isAlertPresented: Binding<Bool> {
    alert.binding.mappedToBool(label: "inbox-alert")  // fixture-mark: inbox-mapping
  }

  /// Taps OK `times` times: each writes `true` to the mapped flag, a misuse.
  func tapOK(times: Int) {
    let flag = isAlertPresented
    for _ in 0..<times {
      flag.wrappedValue = true  // fixture-mark: inbox-writer
    }
  }
}
