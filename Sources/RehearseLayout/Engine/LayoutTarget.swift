import RehearseCore

/// What a layout engine lays out: a scene, and a way to set frames that animates inside an
/// animation transaction. A `Simulation` is one; a plugin's `PluginContext` is another, so a
/// plugin's layout changes are made as the plugin.
public protocol LayoutTarget: AnyObject {
    var scene: Scene { get }
    func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws
}

extension Simulation: LayoutTarget {
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws {
        try animator.set(value, for: property, of: id)
    }
}

extension PluginContext: LayoutTarget {}
