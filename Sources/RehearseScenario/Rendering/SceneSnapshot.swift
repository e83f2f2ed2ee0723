import RehearseCore

/// What the screen shows at one moment, in screen coordinates from presentation values: enough to
/// draw it later.
public struct SceneSnapshot: Sendable {
    /// One visible node.
    public struct Item: Sendable, Equatable {
        public var id: String
        public var kind: NodeKind
        /// The node's frame on screen.
        public var frame: Rect
        /// The node's alpha times its ancestors'.
        public var alpha: Double
        /// The text shown: a secure field's as one dot a character, as iOS draws it, so its clear
        /// text is never in a picture or a frame sent to the viewer.
        public var text: String
        public var isFirstResponder: Bool
        /// For shapes: the stroked part of the line, from 0 to 1.
        public var stroke: ClosedRange<Double>
        /// The area scroll-view ancestors clip the node to.
        public var clip: Rect?
        /// Whether the node is a direct child of the root view (a gateway's children are).
        public var isScreen: Bool
    }

    public var time: VirtualTime
    public var screen: Size
    /// The status bar's height on screen: the device's for the orientation, 0 while it is hidden.
    public var statusBarHeight: Double
    /// The keyboard's frame on screen while it is up or moving.
    public var keyboard: Rect?
    /// Visible nodes, back to front.
    public var items: [Item] = []

    /// Whether `other` draws the same screen (whatever the time it was taken).
    public func drawsLike(_ other: SceneSnapshot) -> Bool {
        screen == other.screen && statusBarHeight == other.statusBarHeight && keyboard == other.keyboard && items == other.items
    }

    /// A picture made of its parts (a golden picture's drawing, drawn again).
    init(time: VirtualTime, screen: Size, statusBarHeight: Double, keyboard: Rect?, items: [Item]) {
        self.time = time
        self.screen = screen
        self.statusBarHeight = statusBarHeight
        self.keyboard = keyboard
        self.items = items
    }

    /// Takes the picture of `simulation` now.
    public init(_ simulation: Simulation) {
        time = simulation.now
        screen = simulation.scene.bounds.size
        let scene = simulation.scene
        statusBarHeight = scene.statusBarHidden ? 0 : scene.device.metrics(in: scene.orientation).statusBarHeight
        let keyboardFrame = simulation.keyboard.presentationFrame
        keyboard = keyboardFrame.minY < screen.height ? keyboardFrame : nil
        collect(Scene.rootID, origin: .zero, alpha: 1, clip: nil, in: simulation)
    }

    private mutating func collect(_ id: String, origin: Point, alpha: Double, clip: Rect?, in simulation: Simulation) {
        guard let node = simulation.scene[id], !node.hidden else { return }
        let animator = simulation.animator
        let frame = animator.presentationValue(of: .frame, of: id).map(Rect.init) ?? node.frame
        let nodeAlpha = alpha * (animator.presentationValue(of: .alpha, of: id)?[0] ?? node.alpha)
        let onScreen = Rect(
            x: origin.x + frame.minX, y: origin.y + frame.minY, width: frame.size.width, height: frame.size.height)
        let strokeStart = animator.presentationValue(of: .strokeStart, of: id)?[0] ?? node.strokeStart
        let strokeEnd = animator.presentationValue(of: .strokeEnd, of: id)?[0] ?? node.strokeEnd
        items.append(
            Item(
                id: id, kind: node.kind, frame: onScreen, alpha: nodeAlpha,
                text: node.secure ? String(repeating: "•", count: node.text.count) : node.text,
                isFirstResponder: simulation.scene.firstResponder == id,
                stroke: min(strokeStart, strokeEnd)...max(strokeStart, strokeEnd), clip: clip,
                isScreen: node.parent == Scene.rootID))
        var childOrigin = onScreen.origin
        var childClip = clip
        if node.kind == .scrollView {
            let offset = animator.presentationValue(of: .contentOffset, of: id).map(Point.init) ?? node.contentOffset
            childOrigin.x -= offset.x
            childOrigin.y -= offset.y
            childClip = clip.map { $0.intersection(onScreen) ?? Rect(origin: onScreen.origin, size: .zero) } ?? onScreen
        }
        for child in node.children {
            collect(child, origin: childOrigin, alpha: nodeAlpha, clip: childClip, in: simulation)
        }
    }
}
