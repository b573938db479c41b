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

  /// Why a library or one of its symbols could not be had: `dlerror()`'s text, or the missing
  /// symbol's name.
  package struct Unavailable: Error, Sendable, Hashable {
    /// The reason, one line.
    package let reason: String
  }

  /// Opens `name` (`dlopen` with `RTLD_NOW | RTLD_LOCAL`); a second open of the same library
  /// returns the same mapping.
  /// - Parameter name: The soname, e.g. `libsystemd.so.0`.
  /// - Returns: The library, or `dlerror()`'s text.
  package static func load(_ name: String) -> Result<DynamicLibrary, Unavailable> {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "dlopen \(name) failed"
      return .failure(Unavailable(reason: reason))
    }
    return .success(DynamicLibrary(handle: handle))
  }

  /// The function `name` (`dlsym`) as a C function pointer of type `T`, if the library has it.
  /// - Parameters:
  ///   - name: The symbol.
  ///   - type: The `@convention(c)` function type it has.
  package func optionalFunction<T>(_ name: String, as type: T.Type) -> T? {
    dlsym(handle, name).map { unsafeBitCast($0, to: type) }
  }
}
