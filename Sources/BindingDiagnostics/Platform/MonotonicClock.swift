#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library's one clock for deadlines, delays and rates: `CLOCK_MONOTONIC`, which neither
/// jumps nor goes back when the wall clock is set.
package enum MonotonicClock {
  /// Nanoseconds since an arbitrary start (boot, on Linux): `clock_gettime(CLOCK_MONOTONIC)`.
  package static func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Seconds since the same start, for rates and elapsed times shown to people.
  package static func seconds() -> Double {
    Double(nanoseconds()) / 1e9
  }
}
