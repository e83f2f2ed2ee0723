/// What a scene node is, as the UIKit class it stands for.
public enum NodeKind: String, CaseIterable, Sendable, Codable {
    case view
    case label
    case textField
    case button
    case scrollView
    case imageView
    /// A `CAShapeLayer` drawn as a stroke (a scroll bar), with `strokeStart` and `strokeEnd`.
    case shape

    /// Whether the node is a `UIControl` (taps on controls do not dismiss the keyboard).
    public var isControl: Bool { self == .button || self == .textField }

    /// Whether the node takes text input and so can become first responder.
    public var isTextInput: Bool { self == .textField }

    /// Whether UIKit starts a view of this kind as an accessibility element: labels, buttons and
    /// text fields.
    public var isAccessibilityElement: Bool { self == .label || self == .button || self == .textField }
}

/// The return key of a text input, as `UIReturnKeyType`.
public enum ReturnKey: String, CaseIterable, Sendable, Codable {
    case `default`, go, next, done, send, search, join, route
}

/// The interface orientation, as `UIInterfaceOrientation`.
public enum Orientation: String, CaseIterable, Sendable, Codable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight

    /// Whether the screen is wider than tall in this orientation.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}
