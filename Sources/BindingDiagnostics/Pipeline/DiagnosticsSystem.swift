#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process-wide entry point: one bootstrap, a task-local override, and `report`.
///
/// With no bootstrap, the first misuse configures the process from the environment
/// (`BINDING_DIAGNOSTICS`, `BINDING_DIAGNOSTICS_CONFIG`, …; see ``EnvironmentConfiguration``). Tests never touch
/// the global pipeline: they install their own with `withDiagnostics`.
public enum DiagnosticsSystem {
  private struct GlobalState {
    var diagnostics: Diagnostics?
    var bootstrapped = false
    /// How the process pipeline was set up, for the warning a late bootstrap gives.
    var origin = ""
    /// The ``ProcessFork/generation`` `diagnostics` was made in.
    var generation = 0
    /// Pipelines a forked child inherited: kept, never used or released (their threads are the
    /// parent's, so flushing or stopping them in the child would wait for nobody).
    var inherited: [Diagnostics] = []
  }

  private static let global = Lock(GlobalState())

  /// The pipeline installed for the current task, if any.
  @TaskLocal static var taskDiagnostics: Diagnostics?

  /// Installs the process-wide configuration. Call it once, early in `main`.
  ///
  /// A second call is ignored and says so on standard error, as does a call after the first
  /// misuse already configured the process from the environment; the line names where the
  /// pipeline was set up (the first bootstrap's call site).
  /// - Parameters:
  ///   - configuration: The configuration every misuse outside an override uses.
  ///   - fileID: The caller's file, captured by default.
  ///   - line: The caller's line, captured by default.
  public static func bootstrap(
    _ configuration: DiagnosticsConfiguration, fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    let (accepted, origin) = global.withLock { state -> (Diagnostics?, String) in
      guard !state.bootstrapped, state.diagnostics == nil else { return (nil, state.origin) }
      state.bootstrapped = true
      state.diagnostics = Diagnostics(configuration: configuration)
      state.origin = "by the bootstrap at \(fileID):\(line)"
      return (state.diagnostics, "")
    }
    if let accepted {
      accepted.runRecords.setUp(at: CallSite(file: fileID.description, line: Int(line), function: "-"))
      ProcessFlush.install(accepted)
    } else {
      ConfigurationWarning.emit(
        "DiagnosticsSystem.bootstrap at \(fileID):\(line) called after the pipeline was set up \(origin); call ignored"
      )
    }
  }

  /// Completes what a late bootstrap says about a pipeline made from the environment: the call
  /// site of its first record. Called once per pipeline, with its first record.
  static func noteFirstRecord(of diagnostics: Diagnostics, at site: CallSite) {
    global.withLock { state in
      guard state.diagnostics === diagnostics, !state.bootstrapped else { return }
      state.origin += ", at \(site.fileID):\(site.line)"
    }
  }

  /// The pipeline misuses go to from here: the task's override, else the process-wide one.
  public static var current: Diagnostics {
    if let diagnostics = taskDiagnostics { return diagnostics }
    if ProcessFork.generation != 0 { return forkedProcessDiagnostics() }
    return processDiagnostics
  }

  /// Runs `operation` with `diagnostics` as ``current`` for this task and its child tasks.
  /// - Parameters:
  ///   - diagnostics: The pipeline to use.
  ///   - operation: The work whose misuses go to `diagnostics`.
  /// - Returns: What `operation` returns.
  public static func withDiagnostics<R>(
    _ diagnostics: Diagnostics, operation: () throws -> R
  ) rethrows -> R {
    try $taskDiagnostics.withValue(diagnostics, operation: operation)
  }

  /// Runs async `operation` with `diagnostics` as ``current`` for this task and its child tasks.
  /// - Parameters:
  ///   - diagnostics: The pipeline to use.
  ///   - isolation: The caller's isolation, inherited.
  ///   - operation: The work whose misuses go to `diagnostics`.
  /// - Returns: What `operation` returns.
  public static func withDiagnostics<R>(
    _ diagnostics: Diagnostics, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await $taskDiagnostics.withValue(diagnostics, operation: operation, isolation: isolation)
  }

