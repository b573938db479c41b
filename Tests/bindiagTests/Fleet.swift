import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A fleet on one machine, as an operator runs it: a central `systemd-journal-remote` listening
/// on loopback, and hosts, each its own `systemd-journald` in its own mount, UTS and PID
/// namespace (its own hostname, `/run` and journal storage on tmpfs, so the machine's journald
/// and journal files are never touched), an app writing through the journald sink, and
/// `systemd-journal-upload` following that journal and sending it to the central one.
///
/// Every wait is bounded. ``stop()`` (also run at `deinit`) ends every process it started:
/// hosts are asked to stop, then killed; killing a host's `unshare` kills its namespace's
/// first process (`--kill-child`), and with it every process of the namespace. Each process is
/// also under `timeout`, so nothing outlives a crashed test by more than five minutes.
final class Fleet {
  /// A setup step that failed.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// How hosts reach the central server.
  enum Transport {
    /// Plain HTTP, everything on the command line; `none` writes `central/all.journal`, `host`
    /// a file per sender in `central`.
    case http(splitMode: String)
    /// HTTPS configured by the repository's `config/fleet/journal-remote.conf` and
    /// `journal-upload.conf`, their paths replaced by those of `ca`'s files: the central
    /// server presents a certificate of `ca`; uploaders check it and present one of their own.
    case https(ThrowawayCA)
  }

  static let journald = JournalExportFile.systemdHelper("systemd-journald")
  static let remote = JournalExportFile.remote
  static let upload = JournalExportFile.systemdHelper("systemd-journal-upload")

  /// Why a fleet cannot run here, or `nil` when it can.
  static let missing: String? = {
    guard getuid() == 0 else { return "needs root (mount and PID namespaces)" }
    guard journald != nil else { return "systemd-journald is not installed" }
    guard remote != nil, upload != nil else {
      return "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"
    }
    for tool in ["unshare", "hostname", "timeout", "python3", "openssl"] {
      guard (try? runProduct("/usr/bin/env", ["sh", "-c", "command -v \(tool)"]))?.status == 0
      else { return "\(tool) is not installed" }
    }
    let probe = try? runProduct(
      "/usr/bin/env", ["unshare", "-m", "-u", "-p", "-f", "--mount-proc", "true"])
    guard probe?.status == 0 else {
      return "unshare cannot make mount, UTS and PID namespaces: \(probe?.stderr ?? "")"
    }
    return nil
  }()

  let directory: String
  /// The central server's output directory.
  let central: String
  let transport: Transport
  private(set) var port = 0
  private var server: Process?
  private var hosts: [(name: String, directory: String, process: Process)] = []
  /// Whether `central` is a tmpfs of this fleet's, unmounted at `deinit`.
  private var centralMounted = false
  /// Commands given to each host by ``run(_:_:)`` so far.
  private var commandsRun: [String: Int] = [:]

  /// Starts the central server, in a mount namespace of its own where `/etc/systemd` holds
  /// only the test's configuration. With `centralSize` (a tmpfs `size=`, such as `"1m"`), its
  /// output directory is a tmpfs of that size, mounted here and unmounted at `deinit`: a
  /// collector whose disk fills.
  init(transport: Transport, centralSize: String? = nil) throws {
    directory = try temporaryDirectory()
    central = directory + "/central"
    self.transport = transport
    try FileManager.default.createDirectory(atPath: central, withIntermediateDirectories: true)
    if let centralSize {
      let mounted = try runProduct(
        "/usr/bin/env",
        ["mount", "-t", "tmpfs", "-o", "size=\(centralSize),mode=0755", "tmpfs", central])
      guard mounted.status == 0 else {
        throw Failure("mount -t tmpfs on \(central): \(mounted.stderr)")
      }
      centralMounted = true
    }
    let arguments: [String]
    var configuration = ""
    switch transport {
    case .http(let splitMode):
      arguments = [
        "--split-mode=\(splitMode)",
        splitMode == "none" ? "--output=\(central)/all.journal" : "--output=\(central)/",
      ]
    case .https(let ca):
      arguments = ["--output=\(central)/"]
      configuration = directory + "/journal-remote.conf"
      try Fleet.shippedConfiguration(
        "journal-remote.conf",
        replacing: [
          ("/etc/ssl/private/journal-remote.pem", ca.serverKey),
          ("/etc/ssl/certs/journal-remote.pem", ca.serverCertificate),
          ("/etc/ssl/ca/trusted.pem", ca.certificate),
        ]
      ).write(toFile: configuration, atomically: true, encoding: .utf8)
    }
    // A free port can be taken between finding it and binding it: try a few.
    for _ in 0..<3 {
      port = try Fleet.freePort()
      let listen = transport.scheme == "http" ? "--listen-http" : "--listen-https"
      let process = try start(
        "/usr/bin/timeout",
        [
          "300", "unshare", "-m", "/bin/sh", "-c", Fleet.centralScript, "sh", configuration,
          Fleet.remote!, "\(listen)=127.0.0.1:\(port)",
        ] + arguments, log: "remote.log")
      server = process
      if waitUntil(seconds: 10, { !process.isRunning || Fleet.accepts(port: self.port) }),
        process.isRunning
      {
        return
      }
      stopProcess(process)
    }
    throw Failure("systemd-journal-remote did not start: \(log("remote.log"))")
  }

