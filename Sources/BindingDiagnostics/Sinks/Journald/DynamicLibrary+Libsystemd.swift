extension DynamicLibrary {
  /// `libsystemd.so.0`, opened once for the journald sink and the journal reader alike, or why
  /// it could not be (always, off Linux: journald is Linux's).
  package static let libsystemd: Result<DynamicLibrary, JournalError> = {
    #if os(Linux)
      open("libsystemd.so.0")
    #else
      .failure(.libraryUnavailable("journald exists on Linux only"))
    #endif
  }()

  /// ``load(_:)``, its failure as a ``JournalError``.
  /// - Parameter name: The soname, e.g. `libsystemd.so.0`.
  /// - Returns: The library, or `dlerror()`'s text.
  package static func open(_ name: String) -> Result<DynamicLibrary, JournalError> {
    load(name).mapError { .libraryUnavailable($0.reason) }
  }

  /// The function `name` of libsystemd (`dlsym`) as a C function pointer of type `T`.
  /// - Parameters:
  ///   - name: The symbol.
  ///   - type: The `@convention(c)` function type it has.
  /// - Throws: ``JournalError/libraryUnavailable(_:)`` when the library lacks it.
  package func function<T>(_ name: String, as type: T.Type) throws(JournalError) -> T {
    guard let function = optionalFunction(name, as: type) else {
      throw JournalError.libraryUnavailable("libsystemd.so.0 has no \(name)")
    }
    return function
  }
}
