extension KindTable {
  /// Every built-in kind, in the order `MisuseKind.builtIn` and the catalog list them; run
  /// records last.
  package static let rows: [Row] = [
    Row(
      code: "mapped-bool-set-true", messageID: "2b9f53b872d7905613eeb68e53797657",
      defaultLevel: .error,
      role: .misuse(
        subject:
          "A Binding<Bool> mapped from an optional was set to true at @CODE_FILE@:@CODE_LINE@",
        body: """
          A flag made with mappedToBool() (or Binding<Bool>(mappedTo:)) at @CODE_FILE@:@CODE_LINE@
          reads "is the @BINDING_VALUE_TYPE@ present?". Writing false clears the optional, but writing
          true cannot invent a value, so the write had no effect: whatever the view meant to present
          was not presented.

          This usually means a control (a Toggle, a button calling `isPresented = true`) writes to a
          flag that only the optional should drive. Set the optional itself to a value to present, or
          use mappedToBool(default:) so that true stores a default value.
          """)),
    Row(
      code: "unwrapped-read-after-nil", messageID: "408dfadb7955002b716d4ab50fbd4491",
      defaultLevel: .info,
      role: .misuse(
        subject:
          "A binding unwrapped from an optional was read after it became nil at @CODE_FILE@:@CODE_LINE@",
        body: """
          A Binding made with Binding(unwrapping:) at @CODE_FILE@:@CODE_LINE@ was read after its
          @BINDING_VALUE_TYPE@ became nil. SwiftUI's own failable initializer would have crashed here;
          BindingDiagnostics returned the last non-nil value instead.

          SwiftUI does this while it animates a dismissal: the destination view is still alive for
          a moment after the value it shows was cleared. That is expected, so this kind is reported
          at level info. Reads long after a dismissal mean a view outlives its value: stop showing
          the view before clearing the optional, or read the optional directly where nil is valid.
          """)),
    Row(
      code: "unwrapped-write-after-nil", messageID: "bc5fac4ceaa67ee0a9571f1f145acecc",
      defaultLevel: .warning,
      role: .misuse(
        subject:
          "A binding unwrapped from an optional was written after it became nil at @CODE_FILE@:@CODE_LINE@",
        body: """
          A Binding made with Binding(unwrapping:) at @CODE_FILE@:@CODE_LINE@ was written after its
          @BINDING_VALUE_TYPE@ became nil. SwiftUI's own failable initializer would have crashed here;
          BindingDiagnostics dropped the write, so the user's edit was lost.

          A control (a TextField, a Stepper) kept editing a value that had already been removed.
          Disable or dismiss the control when the optional becomes nil, or write to the optional.
          """)),
    Row(
      code: "element-read-after-removal", messageID: "dd247305be2c4d0989f04225e38f18ac",
      defaultLevel: .info,
      role: .misuse(
        subject:
          "A binding to a collection element was read after the element was removed at @CODE_FILE@:@CODE_LINE@",
        body: """
          A Binding made with Binding(element:in:) or elementBindings() at @CODE_FILE@:@CODE_LINE@
          was read after the element with its id left the collection. A binding by index, as
          ForEach($items) makes, would have crashed with "Index out of range" here (or shown
          another element); BindingDiagnostics returned the element's last value instead.

          SwiftUI does this while a row or a detail view animates away after its element was
          deleted. That is expected, so this kind is reported at level info. Reads long after a
          deletion mean a view outlives its element: dismiss the view before removing the element,
          or look the element up where a missing one is valid.
          """)),
    Row(
      code: "element-write-after-removal", messageID: "f85acfe97c4c497e9481d236932560ea",
      defaultLevel: .warning,
      role: .misuse(
        subject:
          "A binding to a collection element was written after the element was removed at @CODE_FILE@:@CODE_LINE@",
        body: """
          A Binding made with Binding(element:in:) or elementBindings() at @CODE_FILE@:@CODE_LINE@
          was written after the element with its id left the collection. A binding by index would
          have crashed here or overwritten another element; BindingDiagnostics dropped the write,
          so the user's edit was lost.

          A control (a TextField, a Toggle in a row or a detail view) kept editing an element that
          had already been deleted. Disable or dismiss the control when its element is removed.
          """)),
    Row(
      code: "set-off-main-thread", messageID: "225af2e2c84a98d859d1b81a14e0f08e",
      defaultLevel: .warning,
      role: .misuse(
        subject:
          "A binding made on the main thread was written from another thread at @CODE_FILE@:@CODE_LINE@",
        body: """
          A binding made on the main thread at @CODE_FILE@:@CODE_LINE@ (a mapped, unwrapped or
          element binding, or one made with diagnosed()) was written from another thread. SwiftUI
          requires state changes on the main thread; its own runtime says only "Publishing changes
          from background threads is not allowed", without a call site, and only for @Published.
          The view may show a stale value, or the write may race with the main thread's own.

          A completion handler, a DispatchQueue block or a detached task wrote the value. Hop to
          the main thread before writing (await MainActor.run { … }, DispatchQueue.main.async, or
          make the model @MainActor). A process whose bindings are meant to be written from
          several threads turns this check off with BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK=off.
          """)),
    Row(
      code: "write-not-applied", messageID: "043e1df79d121894fb520fc6dbb65814",
      defaultLevel: .warning,
      role: .misuse(
        subject: "A write through a binding did not stick at @CODE_FILE@:@CODE_LINE@",
        body: """
          A value was written through the binding made at @CODE_FILE@:@CODE_LINE@, and reading the
          binding right after gave another value of @BINDING_VALUE_TYPE@: the control snaps back
          and the user's input is lost without a word. For a Binding<Bool> made with
          mappedToBool(), false was written and the optional stayed non-nil.

          The binding is a .constant, its setter drops or redirects the write, or it writes to a
          stale copy of the source (a struct captured by value instead of the model). Bind to the
          model's own storage. A source that legitimately changes what it stores (clamping,
          trimming) says so with diagnosed(label:normalises: true).
          """)),
    Row(
      code: "reentrant-write", messageID: "1602a1b76db8d6991739f4e08b103e2c",
      defaultLevel: .warning,
      role: .misuse(
        subject:
          "A binding was written while a write to it was still running at @CODE_FILE@:@CODE_LINE@",
        body: """
          A write through the binding made at @CODE_FILE@:@CODE_LINE@ began while another write to
          the same binding was still running on the same thread: its setter, or an observer the
          setter triggered (didSet, onChange, a publisher), wrote back into the binding. The inner
          write happened, as SwiftUI would do it, so the outer write's value was replaced while it
          was being stored; such loops also update the view twice and can recurse.

          Compute the final value before writing it once, or move the correction into the model
          (a didSet that clamps its own property needs no binding), and say normalises: true on a
          diagnosed() binding to a source that changes what it stores.
          """)),
    Row(
      code: "run-heartbeat", messageID: "0ce00da9e5601761612af530de3384ae",
      defaultLevel: .debug,
      role: .runRecord),
    Row(
      code: "run-end", messageID: "aeef9f2d799fb34e68598c1cfad41b6a",
      defaultLevel: .debug,
      role: .runRecord),
  ]
}
