// `--fork-storm N`: forks N children, one at a time, while `--threads` other threads instantiate
// generic metadata the runtime has never seen (so they hold the runtime's metadata cache locks
// as often as they can); each child misuses once, through its own pipeline, and exits. A child
// that has not ended within `deadline` seconds is killed and counted as hung.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Generic types to instantiate: each nesting of these over `Int` is a type never seen before.
struct StormBox<T> { var value: T? }
struct StormPair<T, U> { var first: T; var second: U }

/// Instantiates metadata for a type made of `depth` layers chosen by `bits`, and for the
/// standard library's generic types over it (the caches a forked child's own code also uses:
/// `Optional`, `Array`, `Dictionary`, tuples).
func instantiate<T>(_ type: T.Type, depth: Int, bits: Int) -> Int {
  guard depth > 0 else {
    let types: [Any.Type] = [
      T?.self, [T].self, [[T]].self, [T?].self, [[T?]].self, [Int: T].self, (T, Int).self,
    ]
    return types.reduce(0) { $0 &+ ObjectIdentifier($1).hashValue }
  }
  return bits & 1 == 0
    ? instantiate(StormBox<T>.self, depth: depth - 1, bits: bits >> 1)
    : instantiate(StormPair<T, Int>.self, depth: depth - 1, bits: bits >> 1)
}

/// Where the churning threads leave what they made, so that no optimizer drops the work.
nonisolated(unsafe) var churned = 0

/// Starts `count` threads that instantiate fresh metadata until the process ends.
func startMetadataChurn(threads count: Int) {
  for thread in 0..<count {
    Thread {
      // Thread `thread` makes the types whose low bits are its number: no two threads race
      // to make the same one, so every call is a miss that takes the caches' locks.
      var serial = thread
      while true {
        churned = instantiate(Int.self, depth: 18, bits: serial)
        serial += count
      }
    }.start()
  }
}

/// Forks `count` children one after the other, each misusing once through `misuse` and exiting;
/// prints one line per hung child and then "forks N hung H".
func forkStorm(_ count: Int, churn threads: Int, deadline: Double, misuse: () -> Void) {
  startMetadataChurn(threads: threads)
  usleep(100_000)
  var hung = 0
  for _ in 0..<count {
    let child = fork()
    if child == 0 {
      misuse()
      exit(0)
    }
    guard child > 0 else {
      say("fork failed: errno \(errno)")
      exit(1)
    }
    var status: Int32 = 0
    let start = Date()
    while waitpid(child, &status, WNOHANG) == 0 {
      if Date().timeIntervalSince(start) > deadline {
        kill(child, SIGKILL)
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        hung += 1
        say("hung \(child)")
        break
      }
      usleep(1000)
    }
  }
  say("forks \(count) hung \(hung)")
}
