/// A node query that does not name exactly one node: what went wrong, and the nodes that help
/// (the nearest when nothing matches, the first matches in reading order otherwise).
public struct NodeQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var query: NodeQuery
    public var problem: Problem
    /// At most ``NodeQuery/listedNodes``.
    public var nodes: [Candidate]

    public enum Problem: Equatable, Sendable {
        /// No node has every part of the query.
        case noMatch
        /// `count` nodes match and the query gives no `index`.
        case several(count: Int)
        /// The query's `index` is past the `count` matches.
        case indexPastMatches(count: Int)
    }

    /// A node as an error shows it: its id, kind, text (never a secure field's), label and traits,
    /// and where it is on screen.
    public struct Candidate: Equatable, Sendable, CustomStringConvertible {
        public var id: String
        public var frame: Rect
        public var description: String

        init?(_ id: String, in scene: Scene) {
            guard let node = scene[id], let frame = scene.frameInScreen(id) else { return nil }
            self.id = id
            self.frame = frame
            var details = [node.kind.rawValue]
            if node.secure {
                details.append("secure")
            } else if !node.text.isEmpty {
                details.append("text \(NodeQuery.quoted(node.text))")
            }
            if let label = node.accessibilityLabel { details.append("label \(NodeQuery.quoted(label))") }
            if !node.accessibilityTraits.isEmpty {
                details.append("traits [\(node.accessibilityTraits.names.joined(separator: ", "))]")
            }
            let numbers = [frame.minX, frame.minY, frame.size.width, frame.size.height].map(\.shortDescription).joined(
                separator: ", ")
            description = "'\(id)' (\(details.joined(separator: ", "))) at [\(numbers)]"
        }
    }

    public var description: String {
        let list = nodes.map(\.description).joined(separator: "; ")
        switch problem {
        case .noMatch:
            return "no node matches \(query)" + (nodes.isEmpty ? "" : "; nearest: \(list)")
        case .several(let count):
            return
                "\(count) nodes match \(query); give index: 0 to \(count - 1) (reading order: top to bottom, then left to right): "
                + list + (count > nodes.count ? "; and \(count - nodes.count) more" : "")
        case .indexPastMatches(let count):
            return "index \(query.index ?? 0) is past the \(count) nodes matching \(query) (index counts from 0): "
                + list + (count > nodes.count ? "; and \(count - nodes.count) more" : "")
        }
    }
}
