import RehearseCore

/// The scene now as an accessible tree: the root (the frame) and every node that is visible
/// (``Visibility``) or would be where it is not covered or clipped (scrolled away, off screen,
/// behind the keyboard: `visible` but not `showing`, as toolkits keep a widget scrolled out of
/// view), each under its nearest such ancestor, children in reading order (parents before
/// children, siblings in drawing order, as the audit reads them). A node hidden, transparent or
/// too small is left out and its descendants that are in go to its parent. Built once per round of
/// the loop that answers the bus, so that many requests in one round cost one walk of the scene.
package struct AccessibleTree {
    /// One node as clients see it.
    package struct Item: Equatable, Sendable {
        package var id: String
        package var role: AccessibleRole
        /// The accessibility label, else the text (a secure field's text never).
        package var name: String
        package var states: Set<AccessibleState>
        /// Its frame on screen now, from presentation values.
        package var frame: Rect
        /// The product of its alpha and its ancestors'.
        package var alpha: Double
        package var parent: String?
        package var children: [String]
        /// Whether a tap is its action (`click`, `press`).
        package var isActionable: Bool
        /// Whether text can be typed into it.
        package var isEditable: Bool
        /// Whether it is a scroll view that a drag moves across (its `scroll left` and `scroll right`).
        package var scrollsSideways: Bool
        /// What `Text` reads of a text field or a label: its text, a secure field's masked (a `•`
        /// a character, as recordings keep it); nil for other kinds.
        package var text: String?
    }

    /// The exposed nodes by id.
    package private(set) var items: [String: Item] = [:]
    /// The most bytes the path of an exposed node has now (``AccessiblePaths/longestPath(ofID:)``):
    /// a longer path names no object, and is refused before it is read.
    package private(set) var longestPathBytes = 0

    /// The tree of `simulation`'s scene now, the frame (the scene's root) named `title`.
    package init(of simulation: Simulation, title: String) {
        let scene = simulation.scene
        guard let root = scene[Scene.rootID] else { return }
        var frame = Self.item(root, in: simulation, frame: scene.bounds, alpha: root.alpha, parent: nil)
        frame.name = title
        items[root.id] = frame
        longestPathBytes = AccessiblePaths.longestPath(ofID: root.id)
        var pending: [(id: String, exposedParent: String)] = (scene.children(of: root.id) ?? []).reversed().map { ($0, root.id) }
        while let (id, exposedParent) = pending.popLast() {
            guard let node = scene[id] else { continue }
            let visibility = simulation.visibility(of: id)
            var parent = exposedParent
            if visibility.isVisible || visibility.problem?.dependsOnPosition == true, let frame = visibility.frame {
                var item = Self.item(
                    node, in: simulation, frame: frame, alpha: Self.alpha(of: id, in: scene), parent: exposedParent)
                if !visibility.isVisible { item.states.remove(.showing) }
                items[id] = item
                items[exposedParent]?.children.append(id)
                longestPathBytes = max(longestPathBytes, AccessiblePaths.longestPath(ofID: id))
                parent = id
            }
            pending += (node.children).reversed().map { ($0, parent) }
        }
    }

    package subscript(id: String) -> Item? { items[id] }

    /// The deepest showing node under `id` (itself included) whose frame holds `point`, the last
    /// drawn among siblings that overlap; nil when `id` is not showing there.
    package func item(at point: Point, under id: String) -> Item? {
        func isThere(_ item: Item) -> Bool { item.states.contains(.showing) && item.frame.contains(point) }
        guard var found = items[id], isThere(found) else { return nil }
        while let child = found.children.reversed().lazy.compactMap({ items[$0] }).first(where: isThere) {
            found = child
        }
        return found
    }

    private static func alpha(of id: String, in scene: Scene) -> Double {
        ([id] + scene.ancestors(of: id)).reduce(1.0) { $0 * (scene[$1]?.alpha ?? 1) }
    }

    private static func item(_ node: Node, in simulation: Simulation, frame: Rect, alpha: Double, parent: String?) -> Item {
        let focused = simulation.scene.firstResponder == node.id
        var states: Set<AccessibleState> = [.showing, .visible]
        if !node.accessibilityTraits.contains(.notEnabled) { states.formUnion([.enabled, .sensitive]) }
        if node.kind.isTextInput { states.formUnion([.focusable, .editable, .singleLine]) }
        if focused { states.insert(.focused) }
        if node.accessibilityTraits.contains(.selected) { states.insert(.selected) }
        let label = node.accessibilityLabel ?? ""
        return Item(
            id: node.id, role: AccessibleRole(of: node), name: label.isEmpty && !node.secure ? node.text : label,
            states: states, frame: frame, alpha: alpha, parent: parent, children: [],
            isActionable: node.kind.isControl || node.accessibilityTraits.contains(.button), isEditable: node.kind.isTextInput,
            scrollsSideways: node.kind == .scrollView && node.scrollsHorizontally,
            text: node.kind.isTextInput || node.kind == .label
                ? (node.secure ? String(repeating: "•", count: node.text.unicodeScalars.count) : node.text) : nil)
    }
}
