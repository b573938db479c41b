import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns journal entries into line classes straight from the journal's bytes: numbers and the
/// time are parsed in place, and a text field's `String` is built only when its bytes differ
/// from recent entries (most fields repeat from entry to entry).
struct JournalEntryDecoder {
  private var caches = [StringCache](
    repeating: StringCache(), count: EventDecoder.journalFields.count)
  /// The current entry's text fields; kept between entries so no array is made per entry.
  private var texts = [String?](repeating: nil, count: EventDecoder.journalFields.count)
  /// The events of recent entries, by the fields that do not change from record to record.
  private let memo = JournalEventMemo()
  /// The boot id last read, handed out again while entries keep to it (no array per entry).
  private var lastBoot: [UInt8]?

  /// Whether ``EventDecoder/journalFields`` holds a number at `index` (the contract's integers,
  /// and the trusted uid; the boot id is read apart, as bytes; `_EXE` and `_COMM` are text).
  private static let isInteger =
    ContractField.all.map { $0.type == .integer } + [true, true, false, false]
  /// Where `SYSLOG_IDENTIFIER` is.
  private static let processIndex = ContractField.index(of: .process)
  /// The last process name worked out, and what it was worked out from.
  private var lastName: (claim: String, exe: String?, comm: String?, shown: String)?
  /// Where `BINDING_TS` is: the time is parsed from bytes, not cached as text.
  private static let timestampIndex = ContractField.index(of: .timestamp)
  /// Where journald's trusted `_PID` is.
  private static let pidIndex = ContractField.index(of: .pid)
  /// Where `BINDING_SEQ`, `BINDING_VALUE_PRESENT`, `_HOSTNAME` and `BINDING_RUN` are.
  private static let seqIndex = ContractField.index(of: .seq)
  private static let valuePresentIndex = ContractField.index(of: .valuePresent)
  private static let hostIndex = ContractField.index(of: .host)
  private static let runIndex = ContractField.index(of: .run)
  /// The date last parsed, reused while entries keep to one day.
  private var day = ContractDay()

  /// Who journald says wrote an entry: its trusted `_UID`, `_PID` and `_BOOT_ID`, which a
  /// sender cannot choose (`nil` parts where the entry lacks them, as in a file made from
  /// export format without them).
  struct Identity: Hashable {
    var uid: Int?
    var pid: Int?
    var boot: [UInt8]?

    /// `uid U pid P` (`?` for a missing part).
    var text: String {
      "uid \(uid.map(String.init) ?? "?") pid \(pid.map(String.init) ?? "?")"
    }

    /// The identity of a `journalctl -o json` entry's fields.
    init(json fields: [String: String]) {
      uid = fields["_UID"].flatMap { Int($0) }
      pid = fields["_PID"].flatMap { Int($0) }
      boot = fields["_BOOT_ID"].map { Array($0.utf8) }
    }

    init(uid: Int?, pid: Int?, boot: [UInt8]?) {
      (self.uid, self.pid, self.boot) = (uid, pid, boot)
    }
  }

  /// The trusted identity of each run's first journal entry read: a run id is random, and known
  /// to others only once its first record is in the journal, so the first entry of a run is its
  /// owner's.
  struct RunOwners {
    private var owners: [String: Identity] = [:]

    /// The run and identity last found to agree: entries of one run follow each other.
    private var lastAgreed: (run: String, identity: Identity)?

    /// `nil` when `identity` is that of `run`'s first entry (making it the run's when it is the
    /// first), or else the identity the run belongs to: the entry is forged.
    mutating func owner(ofRun run: String, claimedBy identity: Identity) -> Identity? {
      if let last = lastAgreed, last.run == run, last.identity == identity { return nil }
      if let owner = owners[run] {
        if owner != identity { return owner }
      } else {
        owners[run] = identity
      }
      lastAgreed = (run, identity)
      return nil
    }

    /// Whether `run`'s owner is known.
    func knows(_ run: String) -> Bool { owners[run] != nil }

    /// `run`'s owner, or `nil` when no entry of it was read.
    func owner(of run: String) -> Identity? { owners[run] }

    /// Makes `identity` `run`'s owner: that of its first entry, found apart (a reader that
    /// starts after a run's first entry looks it up first).
    mutating func setOwner(ofRun run: String, to identity: Identity) {
      owners[run] = identity
      lastAgreed = nil
    }
  }

