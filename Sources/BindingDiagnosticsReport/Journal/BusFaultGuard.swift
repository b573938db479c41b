#if canImport(Glibc)
  import Glibc
  import Synchronization

  /// Survives `SIGBUS` while libsystemd reads a journal file through `mmap(2)`: a file that
  /// shrinks under the reader (rotated, vacuumed, truncated by hand) faults on the pages past
  /// its new end. As `journalctl` does, the handler maps anonymous zeroed memory over the
  /// faulting page and counts the fault; the reader then sees the count change and skips that
  /// file.
  ///
  /// The handler is installed for the whole process the first time a journal is read (signal
  /// handlers are per process). A fault it cannot repair (the `mmap(2)` fails) restores the
  /// default action, so the signal kills the process as it would have.
  enum BusFaultGuard {
    /// Faults repaired so far, by any thread: the handler runs on the faulting thread
    /// (`SIGBUS` from a memory access is synchronous) and adds to it without a lock (a lock-free
    /// atomic is safe in a signal handler). A reader compares it before and after its own
    /// reads.
    private static let count = Atomic<Int>(0)

    /// `si_code` of an access to a page of a mapped file past its end (`BUS_ADRERR`): a
    /// constant, not a stored global (the handler must not run a global's lazy initializer).
    private static var addressError: Int32 { 2 }

    /// Faults repaired so far.
    static var faults: Int { count.load(ordering: .relaxed) }

    /// Installs the handler once (`sigaction(2)`).
    static let install: Void = {
      _ = count.load(ordering: .relaxed)
      var action = sigaction()
      action.__sigaction_handler.sa_sigaction = { number, info, _ in
        // Only a mapped file's missing page (`BUS_ADRERR`); a `SIGBUS` another process sent,
        // or a hardware memory error, takes the default action as it would have.
        guard let info, info.pointee.si_code == BusFaultGuard.addressError else {
          signal(number, SIG_DFL)
          raise(number)
          return
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let address = Int(bitPattern: info.pointee._sifields._sigfault.si_addr)
        let start = UnsafeMutableRawPointer(bitPattern: address & ~(page - 1))
        let mapped = mmap(
          start, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if start == nil || mapped == MAP_FAILED {
          signal(SIGBUS, SIG_DFL)
          return
        }
        BusFaultGuard.count.wrappingAdd(1, ordering: .relaxed)
      }
      action.sa_flags = SA_SIGINFO | SA_NODEFER
      sigemptyset(&action.sa_mask)
      _ = sigaction(SIGBUS, &action, nil)
    }()
  }
#else
  /// Elsewhere the journal is not read.
  enum BusFaultGuard {
    static let faults = 0
    static let install: Void = ()
  }
#endif
