// A tiny app for multi-process tests: misuses a mapped binding COUNT times through the
// process-wide pipeline, configured from the environment like any app, then exits (the
// exit-time flush writes whatever is pending).
//
//   misuse-helper COUNT [LABEL] [options]
//     --threads N              misuse from N threads at once (COUNT each)
//     --pause-until-gone PATH  after COUNT misuses, print "paused", wait until PATH is gone,
//                              then misuse `--more` times; with PATH,PATH2,…, pause again
//                              before each next `--more` misuses
//     --more N                 misuses after the pause (default 0)
//     --forever                after COUNT, keep misusing until a signal ends the process
//     --then-sleep             after COUNT, print "done" and sleep until a signal ends it
//     --exit-on-sigterm        install a SIGTERM handler that calls exit(0), as many apps do
//     --stats                  print the JSON Lines sink's statistics before exiting
//     --early-bootstrap        bootstrap (logfmt on standard error) before misusing
//     --late-bootstrap         bootstrap after the misuses (ignored, with a warning)
//     --exit-while-misusing MS after COUNT, start --threads threads that misuse without end,
//                              print "misusing", and call exit(0) MS milliseconds later
//     --fork N                 after COUNT, fork() without exec: the child misuses N times and
//                              exits(0) (or, with --child-sleeps, prints "child ready" and
//                              sleeps until a signal ends it); the parent prints "child PID",
//                              waits for it, prints "child exited S" or "child signaled S",
//                              then misuses N times itself
//     --child-sleeps           see --fork
//     --fork-storm N           after COUNT, fork N children one at a time while --threads
//                              other threads instantiate fresh generic metadata without end; each
//                              child misuses once and exits; a child not ended within 10 s is
//                              killed; prints "hung PID" for each, then "forks N hung H" (and
//                              `_exit`s, leaving the churning threads)
//     --code-jsonl PATH        bootstrap with `.jsonLines(path: PATH)` made in code (rate limit
//                              off) instead of configuring from the environment
//     --app-sink PATH          bootstrap with the app-defined `BufferedFileSink(path: PATH)` of
//                              BufferedFileSink.swift (rate limit off), the example of the
//                              "Implementing a sink" article
//     --hoard-fds              lower the descriptor limit to 64 and open /dev/null until none is
//                              left, then misuse COUNT times; then close them, print "freed",
//                              wait 1.5 s (past the sink's retry delays), misuse `--more` times
//                              and flush
//     --jsonl-sinks N:DIR      only this: lower the descriptor limit to 256, open N synchronous
//                              JSON Lines sinks DIR/0.jsonl, DIR/1.jsonl, … and keep them; print
//                              "opened A refused B", the first refusal, and whether a descriptor
//                              can still be opened
//     --exit-in-malloc         after COUNT, install a SIGTERM handler that calls exit(0), print
//                              "allocating", and allocate and free without end on the main
//                              thread (with every other thread blocking SIGTERM, the handler
//                              interrupts the main thread, most often inside malloc or free)
//     --writes misused|correct after COUNT, the writes of WriteScenarios.swift: bindings made on
//                              the main thread written from a DispatchQueue, through .constant and
//                              a dropping setter, a setter writing back into its own binding; or
//                              the same app written correctly
//     --main-actor-writes      after COUNT, WriteScenarios.runOnTheMainActor: bindings made on the
//                              main thread and on the main actor of an app parked in
//                              dispatchMain(), written on the main actor and from detached tasks
import BindingDiagnostics
import Foundation

#if canImport(SwiftUI)
  import SwiftUI
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Start as a service manager or a shell starts an app: no signal blocked. (A test runner's
// worker thread that spawns us may have blocked them, and the mask is inherited.)
var emptySet = sigset_t()
sigemptyset(&emptySet)
pthread_sigmask(SIG_SETMASK, &emptySet, nil)

nonisolated(unsafe) var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  defer { arguments.removeSubrange(index...(index + 1)) }
  return arguments[index + 1]
}
func flag(_ name: String) -> Bool {
  guard let index = arguments.firstIndex(of: name) else { return false }
  arguments.remove(at: index)
  return true
}
let threads = option("--threads").flatMap(Int.init) ?? 1
let pausePath = option("--pause-until-gone")
let more = option("--more").flatMap(Int.init) ?? 0
let forever = flag("--forever")
let thenSleep = flag("--then-sleep")
let exitOnSigterm = flag("--exit-on-sigterm")
let stats = flag("--stats")
let earlyBootstrap = flag("--early-bootstrap")
let lateBootstrap = flag("--late-bootstrap")
let exitWhileMisusing = option("--exit-while-misusing").flatMap(Int.init)
let forkCount = option("--fork").flatMap(Int.init)
let childSleeps = flag("--child-sleeps")
let forkStormCount = option("--fork-storm").flatMap(Int.init)
let hoardFDs = flag("--hoard-fds")

