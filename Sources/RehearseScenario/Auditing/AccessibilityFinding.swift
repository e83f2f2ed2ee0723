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
    /// The reason of the file's ``AccessibilityDeviation`` for this rule and node, if it has one:
    /// the finding is the original app's own, listed but no failure.
    public var deviation: String? = nil
}
