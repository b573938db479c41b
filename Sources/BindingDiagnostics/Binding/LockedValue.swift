#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// State that bindings read and write from any thread: a value behind a lock, and a
/// ``binding`` to it.
///
/// On Apple platforms a view keeps such state in `@State` or an `@Observable` model and SwiftUI
/// makes the bindings. On Linux nothing does, and a `Binding`'s closures are `@Sendable`, so a
/// plain `var` of a class cannot be captured without a data-race diagnostic. Keep the state in
/// a `LockedValue` instead, as a `let` of the model:
///
/// ```swift
/// final class InboxModel: Sendable {
///   let alertText = LockedValue<String?>(nil)
///   var isShowingAlert: Binding<Bool> { alertText.binding.mappedToBool(label: "save-alert") }
///
///   func save() { alertText.value = "Saved." }
/// }
/// ```
///
/// A `@MainActor` model does the same; its bindings can then be handed to code on any thread.
/// See <doc:LinuxModels>.
///
/// A collection of `Identifiable` elements in a `LockedValue` gives element bindings that write
/// in place, one lock per write, so threads may write different elements at once:
/// `Binding(element: id, in: model.rows)` and `model.rows.elementBindings()`. See
/// <doc:CollectionElements>.
public final class LockedValue<Value: Sendable>: AtomicallyUpdatable {
  private let lock: Lock<Value>

  /// A value to bind to.
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    lock = Lock(value)
  }

  /// The value now. Each read and each write takes the lock once; use ``withLock(_:)`` to read
  /// and write in one step.
  public var value: Value {
    get { lock.withLock { $0 } }
    set { lock.withLock { $0 = newValue } }
  }

  /// Runs `body` with the value while holding the lock, so a read and a write made in it are one
  /// step no other thread sees half of.
  /// - Parameter body: Reads or changes the value; it must not use this `LockedValue` again.
  /// - Returns: What `body` returns.
  public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { value in body(&value) }
  }

  /// A binding that reads and writes ``value``: what `$property` gives a view.
  public var binding: Binding<Value> {
    Binding(get: { self.value }, set: { self.value = $0 })
  }
}
