// Misuse entries among other services' ordinary log entries, in journal export format
// (`export-mixed HOST N UNRELATED SEED`).

/// Ordinary log entries of a server's other services (nginx, sshd, the kernel firewall,
/// postgres, systemd, cron) in journal export format, with the fields journald gives each
/// transport; their messages vary as real ones do, so most of an entry's data is new to the
/// journal file.
struct UnrelatedExport {
  var random: SplitMix64
  let host: String
  static let machineID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

  /// The fields every entry shares, per service: transport, unit, process.
  let prefixes: [[UInt8]]

  /// - Parameter bootID: The boot the misuse entries were written in, shared by these.
  init(host: String, bootID: String, seed: UInt64) {
    self.host = host
    random = SplitMix64(state: seed)
    func service(
      _ transport: String, _ identifier: String, _ unit: String, pid: Int, uid: Int,
      comm: String, exe: String, cmdline: String, extra: String = ""
    ) -> [UInt8] {
      Array(
        """
        _BOOT_ID=\(bootID)
        _MACHINE_ID=\(UnrelatedExport.machineID)
        _HOSTNAME=\(host)
        _TRANSPORT=\(transport)
        SYSLOG_IDENTIFIER=\(identifier)
        _PID=\(pid)
        _UID=\(uid)
        _GID=\(uid)
        _COMM=\(comm)
        _EXE=\(exe)
        _CMDLINE=\(cmdline)
        _CAP_EFFECTIVE=0
        _SELINUX_CONTEXT=unconfined
        _SYSTEMD_CGROUP=/system.slice/\(unit)
        _SYSTEMD_UNIT=\(unit)
        _SYSTEMD_SLICE=system.slice
        _SYSTEMD_INVOCATION_ID=\(String(unit.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }, radix: 16).leftPad(32))

        """.utf8) + Array(extra.utf8)
    }
    prefixes = [
      service(
        "stdout", "nginx", "nginx.service", pid: 812, uid: 33, comm: "nginx",
        exe: "/usr/sbin/nginx", cmdline: "nginx: worker process",
        extra: "PRIORITY=6\nSYSLOG_FACILITY=3\n"),
      service(
        "syslog", "sshd", "ssh.service", pid: 2231, uid: 0, comm: "sshd", exe: "/usr/sbin/sshd",
        cmdline: "sshd: deploy [priv]", extra: "PRIORITY=6\nSYSLOG_FACILITY=4\n"),
      service(
        "kernel", "kernel", "kernel", pid: 0, uid: 0, comm: "swapper", exe: "/",
        cmdline: "kernel", extra: "PRIORITY=4\nSYSLOG_FACILITY=0\n"),
      service(
        "stdout", "postgres", "postgresql@15-main.service", pid: 1502, uid: 108,
        comm: "postgres", exe: "/usr/lib/postgresql/15/bin/postgres",
        cmdline: "/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main",
        extra: "PRIORITY=6\nSYSLOG_FACILITY=3\n"),
      service(
        "journal", "systemd", "init.scope", pid: 1, uid: 0, comm: "systemd",
        exe: "/usr/lib/systemd/systemd", cmdline: "/sbin/init",
        extra:
          "PRIORITY=6\nSYSLOG_FACILITY=3\nMESSAGE_ID=39f53479d3a045ac8e11786248231fbf\n"
          + "CODE_FILE=src/core/job.c\nCODE_LINE=581\nCODE_FUNC=job_emit_done_message\n"
          + "JOB_TYPE=start\nJOB_RESULT=done\n"),
      service(
        "syslog", "CRON", "cron.service", pid: 611, uid: 0, comm: "cron", exe: "/usr/sbin/cron",
        cmdline: "/usr/sbin/cron -f", extra: "PRIORITY=6\nSYSLOG_FACILITY=9\n"),
    ]
  }

