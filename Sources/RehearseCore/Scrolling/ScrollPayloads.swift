/// `scroll.didScroll`, `scroll.didEndDecelerating` and `scroll.didScrollToTop`: a scroll view and
/// its content offset, as `scrollViewDidScroll(_:)`, `scrollViewDidEndDecelerating(_:)` and
/// `scrollViewDidScrollToTop(_:)` see them.
public struct ScrollPosition: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", contentOffset: .zero), .required("target", \.target),
        .required("contentOffset", \.contentOffset, "{x,y}"))

    /// The scroll view.
    public var target: String
    public var contentOffset: Point

    public init(target: String, contentOffset: Point) {
        self.target = target
        self.contentOffset = contentOffset
    }
}

extension EventKind where Payload == ScrollPosition {
    public static var scrollDidScroll: Self { Self(.scrollDidScroll) { if case .scrollDidScroll(let p) = $0 { p } else { nil } } }
    public static var scrollDidEndDecelerating: Self {
        Self(.scrollDidEndDecelerating) { if case .scrollDidEndDecelerating(let p) = $0 { p } else { nil } }
    }
    public static var scrollDidScrollToTop: Self {
        Self(.scrollDidScrollToTop) { if case .scrollDidScrollToTop(let p) = $0 { p } else { nil } }
    }
}

/// `scroll.willEndDragging`, as `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`:
/// the finger lifted with `velocity` (points per second of the content offset, where UIKit gives
/// points per millisecond) and the scroll view means to come to rest at `targetContentOffset`,
/// which a plugin may change while this event is delivered
/// (``PluginContext/setTargetContentOffset(_:of:)``).
public struct ScrollRelease: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", velocity: .zero, targetContentOffset: .zero), .required("target", \.target),
        .required("velocity", \.velocity, "{x,y} pt/s"), .required("targetContentOffset", \.targetContentOffset, "{x,y}"))

    public var target: String
    public var velocity: Point
    public var targetContentOffset: Point

    public init(target: String, velocity: Point, targetContentOffset: Point) {
        self.target = target
        self.velocity = velocity
        self.targetContentOffset = targetContentOffset
    }
}

extension EventKind where Payload == ScrollRelease {
    public static var scrollWillEndDragging: Self {
        Self(.scrollWillEndDragging) { if case .scrollWillEndDragging(let p) = $0 { p } else { nil } }
    }
}

/// `scroll.willBeginZooming`, `scroll.didZoom` and `scroll.didEndZooming`, as
/// `scrollViewWillBeginZooming(_:with:)`, `scrollViewDidZoom(_:)` and
/// `scrollViewDidEndZooming(_:with:atScale:)`: a scroll view, the view it zooms and its zoom
/// scale then (at the end, within its limits), within ``ScenarioLimits/zoomScale`` however the
/// event comes (the schema holds an emitted one's to it too).
public struct ScrollZoom: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", view: "", zoomScale: 1), .required("target", \.target), .required("view", \.view),
        .required("zoomScale", \.zoomScale, within: ScenarioLimits.zoomScale))

    /// The scroll view.
    public var target: String
    /// Its view for zooming.
    public var view: String
    public var zoomScale: Double

    public init(target: String, view: String, zoomScale: Double) {
        self.target = target
        self.view = view
        self.zoomScale = zoomScale
    }
}

extension EventKind where Payload == ScrollZoom {
    public static var scrollWillBeginZooming: Self {
        Self(.scrollWillBeginZooming) { if case .scrollWillBeginZooming(let p) = $0 { p } else { nil } }
    }
    public static var scrollDidZoom: Self { Self(.scrollDidZoom) { if case .scrollDidZoom(let p) = $0 { p } else { nil } } }
    public static var scrollDidEndZooming: Self {
        Self(.scrollDidEndZooming) { if case .scrollDidEndZooming(let p) = $0 { p } else { nil } }
    }
}