  deinit {
    stop()
    if centralMounted { _ = try? runProduct("/usr/bin/env", ["umount", "-l", central]) }
  }

  /// The URL uploaders send to.
  var url: String { "\(transport.scheme)://127.0.0.1:\(port)" }

  /// Starts a host: its own journald, an uploader following it, `misuse-helper` misusing
  /// `misuses` times through the journald sink, then `entries` sent through the native
  /// protocol (as any local process can). It then waits to be stopped.
  ///
  /// With `pauses`, the app stops after its misuses (flushed, `paused` on its output) until
  /// ``resume(_:)``, then misuses `more` times, `pauses` times over, and exits. `environment`
  /// is the app's own (`BINDING_DIAGNOSTICS_…` settings). The app's standard output and error
  /// are the host's `app.out` and `app.err` (``file(_:_:)``); ``run(_:_:)`` runs commands in
  /// the host's namespaces.
  func addHost(
    _ name: String, misuses: Int, entries: [JournalNativeSender.Entry] = [], pauses: Int = 0,
    more: Int = 0, environment: [String: String] = [:]
  ) throws {
    let hostDirectory = directory + "/" + name
    try FileManager.default.createDirectory(
      atPath: hostDirectory, withIntermediateDirectories: true)
    var app: [String] = []
    if pauses > 0 {
      let paths = (1...pauses).map { hostDirectory + "/pause.\($0)" }
      for path in paths { _ = FileManager.default.createFile(atPath: path, contents: nil) }
      app = ["--pause-until-gone", paths.joined(separator: ","), "--more", String(more)]
    }
    try JournalNativeSender.script.write(
      toFile: hostDirectory + "/sender.py", atomically: true, encoding: .utf8)
    if !entries.isEmpty {
      try JournalNativeSender.payload(entries).write(
        to: URL(fileURLWithPath: hostDirectory + "/entries.json"))
    }
    var upload = ["--save-state=\(hostDirectory)/upload.state"]
    switch transport {
    case .http: upload.append("--url=\(url)")
    case .https(let ca):
      let client = try ca.client(name)
      try Fleet.shippedConfiguration(
        "journal-upload.conf",
        replacing: [
          ("https://journal.example.internal:19532", url),
          ("/etc/ssl/private/journal-upload.pem", client.key),
          ("/etc/ssl/certs/journal-upload.pem", client.certificate),
          ("/etc/ssl/ca/trusted.pem", ca.certificate),
        ]
      ).write(toFile: hostDirectory + "/journal-upload.conf", atomically: true, encoding: .utf8)
    }
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    let process = try start(
      "/usr/bin/timeout",
      [
        "300", "unshare", "-m", "-u", "-p", "-f", "--mount-proc", "--kill-child", "/bin/sh", "-c",
        Fleet.hostScript, "sh", hostDirectory, name, String(misuses), Fleet.journald!,
        Fleet.upload!, helper,
      ] + upload, log: name + "/host.log",
      environment: [
        "FLEET_APP_ARGS": app.joined(separator: " "),
        "FLEET_APP_ENV": environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
          .joined(separator: " "),
      ])
    hosts.append((name, hostDirectory, process))
  }

  /// Runs `command` (`sh`, sourced) in the host's namespaces, where `$journald_pid` and
  /// `$upload_pid` are its journald's and uploader's, and `start_journald` starts a new
  /// journald; waits (bounded) until it is done and returns what it printed.
  @discardableResult
  func run(_ host: String, _ command: String) throws -> String {
    let hostDirectory = directory + "/" + host
    let number = commandsRun[host, default: 0]
    commandsRun[host] = number + 1
    let path = hostDirectory + "/do.\(number)"
    // Written aside, then moved: the host never sources half a command.
    try command.write(toFile: path + ".new", atomically: false, encoding: .utf8)
    try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
    guard waitUntil(seconds: 30, { FileManager.default.fileExists(atPath: path + ".done") })
    else { throw Failure("\(host) did not run \(command): \(log(host + "/host.log"))") }
    return log(host + "/do.\(number).out")
  }

