import RehearseCore

/// A breach of an ``AccessibilityRule`` a scenario file documents as the original app's own
/// (`accessibility: {deviations: [{rule, node, reason}]}`): `rehearse audit` lists its findings as
/// deviated and does not fail on them, and `expect-accessible` ignores them. One that matches no
/// finding of a run is stale, and `audit` fails on it, so a deviation cannot outlive its cause.
public struct AccessibilityDeviation: Sendable, Equatable {
    public var rule: AccessibilityRule
    /// The node's id: a node of the file's scene.
    public var node: String
    /// Why the breach stays: what the original app does, with where that is written.
    public var reason: String
    /// Where the deviation is written.
    public var location: SourceLocation

    /// Whether `rule` broken by `node` is this deviation's.
    func covers(rule: AccessibilityRule, node: String) -> Bool {
        self.rule == rule && self.node == node
    }
}
