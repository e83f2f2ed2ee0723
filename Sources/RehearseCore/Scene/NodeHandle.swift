/// A node resolved once by id: reads and writes through it skip the id lookup, which matters to a
/// plugin that reads presentation values on every display frame. A handle names its node by id:
/// if that node is removed and a node with the same id added again, the handle finds the new one.
public struct NodeHandle: Hashable, Sendable {
    /// The node's id.
    public let id: String
    let slot: Int
    let generation: UInt64
}
