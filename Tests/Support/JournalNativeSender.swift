public import Foundation

/// Sends journal entries through journald's native protocol the way libsystemd does (a datagram
/// per entry, or a sealed memfd passed with `SCM_RIGHTS` when the entry is large), optionally
/// as another user, the way any local user can write into the system journal.
///
/// Every field uses the binary-safe form (`NAME\n`, 64-bit little-endian length, bytes, `\n`),
/// so values may hold any byte. The sender is a short Python program: the test process stays
/// root while the sender drops to `uid`.
public enum JournalNativeSender {
  /// One journal entry: fields in order, values as raw bytes.
  public typealias Entry = [(name: String, value: [UInt8])]

  /// Sends `entries` to `/run/systemd/journal/socket` and returns the uid they were sent as.
  /// - Parameters:
  ///   - entries: The entries.
  ///   - uid: The user to send as (`nobody` by default) when the test runs as root.
  public static func send(_ entries: [Entry], asUser uid: UInt32 = 65534) throws -> UInt32 {
    let output = try runProduct(
      "/usr/bin/env", ["python3", "-c", script, String(uid)], stdin: try payload(entries))
    guard output.status == 0,
      let sentAs = UInt32(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw SenderError(message: "journal sender failed (\(output.status)): \(output.stderr)")
    }
    return sentAs
  }

  /// Why sending failed.
  public struct SenderError: Error, CustomStringConvertible {
    /// What the sender said.
    public var message: String
    /// The message.
    public var description: String { message }
  }

  /// What the sender reads on standard input: `entries` as JSON, values in base64.
  /// - Parameter entries: The entries.
  public static func payload(_ entries: [Entry]) throws -> Data {
    try JSONSerialization.data(
      withJSONObject: entries.map { entry in
        entry.map { [$0.name, Data($0.value).base64EncodedString()] }
      })
  }

  /// The sender, a Python program: `python3 -c SCRIPT UID < payload`. It writes to
  /// `/run/systemd/journal/socket` as it finds it, so run inside a mount namespace it reaches
  /// that namespace's journald.
  public static let script = #"""
    import base64, fcntl, json, os, socket, struct, sys
    entries = json.load(sys.stdin)
    uid = int(sys.argv[1])
    if os.getuid() == 0 and uid != 0:
        os.setgroups([]); os.setgid(uid); os.setuid(uid)
    path = "/run/systemd/journal/socket"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    for fields in entries:
        buf = bytearray()
        for name, b64 in fields:
            value = base64.b64decode(b64)
            buf += name.encode() + b"\n" + struct.pack("<Q", len(value)) + value + b"\n"
        if len(buf) <= 65536:
            s.sendto(bytes(buf), path)
            continue
        fd = os.memfd_create("journal-entry", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        view = memoryview(bytes(buf))
        while view:
            view = view[os.write(fd, view):]
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS,
                    fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL)
        s.sendmsg([], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", fd))], 0, path)
        os.close(fd)
    print(os.getuid())
    """#
}
