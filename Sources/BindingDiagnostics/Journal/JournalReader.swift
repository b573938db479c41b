import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads journal entries through `sd_journal_*`, on a dedicated thread that owns the handle for
/// its whole life (an `sd_journal` must never change threads).
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
  /// order (`nil` where the entry lacks one), and when it was written. The bytes point into
  /// the journal's memory map and are valid only during the handler's call.
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
    /// Keep waiting for new entries (`sd_journal_wait`) after the end.
    package var follow: Bool
    /// The fields to read from each entry (`sd_journal_get_data`), in this order.
    package var fields: [String]

    package init(
      source: Source, matches: [String], fields: [String], since: UInt64? = nil,
      follow: Bool = false
    ) {
      self.source = source
      self.matches = matches
      self.fields = fields
      self.since = since
      self.follow = follow
    }
  }

  /// Reads every entry matching `query`, handing each to `handler` (on the reader's thread)
  /// until it returns `false` or, when not following, the journal ends. Blocks until done.
  package static func read(
    _ query: Query, handler: @escaping (Entry) -> Bool
  ) -> Result<Void, JournalError> {
    let library: LibSystemd
    switch LibSystemd.shared {
    case .success(let loaded): library = loaded
    case .failure(let error): return .failure(error)
    }
    let job = ReadJob(library: library, query: query, handler: handler)
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

  /// The query's field names grouped by length, for matching enumerated data quickly.
  private struct WantedFields {
    let count: Int
    /// Indexed by name length (journal field names are at most 64 bytes).
    let byLength: [[(name: [UInt8], index: Int)]]

    init(_ names: [String]) {
      count = names.count
      var byLength = [[(name: [UInt8], index: Int)]](repeating: [], count: 65)
      for (index, name) in names.enumerated() where name.utf8.count <= 64 {
        byLength[name.utf8.count].append((Array(name.utf8), index))
      }
      self.byLength = byLength
    }
  }

  /// The state of one read, handed whole to the reader thread.
  ///
  /// `@unchecked Sendable`: the creating thread only reads `result` after the reader thread
  /// signalled that it finished; nothing is touched from two threads at once.
  private final class ReadJob: @unchecked Sendable {
    let library: LibSystemd
    let query: Query
    let handler: (Entry) -> Bool
    var result: Result<Void, JournalError> = .success(())
    let wanted: WantedFields

    init(library: LibSystemd, query: Query, handler: @escaping (Entry) -> Bool) {
      self.library = library
      self.query = query
      self.handler = handler
      self.wanted = WantedFields(query.fields)
    }

    func run() {
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
      if case .failure(let error) = LibSystemd.check(opened, "sd_journal_open") {
        result = .failure(error)
        return
      }
      defer { library.close(handle) }
      // 0 lifts the 64 KiB cut sd_journal_get_data would otherwise apply.
      _ = library.setDataThreshold(handle, 0)
      for match in query.matches {
        let bytes = Array(match.utf8)
        let added = bytes.withUnsafeBytes { library.addMatch(handle, $0.baseAddress, $0.count) }
        if case .failure(let error) = LibSystemd.check(added, "sd_journal_add_match") {
          result = .failure(error)
          return
        }
      }
      let seek = query.since.map { library.seekRealtime(handle, $0) } ?? library.seekHead(handle)
      if case .failure(let error) = LibSystemd.check(seek, "sd_journal_seek") {
        result = .failure(error)
        return
      }
      while true {
        let step = library.next(handle)
        if step < 0 {
          result = .failure(.call(SystemError("sd_journal_next", code: -step)))
          return
        }
        if step == 0 {
          guard query.follow else { return }
          let waited = library.wait(handle, 250_000)
          if waited < 0 {
            result = .failure(.call(SystemError("sd_journal_wait", code: -waited)))
            return
          }
          continue
        }
        guard handler(entry(handle)) else { return }
      }
    }

    /// The entry's wanted fields, found in one pass over its data (`sd_journal_enumerate_data`):
    /// asking for each field by name (`sd_journal_get_data`) walks the entry once per field.
    private func entry(_ handle: OpaquePointer?) -> Entry {
      var realtime: UInt64 = 0
      _ = library.getRealtime(handle, &realtime)
      var values = [UnsafeRawBufferPointer?](repeating: nil, count: wanted.count)
      library.restartData(handle)
      var data: UnsafeRawPointer?
      var length = 0
      while library.enumerateData(handle, &data, &length) > 0, let data {
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        guard let equals = memchr(data, 0x3d, length) else { continue }
        let nameLength = data.distance(to: UnsafeRawPointer(equals))
        guard nameLength <= 64 else { continue }
        for (name, index) in wanted.byLength[nameLength] where values[index] == nil {
          if name.withUnsafeBytes({ memcmp($0.baseAddress!, data, nameLength) }) == 0 {
            values[index] = UnsafeRawBufferPointer(rebasing: bytes[(nameLength + 1)...])
            break
          }
        }
      }
      return Entry(values: values, realtime: realtime)
    }
  }
}