  /// Waits (bounded) until the host's app has printed `line` `times` times.
  func waitForApp(_ host: String, saying line: String, times: Int = 1) throws {
    guard
      waitUntil(
        seconds: 60,
        {
          file(host, "app.out").split(separator: "\n").filter { $0 == line }.count >= times
        })
    else {
      throw Failure(
        "\(host)'s app did not say \(line) \(times) times: \(file(host, "app.out")) \(file(host, "app.err")) \(log(host + "/host.log"))"
      )
    }
  }

  /// Lets the host's paused app go on (it misuses `more` times, then pauses again or exits).
  func resume(_ host: String) throws {
    let hostDirectory = directory + "/" + host
    let pauses = (try FileManager.default.contentsOfDirectory(atPath: hostDirectory))
      .filter { $0.hasPrefix("pause.") }.sorted {
        $0.count != $1.count ? $0.count < $1.count : $0 < $1
      }
    guard let next = pauses.first else { throw Failure("\(host) has no pause left") }
    try FileManager.default.removeItem(atPath: hostDirectory + "/" + next)
  }

  /// Waits (bounded) until the host's app has exited, and returns its exit status.
  @discardableResult
  func waitForAppExit(_ host: String) throws -> Int {
    // The shell creates the file before it writes the status: wait for the number.
    func status() -> Int? {
      Int(file(host, "app.status").trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard waitUntil(seconds: 60, { status() != nil }), let code = status() else {
      throw Failure("\(host)'s app did not exit: \(file(host, "app.err"))")
    }
    return code
  }

  /// A file of the host's directory (`app.out`, `app.err`, `upload.log`, …), or `""`.
  func file(_ host: String, _ name: String) -> String {
    (try? String(contentsOfFile: directory + "/\(host)/\(name)", encoding: .utf8)) ?? ""
  }

  /// The path of a file of the host's directory.
  func path(_ host: String, _ name: String) -> String { directory + "/\(host)/\(name)" }

  /// Waits until every host has written all it was asked to (bounded).
  func waitUntilHostsSent() throws {
    for host in hosts {
      let sent = host.directory + "/sent"
      guard
        waitUntil(
          seconds: 60,
          {
            FileManager.default.fileExists(atPath: sent) || !host.process.isRunning
          }), FileManager.default.fileExists(atPath: sent)
      else { throw Failure("\(host.name) did not finish: \(log(host.name + "/host.log"))") }
    }
  }

  /// The host's uploader log and state, for messages and checks.
  func uploadState(_ host: String) -> String {
    (try? String(contentsOfFile: directory + "/\(host)/upload.state", encoding: .utf8)) ?? ""
  }

  /// A file of this fleet's directory, or what it is.
  func log(_ name: String) -> String {
    (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "(no \(name))"
  }

  /// Ends every process: hosts first (asked, then killed), then the central server (`SIGTERM`
  /// closes its journal files). Safe to call twice.
  func stop() {
    for host in hosts {
      _ = FileManager.default.createFile(atPath: host.directory + "/stop", contents: nil)
    }
    for host in hosts { stopProcess(host.process, grace: 10) }
    hosts.removeAll()
    if let server { stopProcess(server) }
    server = nil
  }

  /// Polls `condition` every 50 ms for at most `seconds`; whether it became true.
  func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      usleep(50_000)
    }
    return try condition()
  }

  /// Waits at most `grace` seconds for `process` to end by itself, then sends `SIGTERM`, and
  /// 5 s later `SIGKILL`, to it and every process under it. (Each gets the signal itself: the
  /// test runner's thread may have blocked `SIGTERM`, and `timeout` inherits that mask, so it
  /// would never pass the signal on.)
  private func stopProcess(_ process: Process, grace: Double = 0) {
    if waitUntil(seconds: grace, { !process.isRunning }) { return }
    for signal in [SIGTERM, SIGKILL] {
      for pid in [process.processIdentifier] + Fleet.descendants(of: process.processIdentifier) {
        kill(pid, signal)
      }
      if waitUntil(seconds: 5, { !process.isRunning }) { return }
    }
  }

  /// The processes under `pid`, from `/proc/PID/task/TID/children`.
  private static func descendants(of pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let children = tasks.flatMap { task in
      ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
        .split(separator: " ").compactMap { Int32($0) }
    }
    return children + children.flatMap { descendants(of: $0) }
  }

  private func start(
    _ executable: String, _ arguments: [String], log: String,
    environment more: [String: String] = [:]
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("BINDING_DIAGNOSTICS") {
      environment[key] = nil
    }
    environment.merge(more) { $1 }
    process.environment = environment
    let path = directory + "/" + log
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try output.close()
    return process
  }

  /// What runs as the first process of a host's namespaces:
  /// `sh -c SCRIPT sh DIR HOST COUNT JOURNALD UPLOAD HELPER UPLOAD-OPTIONS…`, with the app's
  /// own options in `FLEET_APP_ARGS` and its settings in `FLEET_APP_ENV` (words without
  /// blanks). The app runs in the background; the script runs the test's commands (`DIR/do.N`,
  /// sourced, in order) until `DIR/stop` appears.
  private static let hostScript = #"""
    set -eu
    dir=$1 host=$2 count=$3 journald=$4 upload=$5 helper=$6
    shift 6
    hostname "$host"
    # This host's own /run (journald's sockets, its volatile journal) and persistent journal
    # directory; no configuration of the machine's (/etc/systemd) applies.
    mount -t tmpfs tmpfs /run
    mkdir -p /run/systemd/journal /run/log/journal
    if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
    mount -t tmpfs tmpfs /etc/systemd
    printf '[Journal]\nStorage=volatile\nReadKMsg=no\nRateLimitIntervalSec=0\nForwardToSyslog=no\nForwardToWall=no\n' \
      >/etc/systemd/journald.conf
    if [ -s "$dir/journal-upload.conf" ]; then
      mkdir /etc/systemd/journal-upload.conf.d
      cp "$dir/journal-upload.conf" /etc/systemd/journal-upload.conf.d/bindiag.conf
    fi
    # Starts journald (again, after a test stopped it) and waits for its socket.
    start_journald() {
      rm -f /run/systemd/journal/socket
      "$journald" >>"$dir/journald.log" 2>&1 &
      journald_pid=$!
      tries=0
      until [ -S /run/systemd/journal/socket ]; do
        tries=$((tries + 1))
        if [ "$tries" -gt 200 ]; then echo "journald did not start" >&2; return 10; fi
        sleep 0.05
      done
    }
    start_journald
    "$upload" "$@" >"$dir/upload.log" 2>&1 &
    upload_pid=$!
    (
      set +e
      env ${FLEET_APP_ENV:-} BINDING_DIAGNOSTICS=journald BINDING_DIAGNOSTICS_RATE_LIMIT=off \
        timeout 60 "$helper" "$count" checkout ${FLEET_APP_ARGS:-} >"$dir/app.out" 2>"$dir/app.err"
      echo $? >"$dir/app.status"
      if [ -s "$dir/entries.json" ]; then
        timeout 30 python3 "$dir/sender.py" 0 <"$dir/entries.json" >/dev/null
      fi
      : >"$dir/sent"
    ) &
    commands=0 tries=0
    until [ -e "$dir/stop" ]; do
      if [ -e "$dir/do.$commands" ]; then
        . "$dir/do.$commands" >"$dir/do.$commands.out" 2>&1 || echo "failed: $?" >>"$dir/do.$commands.out"
        : >"$dir/do.$commands.done"
        commands=$((commands + 1))
      fi
      tries=$((tries + 1))
      if [ "$tries" -gt 2400 ]; then exit 11; fi
      sleep 0.05
    done
    """#

  /// What the central server runs as: `sh -c SCRIPT sh CONFIGURATION REMOTE OPTIONS…`, in its
  /// own mount namespace (the machine's network).
  private static let centralScript = #"""
    set -eu
    configuration=$1
    shift
    mount -t tmpfs tmpfs /etc/systemd
    if [ -n "$configuration" ]; then
      mkdir /etc/systemd/journal-remote.conf.d
      cp "$configuration" /etc/systemd/journal-remote.conf.d/bindiag.conf
    fi
    exec "$@"
    """#

  /// The repository's `config/fleet/NAME`, each `(old, new)` replaced; every `old` must be
  /// there, so the test notices when the shipped file changes.
  static func shippedConfiguration(_ name: String, replacing: [(String, String)]) throws
    -> String
  {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var text = try String(
      contentsOf: repository.appendingPathComponent("config/fleet/" + name), encoding: .utf8)
    for (old, new) in replacing {
      guard text.contains(old) else { throw Failure("config/fleet/\(name) has no \(old)") }
      text = text.replacingOccurrences(of: old, with: new)
    }
    return text
  }

  /// A TCP port on 127.0.0.1 nobody listens on right now.
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw Failure("bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  private static func accepts(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
  }
}

extension Fleet.Transport {
  var scheme: String {
    switch self {
    case .http: "http"
    case .https: "https"
    }
  }
}
