/// A node's animatable property resolved once, for reads on every display frame: the model or the
/// presentation value (what is on screen now, mid-animation), whole or one part of it
/// (`box.presentation.frame.y`). A read through it parses no path, looks no id up, builds no field
/// value and boxes nothing: it checks that the node's slot still holds the node, then reads the
/// vector there. Resolve one with ``PluginContext/property(_:of:presentation:)`` or
/// ``PluginContext/property(at:)``; read it with ``PluginContext/value(of:)-(PropertyHandle)`` and
/// ``PluginContext/number(of:)``.
///
/// Like ``NodeHandle`` it names its node by id: a node removed and added again under the same id is
/// read; while the scene has no node with the id, a read throws ``SceneError/removedNode(_:)``. The
/// id is kept in the scene (``InternedNodeIDs``), so a handle is plain bytes and copying it is free;
/// a handle reads the scene it was made for.
public struct PropertyHandle: Hashable, Sendable {
    /// The node's slot and generation when the handle was made (``NodeHandle``'s).
    let slot: Int
    let generation: UInt64
    /// The node's id in its scene's table, for a node added again under it and for the error
    /// when there is none.
    let nodeID: InternedNodeID
    /// The property read.
    public let property: AnimatableProperty
    /// Whether it reads the presentation value (on screen now) rather than the model value.
    public let presentation: Bool
    /// The part a path named (`frame.y`); ``PropertyPart/whole`` for a handle made from a property.
    let part: PropertyPart

    init(
        node: NodeHandle, nodeID: InternedNodeID, property: AnimatableProperty, presentation: Bool,
        part: PropertyPart = .whole
    ) {
        slot = node.slot
        generation = node.generation
        self.nodeID = nodeID
        self.property = property
        self.presentation = presentation
        self.part = part
    }
}
