#if canImport(Runtime)
  import Runtime
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Finds a misuse's ``WriterSite``: the return addresses of the current thread's stack, each
/// resolved to a source file and line once and remembered.
///
/// A capture takes the stack's return addresses with glibc's `backtrace(3)` (which unwinds by
/// the binaries' unwind tables, so C frames without frame pointers cannot derail it) and looks
/// each up in a table. An address not seen before costs one capture with Swift's `Runtime` module
/// (`Backtrace.capture`, then `symbolicated()`: milliseconds, once), which fills the table for
/// each of its addresses. That capture follows frame pointers, and reads a bottom-of-stack frame
/// without one (glibc's own start frames) as an address to follow: it is bounded to the frames
/// above the last few `backtrace(3)` found, so it never reaches them. What the table says of an
/// address is: either the first frame there (inlined frames included, innermost first) whose
/// source file is outside this package's `Sources/BindingDiagnostics*` folders, or "skip" (this
/// package, the Swift runtime and libraries, frames without debug information). A misuse whose
/// stack has no such frame, or a build without debug information, has no writer.
///
/// Debug builds only: in an optimized build (`-O`), Swift 6.3's frame-pointer walk was seen to
/// read address 0 and crash in a small program however few frames it was asked for, and an app
/// must never crash for a diagnostic. Release builds, and where the `Runtime` module is missing
/// (Apple platforms, other toolchains), have no writer.
package enum WriterCapture {
  /// The writer of the misuse being reported on this thread, or `nil` when no frame outside the
  /// package has a source location.
  @inline(never)
  package static func capture() -> WriterSite? {
    #if canImport(Runtime) && os(Linux) && DEBUG
      guard isEnabled else { return nil }
      return Resolver.shared.capture()
    #else
      return nil
    #endif
  }

  /// Whether writers are looked for: `BINDING_DIAGNOSTICS_WRITER=on` or `off` says; by default
  /// only in a test process (one that links `BindingDiagnosticsTesting`), where issues are
  /// recorded at the writer. Elsewhere the first look-up of each new call site symbolicates
  /// debug information (milliseconds, seconds in a large binary), which a storm of misuses on
  /// many threads, or an `exit` under way, must not wait for.
  static var isEnabled: Bool {
    switch enabledSetting {
    case .some(let on): on
    case .none: TestProcess.isTestProcess
    }
  }

  /// `BINDING_DIAGNOSTICS_WRITER`, read once: `true` for `on`, `false` for `off`, `nil` unset.
  private static let enabledSetting: Bool? = {
    switch getenv("BINDING_DIAGNOSTICS_WRITER").map({ String(cString: $0) }) {
    case "on": true
    case "off": false
    default: nil
    }
  }()

  /// Whether a path is this package's own source: the `Sources` folder this file sits in, each
  /// `BindingDiagnostics` target under it.
  /// - Parameter path: A source path from debug information.
  package static func isPackageSource(_ path: String) -> Bool {
    path.hasPrefix(packagePrefix)
  }

  /// `…/Sources/BindingDiagnostics`: every target of the package that reports starts so.
  private static let packagePrefix: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    // …/Sources/BindingDiagnostics/Pipeline/WriterCapture.swift → …/Sources/BindingDiagnostics
    parts.removeLast(2)
    return parts.joined(separator: "/")
  }()

  #if canImport(Runtime) && os(Linux) && DEBUG
    /// The stack walker and its table; one per process.
    private final class Resolver: Sendable {
      static let shared = Resolver()

      /// What one return address says: the writer, or to look further up.
      private enum Resolution: Sendable {
        case writer(WriterSite)
        case skip
      }

      private struct State: Sendable {
        var images: ImageMap
        var table: [Backtrace.Address: Resolution] = [:]
      }

      /// Addresses remembered at most; the table starts over beyond (a process with that many
      /// distinct misusing call chains).
      private static let tableLimit = 16_384
      private let state: Lock<State>

      private init() {
        state = Lock(State(images: ImageMap.capture()))
      }

      /// glibc's `backtrace(3)`, found once with `dlsym(3)`.
      private typealias BacktraceFunction =
        @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
      private static let glibcBacktrace: BacktraceFunction? = dlsym(
        dlopen(nil, RTLD_LAZY), "backtrace"
      ).map { unsafeBitCast($0, to: BacktraceFunction.self) }

      /// Frames taken at most: the writer is within the first few above the package's own.
      private static let depth = 48
      /// Frames at the bottom of a stack the frame-pointer walk must not reach.
      private static let bottomFrames = 3

      func capture() -> WriterSite? {
        guard let glibcBacktrace = Resolver.glibcBacktrace else { return nil }
        let addresses = withUnsafeTemporaryAllocation(
          of: UnsafeMutableRawPointer?.self, capacity: Resolver.depth
        ) { buffer -> [Backtrace.Address] in
          let count = Int(glibcBacktrace(buffer.baseAddress, Int32(Resolver.depth)))
          return buffer.prefix(max(0, count)).compactMap { pointer in
            pointer.flatMap { Backtrace.Address(UInt64(UInt(bitPattern: $0))) }
          }
        }
        if case .known(let site) = lookUp(addresses) { return site }
        // The stack was deeper than taken: the bottom is not among these frames.
        let whole = addresses.count < Resolver.depth
        let limit = whole ? addresses.count - Resolver.bottomFrames : addresses.count
        guard limit > 0 else { return nil }
        let images = state.withLock { $0.images }
        guard
          let backtrace = try? Backtrace.capture(
            algorithm: .fast, limit: limit, offset: 0, top: 0, images: images)
        else { return nil }
        learn(backtrace, addresses: addresses)
        if case .known(let site) = lookUp(addresses) { return site }
        return nil
      }

      /// What the table says of a stack.
      private enum Lookup: Sendable {
        /// The first writer along it, or none.
        case known(WriterSite?)
        /// An address before any writer is not in the table.
        case unknown
      }

      /// The first writer along `addresses`, or `.unknown` when an address before it is new.
      private func lookUp(_ addresses: [Backtrace.Address]) -> Lookup {
        state.withLock { state -> Lookup in
          for address in addresses {
            switch state.table[address] {
            case .writer(let site): return .known(site)
            case .skip: continue
            case nil: return .unknown
            }
          }
          return .known(nil)
        }
      }

      /// Symbolicates `backtrace` and remembers what each of its addresses says.
      private func learn(_ backtrace: Backtrace, addresses: [Backtrace.Address]) {
        var images = state.withLock { $0.images }
        var symbolicated = backtrace.symbolicated(
          with: images, options: [.showInlineFrames, .showSourceLocations, .useSymbolCache])
        if let found = symbolicated,
          found.frames.contains(where: { $0.symbol == nil && !Resolver.isOmitted($0.captured) })
        {
          // A library loaded after the map was taken: take it again, once per miss.
          images = ImageMap.capture()
          symbolicated =
            backtrace.symbolicated(
              with: images, options: [.showInlineFrames, .showSourceLocations, .useSymbolCache])
            ?? found
        }
        var resolutions: [Backtrace.Address: Resolution] = [:]
        for frame in backtrace.frames {
          if let address = Resolver.address(of: frame) { resolutions[address] = .skip }
        }
        // `backtrace(3)` starts a frame or two earlier, inside this file: those are the package's.
        for address in addresses.prefix(while: { resolutions[$0] == nil }) {
          resolutions[address] = .skip
        }
        // Frames come innermost first; an address's inlined frames come before its own.
        for frame in symbolicated?.frames ?? [] {
          guard let address = Resolver.address(of: frame.captured) else { continue }
          if case .writer = resolutions[address] { continue }
          if let site = Resolver.site(of: frame) { resolutions[address] = .writer(site) }
        }
        state.withLock { state in
          state.images = images
          if state.table.count + resolutions.count > Resolver.tableLimit {
            state.table.removeAll(keepingCapacity: true)
          }
          state.table.merge(resolutions) { _, new in new }
        }
      }

      /// The frame's source location when it is outside the package and not the runtime's.
      private static func site(of frame: SymbolicatedBacktrace.Frame) -> WriterSite? {
        guard let symbol = frame.symbol, let location = symbol.sourceLocation,
          !frame.isSystem, !symbol.isSwiftThunk, location.line > 0,
          location.path.hasPrefix("/"), !WriterCapture.isPackageSource(location.path)
        else { return nil }
        return WriterSite(
          fileID: WriterSite.fileID(ofPath: location.path), path: location.path,
          line: location.line)
      }

      private static func address(of frame: Backtrace.Frame) -> Backtrace.Address? {
        switch frame {
        case .programCounter(let address), .returnAddress(let address),
          .asyncResumePoint(let address):
          address
        default:
          nil
        }
      }

      private static func isOmitted(_ frame: Backtrace.Frame) -> Bool {
        address(of: frame) == nil
      }
    }
  #endif
}
