// Clocks, best-of-N timing and the `name value unit` output line every benchmark prints.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps results alive so the optimizer cannot delete the measured work.
nonisolated(unsafe) var blackhole = 0

@inline(never) func consume(_ value: Bool) { blackhole &+= value ? 1 : 0 }

func nanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU time of the calling thread: unlike the wall clock, it does not count the time other
/// processes on a loaded machine take the core away.
func threadCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU time of the whole process (every thread).
func processCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The best of `rounds` timings of `body(iterations)`, in ns per iteration, on `clock`.
func measure(
  rounds: Int = 7, iterations: Int, clock: () -> UInt64 = nanoseconds, _ body: (Int) -> Void
) -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = clock()
    body(iterations)
    best = min(best, Double(clock() - start) / Double(iterations))
  }
  return best
}

/// Prints one result line, `name value unit`, the form Benchmarks/run.sh reads.
func report(_ name: String, _ value: Double, _ unit: String) {
  print("\(name) \(value) \(unit)")
}
