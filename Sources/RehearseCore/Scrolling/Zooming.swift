/// UIScrollView's zooming rules, shared by the file checks and ``ZoomService``.
///
/// A scroll view has a pinch recogniser only when its `maximumZoomScale` is above its
/// `minimumZoomScale` (UIKit's defaults are both 1; `UIScrollView.h`: `pinchGestureRecognizer`
/// is nil when zooming is disabled), and a pinch zooms it only when it names its
/// `viewForZooming`, a child of its own (UIKit asks its delegate's `viewForZooming(in:)`).
public enum Zooming {
    /// A node's zoom properties besides `zoomScale` (which is animatable).
    public static let propertyNames: Set = ["minimumZoomScale", "maximumZoomScale", "bouncesZoom", "viewForZooming"]

    /// Whether the scroll view has a pinch recogniser: a second finger in it pinches instead of
    /// joining its pan.
    public static func hasPinch(_ node: Node) -> Bool {
        node.kind == .scrollView && node.maximumZoomScale > node.minimumZoomScale
    }

    /// The scale a pinch shows for `scale` (the scale at the start times the fingers' scale): within
    /// `minimum...maximum` itself; past a limit with `bounces`, the limit plus UIKit's rubber band
    /// on the overshoot, with the limit as its dimension (``RubberBand/displacement(_:dimension:coefficient:)``:
    /// at most twice the maximum, above 0.6 times the minimum); without `bounces`, the limit.
    /// UIKit's damping past a limit is private: this is Rehearse's choice.
    public static func shownScale(_ scale: Double, minimum: Double, maximum: Double, bounces: Bool) -> Double {
        if scale > maximum {
            return bounces ? maximum + RubberBand.displacement(scale - maximum, dimension: maximum) : maximum
        }
        if scale < minimum {
            // A scale is above 0, so the overshoot is at most the minimum (an injected pinch's may be less).
            return bounces ? minimum - RubberBand.displacement(min(minimum - scale, minimum), dimension: minimum) : minimum
        }
        return scale
    }

    /// The properties whose change holds `zoomScale` to the limits again: the scale and the limits.
    /// While a pinch rubber-bands past a limit, the others (`bouncesZoom`, `viewForZooming`)
    /// may be set.
    static let scaleAndLimitNames: Set = ["zoomScale", "minimumZoomScale", "maximumZoomScale"]

    /// Checks a node's zoom properties as a file gives them: every scale within
    /// ``ScenarioLimits/zoomScale``, the minimum at most the maximum and, for a scroll view that
    /// zooms (one with `viewForZooming`), `zoomScale` between them, unless `scaleWithinLimits` is
    /// false (a set of a property other than the scale and the limits, ``scaleAndLimitNames``,
    /// while a pinch holds the scale past a limit). Which node `viewForZooming` names is checked
    /// once the scene is built (``checkZoomView(of:in:)``).
    static func check(_ node: Node, scaleWithinLimits: Bool = true) throws(FieldError) {
        try checkScale(node.zoomScale, path: "zoomScale")
        try checkScale(node.minimumZoomScale, path: "minimumZoomScale")
        try checkScale(node.maximumZoomScale, path: "maximumZoomScale")
        guard node.minimumZoomScale <= node.maximumZoomScale else {
            throw FieldError(
                path: "minimumZoomScale",
                problem: .invalidValue(
                    "must be at most maximumZoomScale (\(node.maximumZoomScale.shortDescription)), found \(node.minimumZoomScale.shortDescription)"
                ))
        }
        guard let view = node.viewForZooming else { return }
        guard node.kind == .scrollView else {
            throw FieldError(
                path: "viewForZooming",
                problem: .invalidValue("must be on a scroll view (only a scroll view zooms), found on a \(node.kind.rawValue)"))
        }
        guard !view.isEmpty, !view.contains(".") else {
            throw FieldError(
                path: "viewForZooming", problem: .invalidValue("must be a node id (a name without dots), found '\(view)'"))
        }
        guard !scaleWithinLimits || (node.minimumZoomScale...node.maximumZoomScale).contains(node.zoomScale) else {
            throw FieldError(
                path: "zoomScale",
                problem: .invalidValue(
                    "must be from minimumZoomScale (\(node.minimumZoomScale.shortDescription)) to maximumZoomScale "
                        + "(\(node.maximumZoomScale.shortDescription)), found \(node.zoomScale.shortDescription)"))
        }
    }

    /// Checks that `scale`, the field at `path`, is within ``ScenarioLimits/zoomScale``.
    static func checkScale(_ scale: Double, path: String) throws(FieldError) {
        let limit = ScenarioLimits.zoomScale
        guard !limit.contains(scale) else { return }
        throw FieldError(
            path: path,
            problem: .invalidValue(
                "must be from \(limit.lowerBound.shortDescription) to \(limit.upperBound.shortDescription) "
                    + "(ScenarioLimits.zoomScale), found \(scale.shortDescription)"))
    }

    /// Checks that the `viewForZooming` of node `id` (if any) is one of its children: UIKit
    /// zooms a subview of the scroll view.
    public static func checkZoomView(of id: String, in scene: Scene) throws(ZoomViewError) {
        guard let node = scene[id], let view = node.viewForZooming, !node.children.contains(view) else { return }
        throw ZoomViewError(scrollView: id, view: view, children: node.children)
    }
}

/// A scroll view whose `viewForZooming` is not one of its children.
public struct ZoomViewError: Error, Equatable, Sendable, CustomStringConvertible {
    public var scrollView: String
    public var view: String
    /// The scroll view's children, which it may name.
    public var children: [String]

    public var description: String {
        "viewForZooming '\(view)' of \(scrollView) must be one of its children ("
            + (children.isEmpty ? "it has none" : children.joined(separator: ", ")) + ")"
    }
}
