// Stands in for SwiftUI's views where there is no SwiftUI, so that NotesView.swift compiles
// unchanged against the Linux Binding. Only what NotesView uses; nothing here renders.
import BindingDiagnostics
import Foundation

@MainActor
protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  var body: Never { return fatalError("no body") }
}

@MainActor
@resultBuilder
enum ViewBuilder {
  static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  static func buildBlock(_ content: any View...) -> Group { Group() }
  static func buildIf(_ content: Group?) -> Group { Group() }
}

/// Every view built by a closure; what it holds does not matter here.
struct Group: View {
  var body: Never { return fatalError("no body") }
}

struct Text: View {
  init(_ content: some StringProtocol) {}
  var body: Never { return fatalError("no body") }
}

struct VStack: View {
  init(@ViewBuilder content: () -> Group) { _ = content() }
  var body: Never { return fatalError("no body") }
}

struct Button: View {
  init(_ title: some StringProtocol, action: @escaping @MainActor () -> Void) {}
  var body: Never { return fatalError("no body") }
}

struct Toggle: View {
  init(_ title: some StringProtocol, isOn: Binding<Bool>) {}
  var body: Never { return fatalError("no body") }
}

struct ForEach<Data: RandomAccessCollection, Content: View>: View where Data.Element: Identifiable {
  init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
  var body: Never { return fatalError("no body") }
}

struct Alert {
  init(title: Text) {}
}

extension View {
  func alert(isPresented: Binding<Bool>, content: () -> Alert) -> Self { self }

  func alert(
    _ title: some StringProtocol, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Group
  ) -> Self { self }

  func sheet(isPresented: Binding<Bool>, @ViewBuilder content: @escaping () -> Group) -> Self {
    self
  }
}

/// SwiftUI's `@State`: storage the view does not own, and a binding to it.
@propertyWrapper
struct State<Value> {
  /// `@unchecked Sendable`, so a binding's `@Sendable` closures may share it: `value` is only
  /// touched under `lock`.
  private final class Storage: @unchecked Sendable {
    let lock = NSLock()
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  private let storage: Storage

  init(wrappedValue: Value) {
    storage = Storage(wrappedValue)
  }

  var wrappedValue: Value {
    get { storage.lock.withLock { storage.value } }
    nonmutating set { storage.lock.withLock { storage.value = newValue } }
  }

  var projectedValue: Binding<Value> {
    let storage = storage
    return Binding(
      get: { storage.lock.withLock { storage.value } },
      set: { newValue in storage.lock.withLock { storage.value = newValue } })
  }
}

extension State where Value: ExpressibleByNilLiteral {
  init() { self.init(wrappedValue: nil) }
}
