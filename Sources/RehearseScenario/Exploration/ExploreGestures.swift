import RehearseCore

/// The touch actions exploration draws, from the scene a scenario declares: for each scroll view
/// a slow drag up and one down through its centre (half a second, a quarter of its height, let go
/// still) and a fling either way (the same in 0.1 s, let go moving); a swipe each way from the
/// screen's centre (a quarter of its width); a long press of 0.6 s at each node's centre. Points
/// are where the declared scene puts them, kept on the portrait screen; the finger is number 0.
struct ExploreGestures {
    /// How long an explored drag takes, and how long it rests before lifting.
    static let dragDuration = VirtualTime(nanoseconds: 500_000_000)
    static let dragHold = VirtualTime(nanoseconds: 100_000_000)
    /// How long an explored fling takes.
    static let flingDuration = VirtualTime(nanoseconds: 100_000_000)
    /// How long an explored long press holds: past UIKit's 0.5 s.
    static let pressDuration = VirtualTime(nanoseconds: 600_000_000)

    private let nodes: [(node: Node, frame: Rect)]
    private let screen: Size
    private let rate: Int

    init(scenario: Scenario) {
        screen = scenario.device.screen
        rate = scenario.device.refreshRate
        // Parents come before their children: each frame is placed in its parent's, less the
        // parent's scroll offset.
        var placed: [String: (frame: Rect, boundsOrigin: Point)] = [:]
        var nodes: [(node: Node, frame: Rect)] = []
        for (node, parent) in scenario.nodes {
            let container = parent.flatMap { placed[$0] } ?? (Rect(origin: .zero, size: screen), .zero)
            var frame = node.frame
            frame.origin = Point(x: container.frame.minX + frame.minX - container.boundsOrigin.x,
                                 y: container.frame.minY + frame.minY - container.boundsOrigin.y)
            placed[node.id] = (frame, node.boundsOrigin)
            nodes.append((node, frame))
        }
        self.nodes = nodes
    }

    func actions(_ kind: ExploreKind) -> [ExploreAction] {
        let scrollViews = nodes.filter { $0.node.kind == .scrollView }
        switch kind {
        case .drag:
            return scrollViews.flatMap { strokes(of: $0, duration: Self.dragDuration, hold: Self.dragHold, verb: "drag") }
        case .fling:
            return scrollViews.flatMap { strokes(of: $0, duration: Self.flingDuration, hold: .zero, verb: "fling") }
        case .swipe:
            let center = Point(x: screen.width / 2, y: screen.height / 2), distance = screen.width / 4
            return SwipeDirection.allCases.map { direction in
                let end = Point(x: center.x + direction.unit.x * distance, y: center.y + direction.unit.y * distance)
                let stream = TouchStreamStep(events: TouchStream.drag(id: 0, from: center, to: end, duration: TouchStream.swipeStepDuration,
                                                                      rate: rate), duration: TouchStream.swipeStepDuration)
                return .touches(stream, label: "swipe \(direction.rawValue) from \(text(center))")
            }
        case .longPress:
            return nodes.map { node, frame in
                let point = onScreen(Point(x: frame.midX, y: frame.midY))
                let stream = TouchStreamStep(events: TouchStream.press(id: 0, at: point, duration: Self.pressDuration),
                                             duration: Self.pressDuration)
                return .touches(stream, label: "long-press \(node.id) at \(text(point)) for \(Self.pressDuration) s")
            }
        case .tap, .focus, .text, .returnKey, .resign, .rotate, .network, .motion, .wait, .emit:
            return []
        }
    }

    /// A stroke up and one down through the centre of a scroll view, a quarter of its height long.
    private func strokes(of scrollView: (node: Node, frame: Rect), duration: VirtualTime, hold: VirtualTime,
                         verb: String) -> [ExploreAction] {
        let frame = scrollView.frame, reach = min(frame.size.height, screen.height) / 8
        let low = onScreen(Point(x: frame.midX, y: frame.midY + reach)), high = onScreen(Point(x: frame.midX, y: frame.midY - reach))
        return [(low, high, "up"), (high, low, "down")].map { from, to, direction in
            let stream = TouchStreamStep(events: TouchStream.drag(id: 0, from: from, to: to, duration: duration, hold: hold, rate: rate),
                                         duration: duration + hold)
            return .touches(stream, label: "\(verb) \(scrollView.node.id) \(direction) from \(text(from)) to \(text(to)) in \(duration) s")
        }
    }

    private func onScreen(_ point: Point) -> Point {
        Point(x: min(max(point.x, 0), screen.width), y: min(max(point.y, 0), screen.height))
    }

    private func text(_ point: Point) -> String {
        "(\(point.x.shortDescription), \(point.y.shortDescription))"
    }
}