  /// The process name shown for an entry: the name it claims (`SYSLOG_IDENTIFIER`) when
  /// journald's trusted fields agree with it, otherwise the trusted name with the claim beside
  /// it, `python3.11 (as InboxApp)`. The claim agrees when it is the file name of the executable
  /// (`_EXE`), or the kernel's name for the process (`_COMM`: the name it was started as, a
  /// link's name included, cut to 15 bytes, so a claim that starts with a 15-byte `_COMM`
  /// agrees too). The trusted name is the executable's file name, else `_COMM`; an entry with
  /// neither shows its claim.
  /// - Parameters:
  ///   - claim: `SYSLOG_IDENTIFIER`.
  ///   - exe: `_EXE`, a path.
  ///   - comm: `_COMM`.
  static func processName(claim: String, exe: String?, comm: String?) -> String {
    let executable = exe.flatMap { $0.split(separator: "/").last.map(String.init) }
    if let executable, claim.utf8.elementsEqual(executable.utf8) { return claim }
    if let comm, !comm.isEmpty,
      claim.utf8.elementsEqual(comm.utf8)
        || (comm.utf8.count == 15 && claim.utf8.starts(with: comm.utf8))
    {
      return claim
    }
    guard let trusted = executable ?? comm.flatMap({ $0.isEmpty ? nil : $0 }) else { return claim }
    return trusted + " (as " + claim + ")"
  }

  /// The claim in a name ``processName(claim:exe:comm:)`` showed as `TRUSTED (as CLAIM)`, or
  /// `nil` for a name of another form.
  static func claim(inShownName name: String) -> String? {
    guard name.hasSuffix(")"), let marker = name.firstRange(of: " (as ") else { return nil }
    return String(name[marker.upperBound...].dropLast())
  }

  /// ``processName(claim:exe:comm:)``, remembering the last answer: entries of one process
  /// follow each other.
  private mutating func shownName(claim: String, exe: String?, comm: String?) -> String {
    if let last = lastName, last.claim == claim, last.exe == exe, last.comm == comm {
      return last.shown
    }
    let shown = JournalEntryDecoder.processName(claim: claim, exe: exe, comm: comm)
    lastName = (claim, exe, comm, shown)
    return shown
  }

  /// The trusted identity of `entry`.
  static func identity(of entry: JournalReader.Entry) -> Identity {
    let values = entry.values
    return Identity(
      uid: values[EventDecoder.uidIndex].flatMap(integer),
      pid: values[pidIndex].flatMap(integer),
      boot: values[EventDecoder.bootIndex].map { Array($0.assumingMemoryBound(to: UInt8.self)) })
  }
  /// The trusted identity of `entry`, as ``identity(of:)`` gives it, its boot id the array of
  /// the previous entry when the bytes are the same.
  mutating func trustedIdentity(of entry: JournalReader.Entry) -> Identity {
    let values = entry.values
    var boot: [UInt8]?
    if let bytes = values[EventDecoder.bootIndex] {
      if let last = lastBoot, last.count == bytes.count,
        bytes.count == 0
          || last.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0
      {
        boot = last
      } else {
        boot = Array(bytes.assumingMemoryBound(to: UInt8.self))
        lastBoot = boot
      }
    }
    return Identity(
      uid: values[EventDecoder.uidIndex].flatMap(JournalEntryDecoder.integer),
      pid: values[JournalEntryDecoder.pidIndex].flatMap(JournalEntryDecoder.integer), boot: boot)
  }

  /// kind, message_id and run: their formats are checked once per distinct value.
  private static let formatFields = [ContractField.ID.kind, .messageID, .run].map(
    ContractField.index(of:))

