import RehearseCore

/// A rule `rehearse audit` checks the scene against after every step, with where it comes from.
public enum AccessibilityRule: String, CaseIterable, Sendable, Codable {
    /// An interactive element on screen is at least 44 × 44 points.
    case touchTarget = "touch-target"
    /// An interactive element says what it is: a button by its accessibility label or its text,
    /// a text field by its accessibility label (a scene has no placeholders to fall back on).
    case label
    /// The focused text field is not behind the keyboard once the keyboard has arrived.
    case coveredByKeyboard = "covered-by-keyboard"
    /// Return moves focus down the screen: the text field tagged one more than a field (where
    /// Return takes focus from it) comes after it in reading order.
    case focusOrder = "focus-order"

    /// The smallest width and height of a touch target, in points.
    public static let minimumTouchTarget = 44.0

    /// What the rule asks, in a sentence.
    public var summary: String {
        switch self {
        case .touchTarget: "an interactive element is at least 44 × 44 pt"
        case .label: "an interactive element has a label (a button its label or text, a text field its label)"
        case .coveredByKeyboard: "the focused text field is not behind the keyboard once it has arrived"
        case .focusOrder:
            "the field Return moves to (the one tagged one more) comes after it in reading order: lower, or level and to its right"
        }
    }

    /// Where the rule comes from.
    public var source: String {
        switch self {
        case .touchTarget:
            "Apple, Human Interface Guidelines, Accessibility: \"a minimum tappable area of 44x44 pt for all controls\""
        case .label:
            "WCAG 2.2, success criteria 4.1.2 (Name, Role, Value) and 3.3.2 (Labels or Instructions); UIKit's accessibilityLabel"
        case .coveredByKeyboard:
            "Apple, Text Programming Guide for iOS, Managing the Keyboard: \"adjust your content so that the text object being "
                + "edited is not obscured by the keyboard\""
        case .focusOrder:
            "WCAG 2.2, success criterion 2.4.3 (Focus Order); the auto-scroll plugin's Return after the original (xleon/AutoScroll): "
                + "\"the next field is the one tagged one more\""
        }
    }

    /// Whether a node is an interactive accessibility element: a button or a text field (by kind,
    /// or by the traits of a button, link, adjustable or search field) that assistive technologies
    /// see and that is enabled.
    static func isInteractive(_ node: Node) -> Bool {
        let interactiveTraits: AccessibilityTraits = [.button, .link, .adjustable, .searchField]
        return node.isAccessibilityElement && !node.accessibilityTraits.contains(.notEnabled)
            && (node.kind == .button || node.kind.isTextInput || !node.accessibilityTraits.isDisjoint(with: interactiveTraits))
    }
}
