import RehearseCore

/// The touch actions exploration draws, from the scene a scenario declares, each the gesture step
/// a person would write: for each scroll view a slow drag up and one down from the centre of its
/// visible part (half a second, a quarter of its height on the screen, held still 0.1 s so it lets
/// go still) and a fling either way (the finger lifting at that distance per 0.1 s); a swipe each
/// way from the screen's centre (a quarter of its width); a long press of 0.6 s on each node. A
/// gesture on a node starts where the node is when it runs, as its step does.
struct ExploreGestures {
    /// How long an explored drag takes, and how long it rests before lifting.
    static let dragDuration = VirtualTime(nanoseconds: 500_000_000)
    static let dragHold = VirtualTime(nanoseconds: 100_000_000)
    /// An explored fling's finger covers a drag's distance in this time.
    static let flingDuration = VirtualTime(nanoseconds: 100_000_000)
    /// How long an explored long press holds: past UIKit's 0.5 s.
    static let pressDuration = VirtualTime(nanoseconds: 600_000_000)

    private let nodes: [Node]
    private let screen: Size

    init(scenario: Scenario) {
        screen = scenario.device.screen
        nodes = scenario.nodes.map(\.node)
    }

    func actions(_ kind: ExploreKind) -> [ExploreAction] {
        switch kind {
        case .drag:
            return strokes { .drag(by: $0, duration: Self.dragDuration, hold: Self.dragHold) }
        case .fling:
            let perSecond = 1e9 / Double(Self.flingDuration.nanoseconds)  // exactly 10: whole points give whole speeds
            return strokes { .fling(velocity: Point(x: $0.x * perSecond, y: $0.y * perSecond)) }
        case .swipe:
            let center = Point(x: screen.width / 2, y: screen.height / 2)
            return SwipeDirection.allCases.map { .gesture(.swipe($0, distance: screen.width / 4), from: .point(center)) }
        case .longPress:
            return nodes.map { .gesture(.press(duration: Self.pressDuration), from: .node($0.id)) }
        case .tap, .focus, .text, .returnKey, .resign, .rotate, .network, .motion, .wait, .emit:
            return []
        }
    }

    /// `gesture` up and down on each scroll view, by a quarter of its height on the screen in
    /// whole points (a scroll view less than 2 points high is left out: there is no stroke to make).
    private func strokes(_ gesture: (Point) -> Gesture) -> [ExploreAction] {
        nodes.filter { $0.kind == .scrollView }.flatMap { node -> [ExploreAction] in
            let distance = (min(node.frame.size.height, screen.height) / 4).rounded()
            guard distance > 0 else { return [] }
            return [-distance, distance].map { .gesture(gesture(Point(x: 0, y: $0)), from: .node(node.id)) }
        }
    }
}
