import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct MappingTests {
  @Test func readsPresenceAndWritingFalseClears() {
    let alert = Box<String?>("Saved")
    let (events, _) = recordingMisuses {
      let flag = alert.binding.mappedToBool()
      #expect(flag.wrappedValue == true)
      flag.wrappedValue = false
      #expect(alert.value == nil)
      #expect(flag.wrappedValue == false)
      flag.wrappedValue = false
    }
    #expect(events.isEmpty)
  }

  @Test func oneCallSiteMappingTwoValueTypesNamesEach() throws {
    func flag<Wrapped>(_ box: Box<Wrapped?>) -> Binding<Bool> { box.binding.mappedToBool() }
    let (events, _) = recordingMisuses {
      for _ in 0..<2 {
        flag(Box<Int?>(1)).wrappedValue = true
        flag(Box<String?>(nil)).wrappedValue = true
      }
    }
    #expect(
      events.map(\.valueType) == [
        "Swift.Optional<Swift.Int>", "Swift.Optional<Swift.String>",
        "Swift.Optional<Swift.Int>", "Swift.Optional<Swift.String>",
      ])
    #expect(events.map(\.valuePresent) == [true, false, true, false])
    #expect(Set(events.map(\.line)).count == 1)
    #expect(events.allSatisfy { $0.function == "flag(_:)" && $0.file == #fileID })
  }

  @Test func writingTrueChangesNothingAndReportsWithTheCallSite() throws {
    let alert = Box<String?>("Saved")
    let (events, line) = recordingMisuses { () -> Int in
      let line = #line + 1
      let flag = Binding<Bool>(mappedTo: alert.binding, label: "save-alert")
      flag.wrappedValue = true
      return line
    }
    #expect(alert.value == "Saved")
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.kind == .mappedBoolSetTrue)
    #expect(event.level == .error)
    #expect(event.file == #fileID)
    #expect(event.line == line)
    #expect(event.function == "writingTrueChangesNothingAndReportsWithTheCallSite()")
    #expect(event.valueType == "Swift.Optional<Swift.String>")
    #expect(event.valuePresent == true)
    #expect(event.value == "<private>")
    #expect(event.label == "save-alert")
    #expect(event.seq == 1)
    #expect(event.suppressed == 0)
  }

  @Test func writingTrueWhileNilReportsNoValue() throws {
    let alert = Box<Int?>(nil)
    let (events, _) = recordingMisuses {
      alert.binding.mappedToBool().wrappedValue = true
    }
    let event = try #require(events.first)
    #expect(event.valuePresent == false)
    #expect(event.value == nil)
    #expect(alert.value == nil)
  }

  @Test func defaultMappingStoresTheDefaultWithoutReporting() {
    let sheet = Box<String?>(nil)
    let evaluated = Box(0)
    let (events, _) = recordingMisuses {
      let flag = sheet.binding.mappedToBool(
        default: {
          evaluated.value += 1
          return "new"
        }())
      flag.wrappedValue = true
      #expect(sheet.value == "new")
      sheet.value = "kept"
      flag.wrappedValue = true
      #expect(sheet.value == "kept")
      flag.wrappedValue = false
      #expect(sheet.value == nil)
    }
    #expect(events.isEmpty)
    #expect(evaluated.value == 1)
  }

  @Test func unwrappingIsNilForNil() {
    let empty = Box<Int?>(nil)
    #expect(Binding(unwrapping: empty.binding) == nil)
  }

  @Test func unwrappingReadsAndWritesThroughWhilePresent() throws {
    let item = Box<Int?>(1)
    let (events, _) = try recordingMisuses {
      let value = try #require(Binding(unwrapping: item.binding))
      #expect(value.wrappedValue == 1)
      value.wrappedValue = 2
      #expect(item.value == 2)
    }
    #expect(events.isEmpty)
  }

  @Test func unwrappingKeepsTheLastValueAndReportsAfterNil() throws {
    let item = Box<String?>("first")
    let (events, _) = try recordingMisuses {
      let value = try #require(Binding(unwrapping: item.binding, label: "detail"))
      item.value = "second"
      #expect(value.wrappedValue == "second")
      item.value = nil
      #expect(value.wrappedValue == "second")
      value.wrappedValue = "third"
      #expect(item.value == nil)
    }
    #expect(events.map(\.kind) == [.unwrappedReadAfterNil, .unwrappedWriteAfterNil])
    #expect(events.map(\.level) == [.info, .warning])
    #expect(events.map(\.valuePresent) == [false, false])
    #expect(events.map(\.label) == ["detail", "detail"])
    #expect(events.map(\.seq) == [1, 2])
  }

  /// A base binding over `box` that records whether each write it receives disables animations.
  private func recordingTransactions<Value>(
    _ box: Box<Value>, into seen: Box<[Bool]>
  ) -> Binding<Value> {
    Binding(
      get: { box.value },
      set: { newValue, transaction in
        seen.value.append(transaction.disablesAnimations)
        box.value = newValue
      })
  }

  @Test func writesCarryTheMappedBindingsTransactionToTheOptional() throws {
    var quiet = Transaction()
    quiet.disablesAnimations = true
    let seen = Box<[Bool]>([])
    let alert = Box<String?>("Saved")
    let draft = Box<String?>(nil)
    let item = Box<Int?>(1)
    let (events, _) = try recordingMisuses {
      let alertBase = recordingTransactions(alert, into: seen)
      alertBase.mappedToBool().transaction(quiet).wrappedValue = false
      let draftBase = recordingTransactions(draft, into: seen)
      draftBase.mappedToBool(default: "new").transaction(quiet).wrappedValue = true
      draftBase.mappedToBool(default: "new").wrappedValue = false
      let value = try #require(Binding(unwrapping: recordingTransactions(item, into: seen)))
      value.transaction(quiet).wrappedValue = 2
    }
    #expect(events.isEmpty)
    #expect(alert.value == nil && draft.value == nil && item.value == 2)
    #expect(seen.value == [true, true, false, true])
  }

  @Test func mappedBindingsStartWithTheBasesTransaction() throws {
    var quiet = Transaction()
    quiet.disablesAnimations = true
    let seen = Box<[Bool]>([])
    let alert = Box<String?>("Saved")
    let item = Box<Int?>(1)
    let alertBase = recordingTransactions(alert, into: seen).transaction(quiet)
    let flag = alertBase.mappedToBool()
    #expect(flag.transaction.disablesAnimations)
    flag.wrappedValue = false
    alert.value = "Again"
    alertBase.mappedToBool(default: "new").wrappedValue = false
    let itemBase = recordingTransactions(item, into: seen).transaction(quiet)
    try #require(Binding(unwrapping: itemBase)).wrappedValue = 2
    #expect(seen.value == [true, true, true])
  }

  @Test func publicPrivacyShowsTheValue() throws {
    let alert = Box<String?>("Disk full")
    let (events, _) = recordingMisuses(
      configuration: DiagnosticsConfiguration(privacy: .public, rateLimit: nil)
    ) {
      alert.binding.mappedToBool().wrappedValue = true
    }
    #expect(try #require(events.first).value == "Disk full")
  }

  @Test func minimumLevelFiltersBelow() {
    let item = Box<Int?>(1)
    let (events, _) = recordingMisuses(
      configuration: DiagnosticsConfiguration(rateLimit: nil, minimumLevel: .error)
    ) {
      guard let value = Binding(unwrapping: item.binding) else { return }
      item.value = nil
      _ = value.wrappedValue
      Binding<Int?>(get: { nil }, set: { _ in }).mappedToBool().wrappedValue = true
    }
    #expect(events.map(\.kind) == [.mappedBoolSetTrue])
  }

  @Test func descriptionIsNotComputedWhenPrivate() {
    final class Loud: CustomStringConvertible {
      var described = 0
      var description: String {
        described += 1
        return "loud"
      }
    }
    let loud = Loud()
    let box = Box<Loud?>(loud)
    _ = recordingMisuses {
      box.binding.mappedToBool().wrappedValue = true
    }
    #expect(loud.described == 0)
    _ = recordingMisuses(configuration: DiagnosticsConfiguration(privacy: .public, rateLimit: nil))
    {
      box.binding.mappedToBool().wrappedValue = true
    }
    #expect(loud.described == 1)
  }
}
