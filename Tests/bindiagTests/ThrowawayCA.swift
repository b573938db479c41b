import Foundation
import TestSupport

/// A certificate authority made for one test with `openssl`: a server certificate for
/// `127.0.0.1` and `localhost`, and a client certificate per host, all valid for a day.
struct ThrowawayCA {
  let directory: String
  var certificate: String { directory + "/ca.pem" }
  var serverKey: String { directory + "/server.key" }
  var serverCertificate: String { directory + "/server.pem" }

  /// A new authority and server certificate under `directory`.
  init(directory: String) throws {
    self.directory = directory
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try ThrowawayCA.openssl(
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
      "/CN=bindiag fleet test CA", "-keyout", directory + "/ca.key", "-out", certificate)
    try issue(
      name: "server", subject: "/CN=localhost",
      extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
  }

  /// A client certificate and key for `host`: `(key, certificate)` paths.
  func client(_ host: String) throws -> (key: String, certificate: String) {
    try issue(name: host, subject: "/CN=\(host)", extensions: "extendedKeyUsage=clientAuth\n")
    return (directory + "/\(host).key", directory + "/\(host).pem")
  }

  /// Another authority's certificate, which signed none of these.
  func stranger() throws -> String {
    let path = directory + "/stranger.pem"
    try ThrowawayCA.openssl(
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=stranger",
      "-keyout", directory + "/stranger.key", "-out", path)
    return path
  }

  private func issue(name: String, subject: String, extensions: String) throws {
    let base = directory + "/" + name
    try extensions.write(toFile: base + ".ext", atomically: true, encoding: .utf8)
    try ThrowawayCA.openssl(
      "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", base + ".key", "-out",
      base + ".csr")
    try ThrowawayCA.openssl(
      "x509", "-req", "-in", base + ".csr", "-CA", certificate, "-CAkey", directory + "/ca.key",
      "-CAcreateserial", "-days", "1", "-extfile", base + ".ext", "-out", base + ".pem")
    // systemd-journal-remote warns about keys others can read.
    chmod(base + ".key", 0o600)
  }

  private static func openssl(_ arguments: String...) throws {
    let result = try runProduct("/usr/bin/env", ["openssl"] + arguments)
    guard result.status == 0 else {
      throw Fleet.Failure(
        "openssl \(arguments.first ?? "") exited \(result.status): \(result.stderr)")
    }
  }
}
