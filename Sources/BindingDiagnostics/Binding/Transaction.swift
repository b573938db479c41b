#if !canImport(SwiftUI)
  /// The context of a write through a ``Binding``, for platforms without SwiftUI: the part of
  /// SwiftUI's `Transaction` that does not depend on its animation types.
  ///
  /// Mappings hand the transaction a flag was written with on to the binding they map, so an
  /// animation set on a presentation flag reaches the optional behind it.
  public struct Transaction {
    /// Whether views should disable animations for this update.
    public var disablesAnimations: Bool

    /// Whether the update comes from a continuous action, such as dragging a slider.
    public var isContinuous: Bool

    /// An empty transaction.
    public init() {
      disablesAnimations = false
      isContinuous = false
    }
  }
#endif
