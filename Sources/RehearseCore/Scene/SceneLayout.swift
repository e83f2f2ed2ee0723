/// Lays a scene out from named constraint sets. `RehearseLayout`'s `LayoutEngine` is the one
/// implementation; the core only needs to reach it (for `activate:` steps, plugins and rotation).
public protocol SceneLayout: AnyObject {
    /// Every declared set, in declaration order.
    var constraintSetNames: [String] { get }
    /// The sets active now.
    var activeConstraintSets: [String] { get }
    /// Makes exactly `names` active and writes the solved frames into the model values, animated
    /// when called inside an animation transaction (as `layoutIfNeeded` inside `animate`).
    func activate(_ names: [String]) throws
    /// Solves again after the screen (or a container) changed size.
    func layOutAgain() throws
}