  /// Appends one entry written at `realtime`.
  mutating func append(realtime: Int64, into out: inout [UInt8]) {
    let roll = random.next()
    // Mostly web and database traffic, as on a busy server.
    let service = [0, 0, 0, 0, 3, 3, 1, 2, 4, 5][Int(roll % 10)]
    out += "__REALTIME_TIMESTAMP=".utf8
    number(realtime, &out)
    out += "\n__MONOTONIC_TIMESTAMP=".utf8
    number(realtime - 1_795_999_000_000_040, &out)
    out += "\n_SOURCE_REALTIME_TIMESTAMP=".utf8
    number(realtime - 7, &out)
    out.append(UInt8(ascii: "\n"))
    out += prefixes[service]
    let bits = random.next()
    out += "MESSAGE=".utf8
    switch service {
    case 0:
      ip(bits, &out)
      out += " - - [30/Nov/2026:04:12:33 +0000] \"GET /api/items/".utf8
      number(Int64(bits >> 32 % 1_000_000), &out)
      out += "?page=".utf8
      number(Int64(bits >> 8 & 0xff), &out)
      out += " HTTP/1.1\" ".utf8
      out += ["200", "200", "304", "404"][Int(bits >> 60 & 3)].utf8
      out.append(UInt8(ascii: " "))
      number(Int64(bits >> 40 & 0xffff), &out)
      out += " \"-\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0\"".utf8
      out += "\n_STREAM_ID=".utf8
      hex(random.next(), &out)
    case 1:
      out += "Accepted publickey for deploy from ".utf8
      ip(bits, &out)
      out += " port ".utf8
      number(Int64(bits >> 40 & 0x7fff) + 32768, &out)
      out += " ssh2: ED25519 SHA256:".utf8
      hex(random.next(), &out)
      hex(random.next(), &out)
      out += "\nSYSLOG_PID=".utf8
      number(Int64(bits >> 48 & 0x7fff) + 3000, &out)
      out += "\nSYSLOG_TIMESTAMP=Nov 30 04:12:33 ".utf8
    case 2:
      out += "[UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:12:34:56:52:54:00:65:43:21:08:00 SRC=".utf8
      ip(bits, &out)
      out += " DST=10.0.0.5 LEN=60 TOS=0x00 PREC=0x00 TTL=52 ID=".utf8
      number(Int64(bits >> 16 & 0xffff), &out)
      out += " DF PROTO=TCP SPT=".utf8
      number(Int64(bits >> 32 & 0xffff), &out)
      out += " DPT=22 WINDOW=64240 RES=0x00 SYN URGP=0\n_SOURCE_MONOTONIC_TIMESTAMP=".utf8
      number(realtime - 1_795_999_000_000_100, &out)
    case 3:
      out += "2026-11-30 04:12:33.123 UTC [1502] LOG:  duration: ".utf8
      number(Int64(bits % 100_000), &out)
      out += " us  statement: SELECT id, name, updated_at FROM items WHERE owner_id = ".utf8
      number(Int64(bits >> 20 % 10_000_000), &out)
      out += "\n_STREAM_ID=".utf8
      hex(random.next(), &out)
    case 4:
      out += "Started session-".utf8
      number(Int64(bits % 100_000), &out)
      out += ".scope - Session of User deploy.\nUNIT=session-".utf8
      number(Int64(bits % 100_000), &out)
      out += ".scope\nINVOCATION_ID=".utf8
      hex(bits, &out)
      hex(random.next(), &out)
    default:
      out += "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)\nSYSLOG_PID=".utf8
      number(Int64(bits % 30_000) + 3000, &out)
    }
    out += "\n\n".utf8
  }

  private func number(_ value: Int64, _ out: inout [UInt8]) {
    out += String(value).utf8
  }

  private func hex(_ value: UInt64, _ out: inout [UInt8]) {
    out += String(value, radix: 16).leftPad(16).utf8
  }

  private func ip(_ bits: UInt64, _ out: inout [UInt8]) {
    out += "10.".utf8
    number(Int64(bits & 0xff), &out)
    out.append(UInt8(ascii: "."))
    number(Int64(bits >> 8 & 0xff), &out)
    out.append(UInt8(ascii: "."))
    number(Int64(bits >> 16 & 0xff), &out)
  }
}

/// `count` misuse entries of ``HostExport`` with `unrelated` ordinary entries of other services
/// spread evenly before them, in time order. The misuse entries are the same whatever
/// `unrelated` is, and so are their times, so two streams differ only in what a reader should
/// skip. Two in every thousand look like ours but are not sound: one without `BINDING_SCHEMA`
/// (not ours, by the contract), one with a `BINDING_SEQ` that is not a number (malformed).
func runGenerateMixedExport(host: String, count: Int, unrelated: Int, seed: UInt64) {
  var ours = HostExport(host: host, count: count, seed: seed)
  var others = UnrelatedExport(host: host, bootID: ours.bootID, seed: seed ^ 0x5bd1_e995)
  var out = [UInt8]()
  out.reserveCapacity(1 << 22)
  var previous = ours.micros
  var written = 0
  for index in 0..<count {
    var (realtime, fields) = ours.entry(index)
    if index % 1000 == 999 { fields.removeAll { $0.0 == "BINDING_SCHEMA" } }
    if index % 1000 == 499, let seq = fields.firstIndex(where: { $0.0 == "BINDING_SEQ" }) {
      fields[seq].1 = "x"
    }
    let gap = unrelated * (index + 1) / count - written
    for step in 0..<gap {
      others.append(
        realtime: previous + (realtime - previous) * Int64(step + 1) / Int64(gap + 1), into: &out)
    }
    written += gap
    previous = realtime
    appendExport(fields, into: &out)
    if out.count > (1 << 22) - 65536 {
      writeOut(out)
      out.removeAll(keepingCapacity: true)
    }
  }
  writeOut(out)
}
