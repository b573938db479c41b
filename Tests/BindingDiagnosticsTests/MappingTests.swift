import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

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
    var evaluated = 0
    let (events, _) = recordingMisuses {
      let flag = sheet.binding.mappedToBool(
        default: {
          evaluated += 1
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
    #expect(evaluated == 1)
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
    #expect(events.map(\.level) == [.warning, .warning])
    #expect(events.map(\.valuePresent) == [false, false])
    #expect(events.map(\.label) == ["detail", "detail"])
    #expect(events.map(\.seq) == [1, 2])
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
