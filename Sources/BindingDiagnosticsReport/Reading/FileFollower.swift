import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows one file as it grows, like `tail -F`: reads what was appended since the last poll,
/// and reopens the path from its start when it is rotated (a new inode) or truncated.
public final class FileFollower {
  /// The path followed.
  public let path: String
  private let maxLineBytes: Int
  private var fd: Int32 = -1
  private var inode: UInt64 = 0
  private var offset: Int64 = 0
  private var pending: [UInt8] = []
  private var skipping = false
  private var classifier = LineClassifier()
  private var lineNumber = 0

  /// Starts following `path`: at its end, or at its start when `fromStart`.
  /// - Parameters:
  ///   - path: The file.
  ///   - fromStart: Read what is already there too.
  ///   - maxLineBytes: Longer lines are malformed.
  public init(path: String, fromStart: Bool, maxLineBytes: Int = 1 << 20) {
    self.path = path
    self.maxLineBytes = maxLineBytes
    if openPath(), !fromStart {
      var info = stat()
      if fstat(fd, &info) == 0 {
        offset = Int64(info.st_size)
        // Count the lines already there so reported line numbers stay true.
        lineNumber = countLines(upTo: offset)
      }
    }
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Reads everything appended since the last call and classifies each complete line.
  /// - Returns: Each new line's number and class; malformed lines included.
  public func poll() -> [(line: Int, class: LineClass)] {
    var results: [(line: Int, class: LineClass)] = []
    if fd < 0 {
      guard openPath() else { return results }
    }
    drain(into: &results)
    // Rotated or truncated: finish the old file (done above), then start the path anew.
    var named = stat()
    var current = stat()
    let rotated = stat(path, &named) == 0 && UInt64(named.st_ino) != inode
    let truncated = fstat(fd, &current) == 0 && Int64(current.st_size) < offset
    if rotated || truncated {
      if rotated {
        close(fd)
        fd = -1
        guard openPath() else { return results }
      }
      offset = 0
      lineNumber = 0
      pending.removeAll()
      skipping = false
      drain(into: &results)
    }
    return results
  }

  private func drain(into results: inout [(line: Int, class: LineClass)]) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress, $0.count, off_t(offset))
      }
      guard count > 0 else { return }
      offset += Int64(count)
      var start = 0
      for index in 0..<count where buffer[index] == 0x0a {
        lineNumber += 1
        if skipping || pending.count + (index - start) > maxLineBytes {
          results.append((lineNumber, .malformed("line longer than \(maxLineBytes) bytes")))
        } else {
          pending.append(contentsOf: buffer[start..<index])
          let kind = pending.withUnsafeBufferPointer { classifier.classify($0) }
          if kind != .blank { results.append((lineNumber, kind)) }
        }
        pending.removeAll(keepingCapacity: true)
        skipping = false
        start = index + 1
      }
      if !skipping {
        pending.append(contentsOf: buffer[start..<count])
        if pending.count > maxLineBytes {
          skipping = true
          pending.removeAll()
        }
      }
    }
  }

  private func openPath() -> Bool {
    let opened = open(path, O_RDONLY | O_CLOEXEC)
    guard opened >= 0 else { return false }
    var info = stat()
    guard fstat(opened, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
      close(opened)
      return false
    }
    fd = opened
    inode = UInt64(info.st_ino)
    return true
  }

  private func countLines(upTo end: Int64) -> Int {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var position: Int64 = 0
    var lines = 0
    while position < end {
      let count = buffer.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress, min($0.count, Int(end - position)), off_t(position))
      }
      guard count > 0 else { break }
      lines += buffer[..<count].reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
      position += Int64(count)
    }
    return lines
  }
}
