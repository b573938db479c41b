#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(os)
  import os
#endif

/// Xcode's runtime issues for misuses: in debug builds on Apple platforms, each misuse also
/// raises a purple warning naming the mapping's call site, once per site per rate-limit interval.
///
/// Xcode shows a fault logged to the `com.apple.runtime-issues` subsystem as a runtime issue when
/// the entry claims to come from a system framework's image, so the entry is logged with
/// SwiftUI's image as its `dso` (found with `dladdr(3)` from one of SwiftUI's symbols). Without
/// SwiftUI loaded there is nothing to raise. Off in release builds, and with
/// ``DiagnosticsConfiguration/runtimeWarnings`` set to `false`.
///
/// Where the warning goes is an ``Outlet``: the platform's (Apple, debug builds), or one a test
/// installs with ``withOutlet(_:operation:)`` to see the decisions (when, which text, once per
/// site) on any platform.
package enum RuntimeWarning {
  /// Where runtime warnings go, with the sites already warned about and when.
  package final class Outlet: Sendable {
    private struct Key: Hashable {
      let kind: String
      let fileID: String
      let line: Int
    }

    private let warned = Lock<[Key: Double]>([:])
    private let clock: @Sendable () -> Double
    private let send: @Sendable (_ text: String, _ site: CallSite) -> Void

    /// An outlet calling `send` with each warning's text and site.
    /// - Parameters:
    ///   - clock: Seconds on a monotonic clock; the system's by default.
    ///   - send: Shows one warning.
    package init(
      clock: @escaping @Sendable () -> Double = { MonotonicClock.seconds() },
      send: @escaping @Sendable (_ text: String, _ site: CallSite) -> Void
    ) {
      self.clock = clock
      self.send = send
    }

    /// Sends a warning for the site unless one went out less than `interval` seconds ago.
    func raise(
      _ text: @autoclosure () -> String, kind: MisuseKind, site: CallSite, interval: Double
    ) {
      let key = Key(kind: kind.code, fileID: site.fileID, line: site.line)
      let now = clock()
      let due = warned.withLock { warned -> Bool in
        if let last = warned[key], now - last < interval { return false }
        warned[key] = now
        return true
      }
      if due { send(text(), site) }
    }
  }

  /// The outlet a test installed on this task.
  @TaskLocal static var installed: Outlet?

  /// Runs `operation` with runtime warnings going to `outlet` on this task and its child tasks.
  /// - Parameters:
  ///   - outlet: Where warnings go.
  ///   - operation: The work.
  /// - Returns: What `operation` returns.
  package static func withOutlet<R>(_ outlet: Outlet, operation: () throws -> R) rethrows -> R {
    outletInstalled.set()
    return try $installed.withValue(outlet, operation: operation)
  }

  /// Set once a test installed an outlet: while none has, a misuse reads no task-local value for
  /// it, which would cost as much as the rest of the policy. A misuse can find an outlet only in
  /// a task that runs inside `withOutlet`, that is, after the latch was set on its thread or
  /// in its creator's (whose start orders it after that), so the latch's own ordering is
  /// not what keeps it right; its load costs what a relaxed one does on x86-64 and ARMv8.
  private static let outletInstalled = Latch()

  /// Whether a misuse here raises a warning: an installed outlet, or the platform's.
  package static var isActive: Bool { current != nil }

  private static var current: Outlet? {
    (outletInstalled.isSet ? installed : nil) ?? platform
  }

  /// Raises the warning for one misuse, at most once per site per `interval` seconds.
  static func raise(_ misuse: Misuse, interval: Double) {
    current?.raise(text(misuse), kind: misuse.kind, site: misuse.site, interval: interval)
  }

  /// The warning's text: the site, the kind, the label and a short type, then the sentence, on
  /// one line (control characters escaped, as in the human line).
  ///
  /// `Inbox/InboxView.swift:31: mapped-bool-set-true, label "save-alert", String?: A
  /// Binding<Bool> mapped from an optional was set to true; the write had no effect.`
  package static func text(_ misuse: Misuse) -> String {
    var text = "\(misuse.site.fileID):\(misuse.site.line): \(misuse.kind.code)"
    text += misuse.label.map { ", label \"\($0)\"" } ?? ""
    return LogfmtEscaping.escapingControls(
      text + ", \(ShortTypeName.of(misuse.valueType)): \(misuse.message)")
  }

  #if canImport(os) && DEBUG
    /// Xcode's runtime issues, when SwiftUI is loaded.
    private static let platform: Outlet? = SwiftUIImage.address.map { dso in
      let log = OSLog(subsystem: "com.apple.runtime-issues", category: "BindingDiagnostics")
      return Outlet { text, _ in
        text.withCString { os_log(.fault, dso: dso.pointer, log: log, "%{public}s", $0) }
      }
    }

    /// The load address of SwiftUI's image, which Xcode takes runtime issues from.
    private struct SwiftUIImage: @unchecked Sendable {
      // A constant address, never dereferenced here; only handed to `os_log`.
      let pointer: UnsafeRawPointer

      /// SwiftUI's image, found from the `SwiftUI.View` protocol descriptor with `dlsym(3)` and
      /// `dladdr(3)`; `nil` when SwiftUI is not loaded.
      static let address: SwiftUIImage? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "$s7SwiftUI4ViewMp") else { return nil }
        var info = Dl_info()
        guard dladdr(symbol, &info) != 0, let base = info.dli_fbase else { return nil }
        return SwiftUIImage(pointer: UnsafeRawPointer(base))
      }()
    }
  #else
    /// No runtime issues outside Apple platforms' debug builds.
    private static let platform: Outlet? = nil
  #endif
}
