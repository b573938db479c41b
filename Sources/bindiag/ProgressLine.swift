import BindingDiagnostics
import BindingDiagnosticsReport
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The progress line a long read shows on standard error when it is a terminal: redrawn five
/// times a second (from 0.2 s into the read, so short reads show none) with bytes, percent
/// where the size is known, events and events per second. Warnings go through ``print(_:)``,
/// which clears the line first, so the two never share a line.
final class ProgressLine: Sendable {
  /// Seconds between two redraws.
  static let interval = 0.2

  private struct State {
    var current: InputReader.Progress?
    /// Events of the sources finished before the current one.
    var eventsBefore = 0
    var sourceIndex = 0
    var drawn = false
    var finished = false
  }

  private let state = Lock(State())
  private let sources: Int
  private let width: Int
  private let started = MonotonicClock.seconds()
  private let stopped = DispatchSemaphore(value: 0)
  private let wake = DispatchSemaphore(value: 0)

  /// Starts redrawing.
  /// - Parameters:
  ///   - sources: How many files will be read, for `(2 of 3)`.
  ///   - width: The terminal's width; the line is cut to one column less, so it never wraps.
  init(sources: Int, width: Int) {
    self.sources = sources
    self.width = max(width, 20)
    DispatchQueue.global().async { [self] in
      while wake.wait(timeout: .now() + ProgressLine.interval) == .timedOut {
        state.withLock { state in
          guard !state.finished, let current = state.current else { return }
          Output.err("\r" + text(current, state) + "\u{1b}[K")
          state.drawn = true
        }
      }
      stopped.signal()
    }
  }

  /// Starts reading `source` (`<stdin>`, a path, or `journal`), shown at once with nothing read;
  /// what the previous source read stays in the totals.
  func begin(_ source: String) {
    state.withLock { state in
      if let previous = state.current {
        state.eventsBefore += previous.events
        state.sourceIndex += 1
      }
      state.current = InputReader.Progress(
        source: source, bytes: source == "journal" ? nil : 0, size: nil, events: 0)
    }
  }

  /// Records how far the read of the current source has got.
  func update(_ progress: InputReader.Progress) {
    state.withLock { $0.current = progress }
  }

  /// Writes `message` (whole lines) on a cleared line; the progress comes back at the next
  /// redraw.
  func print(_ message: String) {
    state.withLock { state in
      if state.drawn { Output.err("\r\u{1b}[K") }
      state.drawn = false
      Output.err(message)
    }
  }

  /// Stops redrawing and clears the line.
  func finish() {
    state.withLock { state in
      state.finished = true
      if state.drawn { Output.err("\r\u{1b}[K") }
      state.drawn = false
    }
    wake.signal()
    stopped.wait()
  }

  private func text(_ progress: InputReader.Progress, _ state: State) -> String {
    ProgressText.line(
      progress, source: (state.sourceIndex + 1, sources),
      events: state.eventsBefore + progress.events,
      seconds: MonotonicClock.seconds() - started, width: width - 1)
  }
}
