/// A problem with a scene change: a node that does not exist or an id used twice.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownNode(String)
    case duplicateNode(String)
    case notATextInput(String)

    public var description: String {
        switch self {
        case .unknownNode(let id): "no node with id '\(id)'"
        case .duplicateNode(let id): "a node with id '\(id)' already exists"
        case .notATextInput(let id): "node '\(id)' does not take text input"
        }
    }
}

/// The tree of nodes on a screen, with the screen's size, orientation, status bar and first
/// responder. Holds model values only; presentation values come from the ``Animator``.
public final class Scene {
    /// The id of the root view, which always fills the screen.
    public static let rootID = "root"

    private var nodes: [String: Node]
    /// The screen's size in portrait; the bounds swap width and height in landscape.
    public private(set) var portraitSize: Size
    /// The interface orientation.
    public var orientation: Orientation = .portrait {
        didSet { nodes[Self.rootID]?.frame = bounds }
    }
    public var statusBarHidden = false
    /// The node that receives text input, if any.
    public internal(set) var firstResponder: String?

    /// Creates a scene with only the root view on a screen of `portraitSize`.
    public init(portraitSize: Size) {
        self.portraitSize = portraitSize
        let bounds = Rect(origin: .zero, size: portraitSize)
        nodes = [Self.rootID: Node(id: Self.rootID, kind: .view, frame: bounds)]
    }

    /// The screen's bounds in the current orientation.
    public var bounds: Rect {
        let size = orientation.isLandscape
            ? Size(width: portraitSize.height, height: portraitSize.width) : portraitSize
        return Rect(origin: .zero, size: size)
    }

    /// The node with `id`, if any.
    public subscript(id: String) -> Node? { nodes[id] }

    /// Whether a node with `id` exists.
    public func contains(_ id: String) -> Bool { nodes[id] != nil }

    /// Every node id, parents before children, siblings in drawing order.
    public var allIDs: [String] {
        var ids: [String] = []
        var stack = [Self.rootID]
        while let id = stack.popLast() {
            ids.append(id)
            stack.append(contentsOf: (nodes[id]?.children ?? []).reversed())
        }
        return ids
    }

    /// Adds `node` on top of `parent`'s children (the root when `nil`).
    public func add(_ node: Node, to parent: String? = nil) throws(SceneError) {
        let parentID = parent ?? Self.rootID
        guard nodes[node.id] == nil else { throw SceneError.duplicateNode(node.id) }
        guard nodes[parentID] != nil else { throw SceneError.unknownNode(parentID) }
        var node = node
        node.parent = parentID
        node.children = []
        nodes[node.id] = node
        nodes[parentID]?.children.append(node.id)
    }

    /// Removes a node and everything below it; the first responder is cleared if it was among them.
    public func remove(_ id: String) throws(SceneError) {
        guard id != Self.rootID, let node = nodes[id] else { throw SceneError.unknownNode(id) }
        if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == id } }
        var stack = [id]
        while let next = stack.popLast() {
            stack.append(contentsOf: nodes[next]?.children ?? [])
            nodes[next] = nil
            if firstResponder == next { firstResponder = nil }
        }
    }

    /// Changes a node's model values at once (no animation).
    public func update(_ id: String, _ change: (inout Node) -> Void) throws(SceneError) {
        guard var node = nodes[id] else { throw SceneError.unknownNode(id) }
        change(&node)
        nodes[id] = node
    }

    /// The node's ancestors, nearest first, ending with the root.
    public func ancestors(of id: String) -> [String] {
        var result: [String] = []
        var current = nodes[id]?.parent
        while let parent = current {
            result.append(parent)
            current = nodes[parent]?.parent
        }
        return result
    }

    /// The node's frame in screen coordinates, from model values.
    public func frameInScreen(_ id: String) -> Rect? {
        guard let node = nodes[id] else { return nil }
        var frame = node.frame
        var current = node.parent
        while let parentID = current, let parent = nodes[parentID] {
            frame.origin.x += parent.frame.minX - parent.boundsOrigin.x
            frame.origin.y += parent.frame.minY - parent.boundsOrigin.y
            current = parent.parent
        }
        return frame
    }
}
