#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shared library opened at run time (`dlopen`), so the package builds and runs where the
/// library is missing and only the features that need it say they are unavailable.
///
/// `@unchecked Sendable`: an immutable `dlopen` handle, never closed, safe to share.
package struct DynamicLibrary: @unchecked Sendable {
  private let handle: UnsafeMutableRawPointer

  /// `libsystemd.so.0`, opened once for the journald sink and the journal reader alike, or why
  /// it could not be (always, off Linux: journald is Linux's).
  package static let libsystemd: Result<DynamicLibrary, JournalError> = {
    #if os(Linux)
      open("libsystemd.so.0")
    #else
      .failure(.libraryUnavailable("journald exists on Linux only"))
    #endif
  }()

  /// Opens `name` (`dlopen` with `RTLD_NOW | RTLD_LOCAL`); a second open of the same library
  /// returns the same mapping.
  /// - Parameter name: The soname, e.g. `libsystemd.so.0`.
  /// - Returns: The library, or `dlerror()`'s text.
  package static func open(_ name: String) -> Result<DynamicLibrary, JournalError> {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "dlopen \(name) failed"
      return .failure(.libraryUnavailable(reason))
    }
    return .success(DynamicLibrary(handle: handle))
  }

  /// The function `name` (`dlsym`) as a C function pointer of type `T`.
  /// - Parameters:
  ///   - name: The symbol.
  ///   - type: The `@convention(c)` function type it has.
  /// - Throws: ``JournalError/libraryUnavailable(_:)`` when the library lacks it.
  package func function<T>(_ name: String, as type: T.Type) throws(JournalError) -> T {
    guard let pointer = dlsym(handle, name) else {
      throw JournalError.libraryUnavailable("libsystemd.so.0 has no \(name)")
    }
    return unsafeBitCast(pointer, to: type)
  }

  /// The function `name` if the library has it (for calls newer libraries added).
  package func optionalFunction<T>(_ name: String, as type: T.Type) -> T? {
    dlsym(handle, name).map { unsafeBitCast($0, to: type) }
  }
}
