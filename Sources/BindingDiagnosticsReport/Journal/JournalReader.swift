package import BindingDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads journal entries through `sd_journal_*`, on a dedicated thread that owns the handle for
/// its whole life (an `sd_journal` must never change threads).
///
/// Memory safety: the data `sd_journal_enumerate_data` returns is valid only until the next
/// call on the handle (fields over the compression threshold are decompressed into one buffer
/// libsystemd reuses), so every wanted field is copied into storage the reader owns before the
/// next field is enumerated. Anyone who can log can write any bytes into any field; nothing
/// here trusts their length, order or content.
package enum JournalReader {
  /// Which journal to open.
  package enum Source: Sendable, Hashable {
    /// The local system journal (`sd_journal_open`).
    case local
    /// The journal files of a directory (`sd_journal_open_directory`).
    case directory(String)
    /// Journal files named one by one (`sd_journal_open_files`).
    case files([String])
  }

  /// One entry: the query's fields as raw bytes (values may hold any byte), in the query's
  /// order (`nil` where the entry lacks one; the first value where it has several), and when it
  /// was written. The bytes are the reader's own copy, valid during the handler's call.
  package struct Entry {
    package var values: [UnsafeRawBufferPointer?]
    package var realtime: UInt64
  }

  /// What to read.
  package struct Query: Sendable {
    package var source: Source
    /// Field matches (`NAME=value`); same-name matches are ORed, different names ANDed.
    package var matches: [String]
    /// Start at this realtime (µs since the epoch); the head when `nil`.
    package var since: UInt64?
    /// Start at the last this many matching entries instead (`sd_journal_seek_tail`, then
    /// `sd_journal_previous` until as many were stepped over, counting only those `counts` of
    /// ``read(_:counts:handler:)`` takes), like `journalctl -n`; `since` is then unused.
    package var last: Int?
    /// Keep waiting for new entries (`sd_journal_wait`) after the end.
    package var follow: Bool
    /// The fields to read from each entry, in this order.
    package var fields: [String]

    package init(
      source: Source, matches: [String], fields: [String], since: UInt64? = nil,
      last: Int? = nil, follow: Bool = false
    ) {
      self.source = source
      self.matches = matches
      self.fields = fields
      self.since = since
      self.last = last
      self.follow = follow
    }
  }

  /// A journal file that shrank while read (a `SIGBUS` on its mapping, repaired).
  package static let shrunk = JournalError.call(
    SystemError("journal file shrank while read (SIGBUS)", code: EIO))

  /// A journal file libsystemd stopped reading partway: `sd_journal_next` met an object it
  /// could not read (the file is corrupt from there on, as a crash or a bad disk leaves one),
  /// dropped the file and went on as if it had ended.
  package static let corrupt = JournalError.call(
    SystemError("journal file corrupt partway, the rest of it unread", code: EBADMSG))

  /// Reads every entry matching `query`, handing each to `handler` (on the reader's thread)
  /// until it returns `false` or, when not following, the journal ends. Blocks until done.
  /// - Parameters:
  ///   - query: What to read.
  ///   - counts: With `query.last`, which entries count among the last (on the reader's
  ///     thread, stepping back): those the caller will show; every matching entry when `nil`.
  ///   - handler: Receives each entry; returns `false` to stop.
  package static func read(
    _ query: Query, counts: ((Entry) -> Bool)? = nil, handler: @escaping (Entry) -> Bool
  ) -> Result<Void, JournalError> {
    let library: JournalLibrary
    switch JournalLibrary.shared {
    case .success(let loaded): library = loaded
    case .failure(let error): return .failure(error)
    }
    let job = ReadJob(library: library, query: query, counts: counts, handler: handler)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      job.run()
      done.signal()
    }
    thread.name = "binding-diagnostics.journal-reader"
    thread.start()
    done.wait()
    return job.result
  }

  /// The query's field names in an open-addressing table keyed by a hash of a name's length
  /// and its first and last bytes, for matching enumerated data in a few instructions.
  private struct WantedFields {
    let count: Int
    /// The names, back to back.
    private let names: [UInt8]
    /// Per query index, where its name starts in ``names`` and its length.
    private let spans: [(start: Int, length: Int)]
    /// Query indices by hash (`-1`: empty); a power of two at least twice the names.
    private let table: [Int]

    init(_ names: [String]) {
      count = names.count
      var flat: [UInt8] = []
      var spans: [(start: Int, length: Int)] = []
      for name in names {
        spans.append((flat.count, name.utf8.count))
        flat += name.utf8
      }
      var size = 16
      while size < names.count * 4 { size *= 2 }
      var table = [Int](repeating: -1, count: size)
      flat.withUnsafeBytes { base in
        // Journal field names are at most 64 bytes: a longer name is never enumerated.
        for (index, span) in spans.enumerated() where span.length <= 64 {
          let slice = UnsafeRawBufferPointer(rebasing: base[span.start..<span.start + span.length])
          var slot = WantedFields.hash(slice.baseAddress, span.length) & (size - 1)
          // A name given twice keeps its first index, as the enumeration keeps a field's first value.
          var duplicate = false
          while table[slot] >= 0 {
            let other = spans[table[slot]]
            if other.length == span.length,
              memcmp(base.baseAddress! + other.start, slice.baseAddress!, span.length) == 0
            {
              duplicate = true
              break
            }
            slot = (slot + 1) & (size - 1)
          }
          if !duplicate { table[slot] = index }
        }
      }
      self.names = flat
      self.spans = spans
      self.table = table
    }

    /// Mixes a name's length and its first and last (up to) eight bytes.
    @inline(__always)
    private static func hash(_ data: UnsafeRawPointer?, _ length: Int) -> Int {
      var mix = UInt64(truncatingIfNeeded: length) &* 0x9e37_79b9_7f4a_7c15
      if length >= 8, let data {
        mix ^= data.loadUnaligned(as: UInt64.self)
        mix = (mix ^ (mix >> 29)) &* 0xbf58_476d_1ce4_e5b9
        mix ^= data.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
      } else if let data {
        for offset in 0..<length {
          let byte = UInt64(data.load(fromByteOffset: offset, as: UInt8.self))
          mix = (mix ^ byte) &* 0x0100_0000_01b3
        }
      }
      mix = (mix ^ (mix >> 32)) &* 0xd6e8_feb8_6659_fd93
      return Int(truncatingIfNeeded: mix ^ (mix >> 32))
    }

    /// The query index of the field named by `data`'s first `length` bytes, if wanted.
    func index(of data: UnsafeRawPointer, length: Int) -> Int? {
      guard length <= 64, !table.isEmpty else { return nil }
      let mask = table.count - 1
      var slot = WantedFields.hash(data, length) & mask
      return table.withUnsafeBufferPointer { table in
        names.withUnsafeBytes { names in
          spans.withUnsafeBufferPointer { spans in
            while true {
              let index = table[slot]
              if index < 0 { return nil }
              let span = spans[index]
              if span.length == length,
                length == 0 || memcmp(names.baseAddress! + span.start, data, length) == 0
              {
                return index
              }
              slot = (slot + 1) & mask
            }
          }
        }
      }
    }
  }

  /// The state of one read, handed whole to the reader thread.
  ///
  /// `@unchecked Sendable`: the creating thread only reads `result` after the reader thread
  /// signalled that it finished; nothing is touched from two threads at once.
  private final class ReadJob: @unchecked Sendable {
    let library: JournalLibrary
    let query: Query
    /// Dropped on the reader thread before it signals the end, so that the caller, once
    /// woken, holds the only reference to what the handler captured (a caller may pass a
    /// closure made with `withoutActuallyEscaping`, which traps if it outlives the call).
    var handler: ((Entry) -> Bool)?
    /// Which entries count among `query.last` (``read(_:counts:handler:)``); dropped as the
    /// handler is.
    var counts: ((Entry) -> Bool)?
    var result: Result<Void, JournalError> = .success(())
    let wanted: WantedFields
    /// The current entry's wanted values, back to back; reused from entry to entry (grown,
    /// never shrunk, so an entry allocates only when its values are the largest yet).
    var storage: UnsafeMutableRawPointer
    /// ``storage``'s size in bytes.
    var capacity = 4096
    /// Where each wanted value starts in ``storage`` and its length (`-1`: not in the entry).
    var spans: [(start: Int, length: Int)]
    /// The values handed over, rebuilt in place for every entry.
    var values: [UnsafeRawBufferPointer?]

    init(
      library: JournalLibrary, query: Query, counts: ((Entry) -> Bool)?,
      handler: @escaping (Entry) -> Bool
    ) {
      self.library = library
      self.query = query
      self.counts = counts
      self.handler = handler
      self.wanted = WantedFields(query.fields)
      self.storage = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
      self.spans = Array(repeating: (0, -1), count: query.fields.count)
      self.values = Array(repeating: nil, count: query.fields.count)
    }

    deinit { storage.deallocate() }

    func run() {
      defer {
        handler = nil
        counts = nil
      }
      BusFaultGuard.install
      switch open() {
      case .failure(let error): result = .failure(error)
      case .success(let handle):
        defer { library.close(handle) }
        result = read(handle)
      }
    }

    private func open() -> Result<OpaquePointer?, JournalError> {
      var handle: OpaquePointer?
      let opened: Int32
      switch query.source {
      case .local:
        opened = library.open(&handle, 0)
      case .directory(let path):
        opened = library.openDirectory(&handle, path, 0)
      case .files(let paths):
        let copies = paths.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        opened = pointers.withUnsafeMutableBufferPointer {
          library.openFiles(&handle, $0.baseAddress, 0)
        }
      }
      return JournalError.check(opened, "sd_journal_open").map { _ in handle }
    }

    private func read(_ handle: OpaquePointer?) -> Result<Void, JournalError> {
      // 0 lifts the 64 KiB cut the library would otherwise apply to each field.
      _ = library.setDataThreshold(handle, 0)
      for match in query.matches {
        let bytes = Array(match.utf8)
        let added = bytes.withUnsafeBytes { library.addMatch(handle, $0.baseAddress, $0.count) }
        if case .failure(let error) = JournalError.check(added, "sd_journal_add_match") {
          return .failure(error)
        }
      }
      // With `last`, the cursor ends on the first entry to hand over (unless there is none).
      var onEntry = false
      let seek: Int32
      if let last = query.last {
        let now = UInt64(max(0, Timestamp.now().microsecondsSinceEpoch))
        var tail = library.seekTail(handle)
        // At least one step back: from the tail position itself, libsystemd's
        // `sd_journal_next` jumps to the newest matching entry, skipping any others that
        // arrived meanwhile. With no matching entry to step back to, start from now instead.
        // Entries stepped back over, and those of them that count (all, without `counts`).
        var moved = 0
        var counted = 0
        while tail >= 0 && counted < max(last, 1) && library.previous(handle) > 0 {
          moved += 1
          if last > 0, let counts, !counts(currentEntry(handle)) { continue }
          counted += 1
        }
        if tail >= 0 && moved == 0 { tail = library.seekRealtime(handle, now) }
        seek = tail
        onEntry = last > 0 && moved > 0
      } else {
        seek = query.since.map { library.seekRealtime(handle, $0) } ?? library.seekHead(handle)
      }
      if case .failure(let error) = JournalError.check(seek, "sd_journal_seek") {
        return .failure(error)
      }
      let faults = BusFaultGuard.faults
      while true {
        let step = onEntry ? 1 : library.next(handle)
        onEntry = false
        // A page of the file vanished under the mapping (the file shrank): skip the rest of it.
        if BusFaultGuard.faults != faults { return .failure(JournalReader.shrunk) }
        if step < 0 { return .failure(.call(SystemError("sd_journal_next", code: -step))) }
        if step == 0 {
          guard query.follow else { return endOfFiles(handle) }
          let waited = library.wait(handle, 250_000)
          if waited < 0 { return .failure(.call(SystemError("sd_journal_wait", code: -waited))) }
          continue
        }
        let entry = currentEntry(handle)
        if BusFaultGuard.faults != faults { return .failure(JournalReader.shrunk) }
        guard handler?(entry) == true else { return .success(()) }
      }
    }

    /// The end of a read that was not following: a read of journal files named one by one
    /// fails when libsystemd dropped them all on the way (``JournalReader/corrupt``), which it
    /// does in silence, ending the iteration early. (The local journal is merged from many
    /// files, some of which may grow while others go: there the handle's usage says nothing.)
    private func endOfFiles(_ handle: OpaquePointer?) -> Result<Void, JournalError> {
      guard case .files = query.source else { return .success(()) }
      var bytes: UInt64 = 0
      guard library.getUsage(handle, &bytes) >= 0, bytes == 0 else { return .success(()) }
      return .failure(JournalReader.corrupt)
    }

    /// The entry under the cursor: its wanted fields copied (``collect(_:)``), valid until the
    /// next entry is read, and its time.
    private func currentEntry(_ handle: OpaquePointer?) -> Entry {
      var realtime: UInt64 = 0
      _ = library.getRealtime(handle, &realtime)
      collect(handle)
      let base = storage
      spans.withUnsafeBufferPointer { spans in
        values.withUnsafeMutableBufferPointer { values in
          for index in spans.indices {
            let span = spans[index]
            values[index] =
              span.length < 0
              ? nil : UnsafeRawBufferPointer(start: base + span.start, count: span.length)
          }
        }
      }
      return Entry(values: values, realtime: realtime)
    }

    /// Copies the entry's wanted fields into ``storage`` in one pass over its data
    /// (`sd_journal_enumerate_data`); each field is copied before the next call can
    /// invalidate it.
    private func collect(_ handle: OpaquePointer?) {
      // Locals in the loop: the class's stored properties would be checked for exclusive
      // access at every use.
      let enumerate = library.enumerateData
      let skipsUnreadable = library.skipsUnreadableFields
      let wanted = self.wanted
      var storage = self.storage
      var capacity = self.capacity
      defer { (self.storage, self.capacity) = (storage, capacity) }
      var used = 0
      library.restartData(handle)
      var data: UnsafeRawPointer?
      var length = 0
      let faults = BusFaultGuard.faults
      spans.withUnsafeMutableBufferPointer { spans in
        for index in spans.indices { spans[index] = (0, -1) }
        // A fault (the file shrank) ends the entry: its fields may read as zeros from then on,
        // and a library that skips unreadable fields would go on failing without advancing.
        var failed = false
        while BusFaultGuard.faults == faults {
          let step = enumerate(handle, &data, &length)
          if step == 0 || (step < 0 && !skipsUnreadable) { break }
          // `sd_journal_enumerate_available_data` has already skipped what it could: a failure
          // that repeats does not advance (libsystemd 252 stays on the field), so it ends the
          // entry.
          if step < 0 {
            if failed { break }
            failed = true
            continue
          }
          failed = false
          guard let data, length > 0,
            // A name is at most 64 bytes: no need to look for its end further in.
            let equals = memchr(data, 0x3d, min(length, 65))
          else { continue }
          let nameLength = data.distance(to: UnsafeRawPointer(equals))
          guard let index = wanted.index(of: data, length: nameLength), spans[index].length < 0
          else { continue }
          let count = length - nameLength - 1
          if used + count > capacity {
            var grown = capacity * 2
            while used + count > grown { grown *= 2 }
            let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            larger.copyMemory(from: storage, byteCount: used)
            storage.deallocate()
            (storage, capacity) = (larger, grown)
          }
          if count > 0 {
            (storage + used).copyMemory(from: data + nameLength + 1, byteCount: count)
          }
          spans[index] = (used, count)
          used += count
        }
      }
    }
  }
}
