import RehearseCore

/// A scenario's `explore:` section: how `rehearse explore` draws its actions on this set-up.
/// Everything is optional; what is left out is derived from the scene.
public struct ExploreSettings: Sendable {
    /// Actions per sequence.
    public var length: Int?
    /// Sequences per exploration.
    public var runs: Int?
    /// The weight of each action kind (0 leaves a kind out); kinds not listed weigh 1.
    public var weights: [ExploreKind: Double] = [:]
    /// The nodes taps aim at (default: every node the scene declares).
    public var tapTargets: [String]?
    /// The text typed (default: `a`).
    public var texts: [String]?
    /// The range of a wait in seconds (default: a frame, 0.1, 0.3 and 0.6 s).
    public var waitRange: ClosedRange<Double>?
    /// The plugin events emitted (default: those the file's steps emit).
    public var events: [Event]?

    public init() {}
}

/// The kinds of action exploration draws, in the order the alphabet lists them; the names are
/// the `explore: {actions}` keys.
public enum ExploreKind: String, CaseIterable, Sendable {
    case tap, focus, text
    case returnKey = "return"
    case resign, rotate, network, motion, wait, emit
    /// Touch: a slow drag of each scroll view (let go still), a fling of each (let go moving),
    /// a swipe each way from the screen's centre, a long press on each node.
    case drag, fling, swipe
    case longPress = "long-press"

    /// The key under which an `explore:` section gives this kind's values (`tap: {nodes: [...]}`),
    /// if it takes any.
    public var valuesKey: String? {
        switch self {
        case .tap: "nodes"
        case .text: "values"
        case .wait: "between"
        case .emit: "events"
        case .focus, .returnKey, .resign, .rotate, .network, .motion, .drag, .fling, .swipe, .longPress: nil
        }
    }

    /// The weight of a kind the `explore:` section does not list: 1, but 0 for the touch kinds,
    /// so that an exploration that does not ask for gestures draws what it drew before them.
    public var defaultWeight: Double {
        switch self {
        case .tap, .focus, .text, .returnKey, .resign, .rotate, .network, .motion, .wait, .emit: 1
        case .drag, .fling, .swipe, .longPress: 0
        }
    }

    /// Every kind's name, in order.
    public static var names: [String] { allCases.map(\.rawValue) }
}
