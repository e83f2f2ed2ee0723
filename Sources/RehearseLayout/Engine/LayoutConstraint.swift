/// An attribute of a view that constraints can relate, as `NSLayoutAttribute`.
public enum LayoutAttribute: String, CaseIterable, Sendable {
    case left, right, top, bottom, width, height, centerX, centerY, leading, trailing
}

/// The id that stands for the superview of the other item in a constraint.
public let superviewID = "superview"

/// The layout guides a constraint can name as an item, each the superview's, following the safe
/// area as UIKit's do: `safeArea` (`safeAreaLayoutGuide`, iOS 11: `title.top == safeArea.top + 8`)
/// and iOS 7's `topLayoutGuide` and `bottomLayoutGuide`, which VFL names as views
/// (`V:[topLayoutGuide]-[title]`). VFL's `|` stays the superview's edge, as on iOS.
public enum LayoutGuide: String, CaseIterable, Sendable {
    case safeArea, topLayoutGuide, bottomLayoutGuide
}

/// One declarative constraint, as `NSLayoutConstraint`:
/// `first.attribute relation multiplier × second.attribute + constant @ priority`.
public struct LayoutConstraint: Hashable, Sendable, CustomStringConvertible {
    public var firstItem: String
    public var firstAttribute: LayoutAttribute
    public var relation: Constraint.Relation
    /// `nil` for a constraint against a constant only (`separator.height == 1`).
    public var secondItem: String?
    public var secondAttribute: LayoutAttribute?
    public var multiplier: Double
    public var constant: Double
    /// A moving metric added to `constant`, by name (VFL's `-top-` parsed with `top` among its
    /// moving metrics): an edit variable of the ``LayoutEngine``, whose value the active sets give
    /// and a new value moves without re-adding the constraint. `nil` for a fixed constant.
    public var metric: String?
    /// 1 to 1000; 1000 is required.
    public var priority: Double
    /// The text it was written as (a VFL line or a single constraint), for messages.
    public var source: String

    public init(
        _ firstItem: String, _ firstAttribute: LayoutAttribute, _ relation: Constraint.Relation,
        _ secondItem: String? = nil, _ secondAttribute: LayoutAttribute? = nil,
        multiplier: Double = 1, constant: Double = 0, metric: String? = nil, priority: Double = 1000, source: String = ""
    ) {
        self.firstItem = firstItem
        self.firstAttribute = firstAttribute
        self.relation = relation
        self.secondItem = secondItem
        self.secondAttribute = secondAttribute
        self.multiplier = multiplier
        self.constant = constant
        self.metric = metric
        self.priority = priority
        self.source = source
    }

    public var description: String {
        var text = "\(firstItem).\(firstAttribute.rawValue) \(relation.rawValue) "
        if let secondItem, let secondAttribute {
            text += multiplier == 1 ? "" : "\(multiplier) * "
            text += "\(secondItem).\(secondAttribute.rawValue)"
            if constant != 0 { text += constant > 0 ? " + \(constant)" : " - \(-constant)" }
            if let metric { text += " + \(metric)" }
        } else {
            text += metric.map { constant == 0 ? $0 : "\(constant) + \($0)" } ?? "\(constant)"
        }
        return priority < 1000 ? text + " @\(priority)" : text
    }
}
