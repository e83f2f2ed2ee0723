import RehearseCore

/// An event aimed at a node a step names (`tap`, `focus`, `resign`, `type`, `return`), made
/// for the node's id: at once when the step names an id, when the step runs when it names a query.
public struct QueriedEvent: Hashable, Sendable {
    /// Which event.
    public enum Kind: Hashable, Sendable {
        case tap, focus, resign, returnKey
        /// `text` typed into the node.
        case text(String)
    }

    public var query: NodeQuery
    public var kind: Kind

    /// The event for the node `target`.
    public func event(target: String) -> Event {
        switch kind {
        case .tap: .tap(Tap(target: target))
        case .focus: .focus(NodeTarget(target: target))
        case .resign: .resign(ResignRequest(target: target))
        case .returnKey: .returnKey(NodeTarget(target: target))
        case .text(let text): .text(TextInput(target: target, text: text))
        }
    }
}
