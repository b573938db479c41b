import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The journald sink's probe of journald's socket (`socket(2)`, `connect(2)`) through the
/// system-call seam: an interrupted call is made again, a failed one is the sink's reason to
/// write to its fallback, as ``SystemError`` values named after the call.
@Suite struct JournaldSinkSocketFaultTests {
  /// A datagram socket bound at a new path, as journald's is, so that connecting succeeds:
  /// directly under /tmp, as a socket's path must fit 108 bytes (``remove(_:)`` removes it).
  static func listener() throws -> (fd: Int32, path: String) {
    let path = "/tmp/bindiag-seam-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).socket"
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0, "bind: errno \(errno)")
    return (fd, path)
  }

  /// Closes and removes the socket `listener` made.
  static func remove(_ listener: (fd: Int32, path: String)) {
    _ = close(listener.fd)
    _ = unlink(listener.path)
  }

  /// The error of `result`, `nil` when it succeeded.
  static func error<Value>(_ result: Result<Value, SystemError>) -> SystemError? {
    guard case .failure(let error) = result else { return nil }
    return error
  }

  @Test func anInterruptedSocketAndConnectAreMadeAgain() throws {
    let listener = try Self.listener()
    defer { Self.remove(listener) }
    let faults = SystemCallFaults([.socket: [.error(EINTR)], .connect: [.error(EINTR)]])
    let reason = SystemCallFaults.$current.withValue(faults) {
      JournaldSink.unavailability(socketPath: listener.path)
    }
    #expect(faults.remaining == [])
    #expect(reason == nil)
  }

  @Test func aFailedSocketIsItsErrorAndTheSinkFallsBack() throws {
    let listener = try Self.listener()
    defer { Self.remove(listener) }
    let faults = SystemCallFaults([.socket: [.error(EMFILE)]])
    let made = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.makeSocket(AF_UNIX, Int32(SOCK_DGRAM.rawValue))
    }
    #expect(faults.remaining == [])
    #expect(Self.error(made) == SystemError("socket", code: EMFILE))
    let fallback = RecordingSink()
    let sinkFaults = SystemCallFaults([.socket: [.error(EMFILE)]])
    let sink = SystemCallFaults.$current.withValue(sinkFaults) {
      JournaldSink(socketPath: listener.path, fallback: fallback)
    }
    #expect(sinkFaults.remaining == [])
    try #require(!sink.isAvailable)
    let message = SystemError("socket", code: EMFILE).message
    #expect(sink.unavailableReason == "no journal at \(listener.path): \(message)")
    sink.receive(sampleEvent())
    #expect(fallback.events == [sampleEvent()])
    #expect(sink.fellBack == 1)
  }

  @Test func aFailedConnectIsItsErrorAndTheSinksReason() throws {
    let listener = try Self.listener()
    defer { Self.remove(listener) }
    let fd = try FileDescriptorIO.makeSocket(AF_UNIX, Int32(SOCK_DGRAM.rawValue)).get()
    defer { FileDescriptorIO.closeFile(fd) }
    let faults = SystemCallFaults([.connect: [.error(EACCES)]])
    let connected = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.connectSocket(fd, toUnixPath: listener.path)
    }
    #expect(faults.remaining == [])
    #expect(Self.error(connected) == SystemError("connect", code: EACCES))
    let reasonFaults = SystemCallFaults([.connect: [.error(EACCES)]])
    let reason = SystemCallFaults.$current.withValue(reasonFaults) {
      JournaldSink.unavailability(socketPath: listener.path)
    }
    #expect(reasonFaults.remaining == [])
    let message = SystemError("connect", code: EACCES).message
    #expect(reason == "no journal at \(listener.path): \(message)")
    // Without the fault, the same socket path is a journald.
    #expect(JournaldSink.unavailability(socketPath: listener.path) == nil)
  }
}
