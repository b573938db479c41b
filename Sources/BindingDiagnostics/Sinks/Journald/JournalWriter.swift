#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing journal entries: `sd_journal_sendv` behind a field-name check.
enum JournalWriter {
  /// Whether libsystemd loads and a journald listens at `socketPath`.
  static func availability(socketPath: String) -> Result<Void, JournalError> {
    if case .failure(let error) = LibSystemd.shared { return .failure(error) }
    if case .failure(let error) = JournalSocket.probe(socketPath) {
      return .failure(.socketUnavailable(path: socketPath, error))
    }
    return .success(())
  }

  /// Sends one entry (`sd_journal_sendv`), each field as `NAME=value` bytes in one iovec,
  /// once the socket file at `socketPath` is found to be there: `sd_journal_sendv` returns 0
  /// when it is missing, the entry lost, so a missing socket is a failure here.
  static func send(
    _ fields: [(name: String, value: String)], socketPath: String
  ) -> Result<Void, JournalError> {
    let library: LibSystemd
    switch LibSystemd.shared {
    case .success(let loaded): library = loaded
    case .failure(let error): return .failure(error)
    }
    if case .failure(let error) = JournalSocket.exists(socketPath) {
      return .failure(.socketUnavailable(path: socketPath, error))
    }
    var buffer = [UInt8]()
    buffer.reserveCapacity(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 1 })
    var bounds: [(Int, Int)] = []
    bounds.reserveCapacity(fields.count)
    for (name, value) in fields {
      guard JournalFieldsEncoder.isValidFieldName(name) else {
        return .failure(.invalidFieldName(name))
      }
      let start = buffer.count
      buffer.append(contentsOf: name.utf8)
      buffer.append(UInt8(ascii: "="))
      buffer.append(contentsOf: value.utf8)
      bounds.append((start, buffer.count - start))
    }
    let result = buffer.withUnsafeMutableBytes { raw -> Int32 in
      let vectors = bounds.map { iovec(iov_base: raw.baseAddress! + $0.0, iov_len: $0.1) }
      return vectors.withUnsafeBufferPointer {
        library.sendv($0.baseAddress, Int32($0.count))
      }
    }
    return JournalError.check(result, "sd_journal_sendv").map { _ in () }
  }
}
