/// A built-in event with its payload type, for typed subscriptions: `context.on(.tap) { tap in ... }`.
public struct EventKind<Payload: EventPayload>: Sendable {
    /// The event's dotted name.
    public let name: String
    /// The payload of an event of this kind; `nil` for any other event.
    public let payload: @Sendable (Event) -> Payload?

    private init(_ event: BuiltinEvent, _ payload: @escaping @Sendable (Event) -> Payload?) {
        name = event.name
        self.payload = payload
    }
}

extension EventKind where Payload == KeyboardChange {
    public static var keyboardWillShow: Self {
        Self(.keyboardWillShow) { if case .keyboardWillShow(let p) = $0 { p } else { nil } }
    }
    public static var keyboardDidShow: Self { Self(.keyboardDidShow) { if case .keyboardDidShow(let p) = $0 { p } else { nil } } }
    public static var keyboardWillHide: Self {
        Self(.keyboardWillHide) { if case .keyboardWillHide(let p) = $0 { p } else { nil } }
    }
    public static var keyboardDidHide: Self { Self(.keyboardDidHide) { if case .keyboardDidHide(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == NodeTarget {
    public static var focus: Self { Self(.focus) { if case .focus(let p) = $0 { p } else { nil } } }
    public static var returnKey: Self { Self(.returnKey) { if case .returnKey(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == FocusChange {
    public static var focusChanged: Self { Self(.focusChanged) { if case .focusChanged(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == ResignRequest {
    public static var resign: Self { Self(.resign) { if case .resign(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == Tap {
    public static var tap: Self { Self(.tap) { if case .tap(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == TextInput {
    public static var text: Self { Self(.text) { if case .text(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == MotionSample {
    public static var motion: Self { Self(.motion) { if case .motion(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == Tick {
    public static var tick: Self { Self(.tick) { if case .tick(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == OrientationChange {
    public static var orientation: Self { Self(.orientation) { if case .orientation(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == AnimationFinished {
    public static var animationFinished: Self {
        Self(.animationFinished) { if case .animationFinished(let p) = $0 { p } else { nil } }
    }
}

extension EventKind where Payload == NetworkChange {
    public static var network: Self { Self(.network) { if case .network(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == PluginFailure {
    public static var pluginFailed: Self { Self(.pluginFailed) { if case .pluginFailed(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == InvariantFailure {
    public static var invariantFailed: Self {
        Self(.invariantFailed) { if case .invariantFailed(let p) = $0 { p } else { nil } }
    }
}

extension EventKind where Payload == Touch {
    public static var touchBegan: Self { Self(.touchBegan) { if case .touchBegan(let p) = $0 { p } else { nil } } }
    public static var touchMoved: Self { Self(.touchMoved) { if case .touchMoved(let p) = $0 { p } else { nil } } }
    public static var touchEnded: Self { Self(.touchEnded) { if case .touchEnded(let p) = $0 { p } else { nil } } }
    public static var touchCancelled: Self { Self(.touchCancelled) { if case .touchCancelled(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == PanGesture {
    public static var gesturePan: Self { Self(.gesturePan) { if case .gesturePan(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == SwipeGesture {
    public static var gestureSwipe: Self { Self(.gestureSwipe) { if case .gestureSwipe(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == LongPressGesture {
    public static var gestureLongPress: Self {
        Self(.gestureLongPress) { if case .gestureLongPress(let p) = $0 { p } else { nil } }
    }
}

extension EventKind where Payload == PinchGesture {
    public static var gesturePinch: Self { Self(.gesturePinch) { if case .gesturePinch(let p) = $0 { p } else { nil } } }
}

extension EventKind where Payload == NodeTarget {
    public static var scrollWillBeginDragging: Self {
        Self(.scrollWillBeginDragging) { if case .scrollWillBeginDragging(let p) = $0 { p } else { nil } }
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

extension EventKind where Payload == StatusBarTap {
    public static var statusBarTap: Self { Self(.statusBarTap) { if case .statusBarTap(let p) = $0 { p } else { nil } } }
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

extension EventKind where Payload == ScrollRelease {
    public static var scrollWillEndDragging: Self {
        Self(.scrollWillEndDragging) { if case .scrollWillEndDragging(let p) = $0 { p } else { nil } }
    }
}
