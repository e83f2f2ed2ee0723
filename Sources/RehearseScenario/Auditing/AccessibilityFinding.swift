import RehearseCore

/// A node that broke an ``AccessibilityRule``, said at the step after which it first did.
public struct AccessibilityFinding: Sendable, Equatable {
    public var rule: AccessibilityRule
    /// The node's id.
    public var node: String
    /// What is wrong, with the numbers.
    public var message: String
    /// The step after which the finding first appeared.
    public var location: SourceLocation
    /// The simulated time after that step.
    public var time: VirtualTime
}