  /// Runs `operation` with a fresh pipeline for `configuration`, flushed when it returns.
  /// - Parameters:
  ///   - configuration: The scoped configuration.
  ///   - operation: The work whose misuses it receives.
  /// - Returns: What `operation` returns.
  public static func withConfiguration<R>(
    _ configuration: DiagnosticsConfiguration, operation: () throws -> R
  ) rethrows -> R {
    let diagnostics = Diagnostics(configuration: configuration)
    defer { diagnostics.flush() }
    return try withDiagnostics(diagnostics, operation: operation)
  }

  /// Reports an app-defined (or built-in) misuse through ``current``.
  /// - Parameters:
  ///   - kind: What went wrong; see ``MisuseKind/init(code:defaultLevel:)``.
  ///   - message: One human sentence.
  ///   - valueType: The type of the value concerned.
  ///   - valuePresent: Whether a value was present.
  ///   - value: The value, rendered under the privacy setting, or `nil` for none.
  ///   - level: The level; the kind's default when `nil`.
  ///   - label: A name for the place.
  ///   - fileID: Call site, captured by default.
  ///   - line: Call site, captured by default.
  ///   - function: Call site, captured by default.
  public static func report(
    _ kind: MisuseKind, message: String, valueType: Any.Type = Void.self,
    valuePresent: Bool = false,
    value: @autoclosure () -> Any? = nil, level: MisuseLevel? = nil, label: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    current.record(
      kind, message: message, valueType: valueType, valuePresent: valuePresent, value: value,
      level: level, label: label, fileID: fileID, line: line, function: function)
  }

  /// Whether `diagnostics` is the process-wide pipeline (not one installed on a task).
  /// - Parameter diagnostics: A pipeline.
  /// - Returns: `true` for the bootstrapped or environment-made pipeline.
  package static func isProcessPipeline(_ diagnostics: Diagnostics) -> Bool {
    global.withLock { $0.diagnostics === diagnostics }
  }

  /// Flushes ``current``: pending rate-limited events are written and the sink flushed.
  public static func flush() {
    current.flush()
  }

  /// The process-wide pipeline, made once (Swift's lazy global initialization): by the first
  /// misuse, which then reads no lock, from the bootstrap or else from the environment.
  private static let processDiagnostics = makeProcessDiagnostics()

  private static func makeProcessDiagnostics() -> Diagnostics {
    let (diagnostics, created) = global.withLock { state -> (Diagnostics, Bool) in
      if let diagnostics = state.diagnostics { return (diagnostics, false) }
      let diagnostics = Diagnostics(configuration: EnvironmentConfiguration.load().configuration)
      state.diagnostics = diagnostics
      state.origin = "from the environment by the first misuse"
      return (diagnostics, true)
    }
    if created { ProcessFlush.install(diagnostics) }
    return diagnostics
  }

  /// The process-wide pipeline of a process forked without `exec`: its own, made at its first
  /// misuse from the parent's configuration with sinks of its own (or from the environment),
  /// with a new run id, `seq` from 1 and its own flush thread. Out of line, so that the misuse
  /// path of a process that never forked pays one load and one branch for it.
  @inline(never)
  private static func forkedProcessDiagnostics() -> Diagnostics {
    let generation = ProcessFork.generation
    let (diagnostics, created) = global.withLock { state -> (Diagnostics, Bool) in
      if state.generation == generation, let diagnostics = state.diagnostics {
        return (diagnostics, false)
      }
      let configuration: DiagnosticsConfiguration
      if let inherited = state.diagnostics {
        state.inherited.append(inherited)
        configuration = inherited.configuration.renewedAfterFork()
      } else {
        configuration = EnvironmentConfiguration.load().configuration
      }
      let diagnostics = Diagnostics(configuration: configuration)
      state.diagnostics = diagnostics
      state.generation = generation
      return (diagnostics, true)
    }
    if created { ProcessFlush.install(diagnostics) }
    return diagnostics
  }
}