  /// The entry as an event, or why it is not one. A field that is not valid UTF-8 makes it
  /// malformed, as the same bytes do in a JSON or logfmt line (the journal stores bytes).
  mutating func classify(_ entry: JournalReader.Entry) -> LineClass {
    let values = entry.values
    if let remembered = memo.event(values), let event = ownFields(of: values, in: remembered) {
      return .event(event)
    }
    for index in texts.indices { texts[index] = nil }
    for (index, bytes) in values.enumerated()
    where !JournalEntryDecoder.isInteger[index] {
      // The time is parsed from bytes below; the cache would only ever miss on it.
      guard let bytes, index != JournalEntryDecoder.timestampIndex else { continue }
      let slice = bytes.assumingMemoryBound(to: UInt8.self)
      guard let text = caches[index].string(slice, ascii: false) else {
        // journald's own fields (a path may be any bytes) name the process; they do not make
        // the entry malformed.
        if index >= ContractField.all.count {
          texts[index] = String(decoding: slice, as: UTF8.self)
          continue
        }
        return .malformed(EventDecoder.invalidUTF8(in: EventDecoder.journalFields[index]))
      }
      texts[index] = text
    }
    var timestamp: Timestamp?
    if let bytes = values[JournalEntryDecoder.timestampIndex] {
      let slice = bytes.assumingMemoryBound(to: UInt8.self)
      timestamp = Timestamp(contractBytes: slice)
      if timestamp == nil {
        guard let text = String(validating: slice, as: UTF8.self) else {
          return .malformed(
            EventDecoder.invalidUTF8(
              in: EventDecoder.journalFields[JournalEntryDecoder.timestampIndex]))
        }
        texts[JournalEntryDecoder.timestampIndex] = text
      }
    }
    let checked = JournalEntryDecoder.formatFields.allSatisfy {
      values[$0] != nil && caches[$0].checked
    }
    let decoded = EventDecoder.decodeJournal(
      text: { texts[$0] },
      integer: { index in values[index].map { JournalEntryDecoder.integer($0) } },
      timestamp: timestamp, realtime: Int64(entry.realtime), formatsChecked: checked)
    switch decoded {
    case .success(var event):
      for field in JournalEntryDecoder.formatFields { caches[field].checked = true }
      event.process = shownName(
        claim: event.process, exe: texts[EventDecoder.exeIndex],
        comm: texts[EventDecoder.commIndex])
      // An entry larger than the sink ever writes (a hostile sender's) is not remembered: the
      // memo's 1 024 slots then hold at most 16 MiB.
      if values.reduce(0, { $0 + ($1?.count ?? 0) }) <= JournalEventMemo.largestEntry {
        memo.remember(event)
      }
      return .event(event)
    case .failure(let reason):
      return .malformed(reason)
    }
  }

  /// `event`, remembered for an entry like this one, with this entry's time, `seq`,
  /// `value_present`, `run`, `_PID` and `_HOSTNAME` (``JournalEventMemo/perRecord``), or `nil`
  /// when one of them is missing or would not pass decoding's check (then the entry is decoded,
  /// and the first problem in contract order named): the time in the contract's own form, `seq`
  /// from 1 to 2^53 - 1, the flag `1` or `0`, `run` 16 lowercase hex digits, `_PID` an integer,
  /// `_HOSTNAME` UTF-8.
  private mutating func ownFields(
    of values: [UnsafeRawBufferPointer?], in remembered: MisuseEvent
  ) -> MisuseEvent? {
    var event = remembered
    guard let time = values[JournalEntryDecoder.timestampIndex],
      let timestamp = Timestamp(contractBytes: time.assumingMemoryBound(to: UInt8.self), day: &day),
      let seqBytes = values[JournalEntryDecoder.seqIndex],
      let seq = JournalEntryDecoder.integer(seqBytes), seq >= 1, seq <= EventDecoder.maxInteger,
      let flag = values[JournalEntryDecoder.valuePresentIndex], flag.count == 1,
      flag[0] == UInt8(ascii: "1") || flag[0] == UInt8(ascii: "0"),
      let pidBytes = values[JournalEntryDecoder.pidIndex],
      let pid = JournalEntryDecoder.integer(pidBytes),
      let hostBytes = values[JournalEntryDecoder.hostIndex],
      let host = caches[JournalEntryDecoder.hostIndex].string(
        hostBytes.assumingMemoryBound(to: UInt8.self), ascii: false),
      let runBytes = values[JournalEntryDecoder.runIndex],
      let run = caches[JournalEntryDecoder.runIndex].string(
        runBytes.assumingMemoryBound(to: UInt8.self), ascii: false)
    else { return nil }
    if !caches[JournalEntryDecoder.runIndex].checked {
      guard Hex.isLowercase(run, count: 16) else { return nil }
      caches[JournalEntryDecoder.runIndex].checked = true
    }
    event.timestamp = timestamp
    event.seq = seq
    event.valuePresent = flag[0] == UInt8(ascii: "1")
    event.pid = pid
    event.host = host
    event.run = run
    return event
  }

  /// ``integer(_:)`` of a field's text, as `journalctl -o json` gives fields: the same numbers
  /// as the journal reader takes from the field's bytes (no `+`, no more than 18 digits), so the
  /// two readers of one journal agree.
  static func integer(text: String) -> Int? {
    var text = text
    return text.withUTF8 { integer(UnsafeRawBufferPointer($0)) }
  }

  /// A decimal integer (optional `-`, 1 to 18 digits) from bytes, or `nil`.
  static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    var negative = false
    if bytes.count > 0 && bytes[0] == UInt8(ascii: "-") {
      negative = true
      index = 1
    }
    let digits = bytes.count - index
    guard digits >= 1, digits <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
      index += 1
    }
    return negative ? -value : value
  }
}
