import Dispatch
import Foundation

#if canImport(Darwin)
  import Darwin
#else
  #if canImport(Glibc)
    import Glibc
  #endif
  import Synchronization
#endif

/// Which thread is running, in a few nanoseconds: the write checks of bindings ask it on every
/// write, so neither `Thread.current` (a thread-specific lookup, an object) nor a system call.
///
/// A thread's identity is its `pthread_self()` as a number, never 0. Whether a thread is the main
/// thread is `pthread_main_np()` on Apple platforms. Linux has no such call: the main thread's
/// `pthread_self()` is remembered the first time it asks, after which a thread is main when its
/// `pthread_self()` is that one (a load and a comparison). Until the main thread has asked, a
/// thread asks Foundation once (`Thread.isMainThread`, which compares with the main thread
/// Foundation captured at load) and keeps the answer in thread-specific data.
///
/// The checks' "main thread" is where SwiftUI wants state changed: the main actor. On Apple
/// platforms the main actor's work (the main queue) runs on the main thread only. On Linux the
/// main actor's work is the main queue's too, but once the main thread parks in
/// `dispatch_main()` (an `async` main, top-level `await`, and `swift test`, which runs a
/// `@MainActor` test there) libdispatch drains the main queue from a worker thread. So on Linux
/// a thread that is not the main thread counts as main while it runs the main queue's work:
/// asked of libdispatch (`dispatch_get_specific` of a key set on the main queue), and only when
/// the thread is not the main one (``isMain(_:)``, ``mainOrZero()``).
/// Figures: the DocC article "Writes that go wrong".
@usableFromInline
enum ThreadIdentity {
  /// The calling thread's identity: `pthread_self()` as a number.
  @usableFromInline
  static func current() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// What a binding made now keeps as its maker: the calling thread's identity when it is the
  /// main thread, ``mainQueue`` when it runs the main queue's work off the main thread (Linux),
  /// else 0 (made off the main thread: not checked).
  @usableFromInline
  static func mainOrZero() -> UInt {
    #if canImport(Darwin)
      if pthread_main_np() != 0 { return current() }
      return standingIn(current())
    #else
      let me = UInt(pthread_self())
      let main = mainThread.load(ordering: .relaxed)
      if main == me { return me }
      if main == 0, discover(me) == me { return me }
      if isOnMainQueue() { return mainQueue }
      return standingIn(me)
    #endif
  }

  /// The maker of a binding made while the main queue's work ran off the main thread (Linux):
  /// no thread's identity, so every write asks ``isMain(_:)``.
  @usableFromInline static let mainQueue = UInt.max

  /// Whether `thread`, the calling thread's identity, counts as the main thread: it is the main
  /// thread, or (Linux) it runs the main queue's work now. The write checks ask only when the
  /// writing thread is not the one that made the binding.
  /// - Parameter thread: ``current()``.
  @usableFromInline
  static func isMain(_ thread: UInt) -> Bool {
    #if canImport(Darwin)
      return pthread_main_np() != 0 || standingIn(thread) != 0
    #else
      let main = mainThread.load(ordering: .relaxed)
      if main == thread { return true }
      if main == 0, discover(thread) == thread { return true }
      return isOnMainQueue() || standingIn(thread) != 0
    #endif
  }

  /// `me` when it is ``MainThreadStandIn``'s thread (debug builds), else 0.
  private static func standingIn(_ me: UInt) -> UInt {
    #if DEBUG
      return standIn.withLock { $0 } == me ? me : 0
    #else
      return 0
    #endif
  }

  #if DEBUG
    /// The identity of ``MainThreadStandIn``'s thread, 0 until it starts.
    static let standIn = Lock<UInt>(0)
  #endif

  #if !canImport(Darwin)
    /// A key set on the main queue: `dispatch_get_specific` finds it while the calling thread
    /// runs the main queue's work.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
      let key = DispatchSpecificKey<Bool>()
      DispatchQueue.main.setSpecific(key: key, value: true)
      return key
    }()

    /// Whether the calling thread runs the main queue's work now.
    private static func isOnMainQueue() -> Bool {
      DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// The main thread's `pthread_self()`, 0 until it has asked.
    private static let mainThread = Atomic<UInt>(0)

    /// Thread-specific data: 1 for a thread known not to be the main thread.
    private static let notMainKey: pthread_key_t? = {
      var key = pthread_key_t()
      return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Whether `me` is the main thread, before the main thread is known: asked of Foundation
    /// once per thread.
    @inline(never)
    private static func discover(_ me: UInt) -> UInt {
      if let key = notMainKey, pthread_getspecific(key) != nil { return standingIn(me) }
      if Thread.isMainThread {
        mainThread.store(me, ordering: .relaxed)
        return me
      }
      if let key = notMainKey { _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
      return standingIn(me)
    }
  #endif
}

#if DEBUG
  /// A test hook of debug builds: a thread of the library's that bindings count as made on the
  /// main thread, for tests of ``MisuseKind/setOffMainThread`` in a process whose main thread
  /// runs no test (`swift test` on Linux runs tests on the cooperative pool, and `@MainActor`
  /// tests on the main queue off the main thread).
  ///
  /// One thread for the whole process, never ended, so no later thread can take its identity.
  package enum MainThreadStandIn {
    private final class Worker: @unchecked Sendable {
      let callers = NSLock()
      let start = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      /// Set by a caller under `callers`, run and cleared by the thread.
      var job: (() -> Void)?

      init() {
        let started = DispatchSemaphore(value: 0)
        Thread { [self] in
          ThreadIdentity.standIn.withLock { $0 = ThreadIdentity.current() }
          started.signal()
          while true {
            start.wait()
            job?()
            job = nil
            done.signal()
          }
        }.start()
        started.wait()
      }
    }

    private static let worker = Worker()

    /// Runs `body` on the stand-in thread and returns its result; bindings it makes count as
    /// made on the main thread.
    /// - Parameter body: Makes the bindings.
    /// - Returns: What `body` returns.
    package static func run<T>(_ body: @escaping @Sendable () -> T) -> T {
      let worker = worker
      worker.callers.lock()
      defer { worker.callers.unlock() }
      nonisolated(unsafe) var result: T?
      worker.job = { result = body() }
      worker.start.signal()
      worker.done.wait()
      return result!
    }
  }
#endif
