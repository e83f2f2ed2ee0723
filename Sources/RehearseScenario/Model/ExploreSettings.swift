import RehearseCore

/// A scenario's `explore:` section: how `rehearse explore` draws its actions on this set-up.
/// Everything is optional; what is left out is derived from the scene.
public struct ExploreSettings: Sendable {
    /// Actions per sequence.
    public var length: Int?
    /// Sequences per exploration.
    public var runs: Int?
    /// The weight of each action kind (0 leaves a kind out); kinds not listed weigh 1.
    public var weights: [String: Double] = [:]
    /// The nodes taps aim at (default: every node the scene declares).
    public var tapTargets: [String]?
    /// The text typed (default: `a`).
    public var texts: [String]?
    /// The range of a wait in seconds (default: a frame, 0.1, 0.3 and 0.6 s).
    public var waitRange: ClosedRange<Double>?
    /// The plugin events emitted (default: those the file's steps emit).
    public var events: [Event]?

    /// The action kinds, in the order the alphabet lists them.
    public static let kinds = ["tap", "focus", "text", "return", "resign", "rotate", "network", "motion", "wait", "emit"]

    public init() {}
}