/// Lowers the soft limit on descriptors to `count`.
func limitDescriptors(to count: rlim_t) {
  #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    let resource = RLIMIT_NOFILE
  #endif
  var limit = rlimit()
  getrlimit(resource, &limit)
  limit.rlim_cur = count
  setrlimit(resource, &limit)
}
if let request = option("--jsonl-sinks"), let colon = request.firstIndex(of: ":"),
  let count = Int(request[..<colon])
{
  limitDescriptors(to: 256)
  let directory = String(request[request.index(after: colon)...])
  var sinks: [JSONLinesFileSink] = []
  var refusals: [String] = []
  for index in 0..<count {
    switch JSONLinesFileSink.open(
      path: "\(directory)/\(index).jsonl", options: .init(synchronous: true))
    {
    case .success(let sink): sinks.append(sink)
    case .failure(let error): refusals.append(error.description)
    }
  }
  print("opened \(sinks.count) refused \(refusals.count)")
  print(refusals.first ?? "no refusal")
  let probe = open("/dev/null", O_RDONLY)
  print(probe >= 0 ? "a descriptor is left" : "no descriptor left")
  exit(0)
}
var hoarded: [Int32] = []
if hoardFDs {
  limitDescriptors(to: 64)
  while case let fd = open("/dev/null", O_RDONLY), fd >= 0 { hoarded.append(fd) }
}
let exitInMalloc = flag("--exit-in-malloc")
let writes = option("--writes")
if let path = option("--code-jsonl") {
  DiagnosticsSystem.bootstrap(
    DiagnosticsConfiguration(sink: .jsonLines(path: path), rateLimit: nil))
}
if let path = option("--app-sink") {
  DiagnosticsSystem.bootstrap(
    DiagnosticsConfiguration(sink: BufferedFileSink(path: path), rateLimit: nil))
}
guard arguments.count >= 1, let count = Int(arguments[0]), count >= 0 else {
  print("usage: misuse-helper COUNT [LABEL] [options]")
  exit(64)
}
let label = arguments.count >= 2 ? arguments[1] : nil

final class Model: @unchecked Sendable {
  // Unsynchronised on purpose: the flag never changes it (writing `true` is the misuse).
  var alert: String? = "Disk almost full"
}
if earlyBootstrap {
  DiagnosticsSystem.bootstrap(DiagnosticsConfiguration(sink: StandardErrorSink(format: .logfmt)))
}
let model = Model()
let alert = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
// Made off the main thread, so that writes from --threads' threads report only what they do to
// the flag (a binding made on the main thread and written from another reports that too).
let isPresented = madeOffMainThread {
  alert.mappedToBool(label: label)
}

if exitOnSigterm {
  signal(SIGTERM) { _ in exit(0) }
}

/// Prints `text` at once (tests wait for it).
func say(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func misuse(_ times: Int) {
  if threads == 1 || forkStormCount != nil {
    for _ in 0..<times { isPresented.wrappedValue = true }
  } else {
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<times { isPresented.wrappedValue = true }
    }
  }
}

misuse(count)
if hoardFDs {
  for fd in hoarded { close(fd) }
  say("freed")
  usleep(1_500_000)
  misuse(more)
  DiagnosticsSystem.flush()
}
if let writes {
  WriteScenarios.run(misused: writes == "misused")
}
if flag("--main-actor-writes") {
  WriteScenarios.runOnTheMainActor()
}
if lateBootstrap {
  DiagnosticsSystem.bootstrap(DiagnosticsConfiguration(sink: StandardErrorSink(format: .logfmt)))
}
if let forkCount {
  let child = fork()
  if child == 0 {
    misuse(forkCount)
    if childSleeps {
      say("child ready")
      while true { sleep(1000) }
    }
    exit(0)
  }
  say("child \(child)")
  var status: Int32 = 0
  while waitpid(child, &status, 0) < 0 && errno == EINTR {}
  // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import.
  let signal = status & 0x7f
  say(signal == 0 ? "child exited \((status >> 8) & 0xff)" : "child signaled \(signal)")
  misuse(forkCount)
}
if let forkStormCount {
  DiagnosticsSystem.flush()
  forkStorm(forkStormCount, churn: threads, deadline: 10) { misuse(1) }
  _exit(0)
}
if let pausePath {
  for path in pausePath.split(separator: ",").map(String.init) {
    DiagnosticsSystem.flush()
    say("paused")
    while FileManager.default.fileExists(atPath: path) { usleep(10_000) }
    // Past the sink's first retry delay (100 ms), so the next write is tried at once.
    usleep(300_000)
    misuse(more)
  }
}
if let exitWhileMisusing {
  for _ in 0..<threads {
    Thread { while true { isPresented.wrappedValue = true } }.start()
  }
  say("misusing")
  usleep(UInt32(exitWhileMisusing) * 1000)
  exit(0)
}
if exitInMalloc {
  signal(SIGTERM) { _ in exit(0) }
  say("allocating")
  // Sizes past glibc's per-thread cache, so that each call takes the arena's lock.
  var size = 2000
  while true {
    let block = malloc(size)
    free(block)
    size = size == 2000 ? 3000 : 2000
  }
}
if thenSleep {
  say("done")
  while true { sleep(1000) }
}
if forever {
  say("misusing")
  while true {
    misuse(1)
    usleep(50)
  }
}
if stats {
  DiagnosticsSystem.flush()
  let sink = DiagnosticsSystem.current.configuration.sink
  if let sink = sink as? JSONLinesFileSink {
    let statistics = sink.statistics
    say("written=\(statistics.written) dropped=\(statistics.dropped)")
  } else if let sink = sink as? JournaldSink {
    say("sent=\(sink.sent) queued=\(sink.queued) dropped=\(sink.dropped)")
  }
}
