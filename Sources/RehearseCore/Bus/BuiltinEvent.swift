/// The built-in events, declared once: the order is the bus's slot order, and each case says its
/// dotted name, its payload type (which declares its fields), who sends it, and how it is read from
/// its field form. ``Event``'s names and slots, ``EventKind``, ``EventDescription/builtin`` (and
/// from it `rehearse events`, the D-Bus introspection and the schema's event names) all come from
/// here; the switches are exhaustive, so a new event does not compile until it is complete.
public enum BuiltinEvent: Int, CaseIterable, Sendable {
    case keyboardWillShow, keyboardDidShow, keyboardWillHide, keyboardDidHide
    case focus, focusChanged, resign, tap, text, returnKey, motion, tick
    case orientation, animationFinished, network, pluginFailed, invariantFailed
    case touchBegan, touchMoved, touchEnded, touchCancelled
    case gesturePan, gestureSwipe, gestureLongPress, gesturePinch
    case scrollWillBeginDragging, scrollDidScroll, scrollWillEndDragging, scrollDidEndDecelerating
    case scrollDidScrollToTop, statusBarTap
    case scrollWillBeginZooming, scrollDidZoom, scrollDidEndZooming

    /// The event's dotted name, as files, D-Bus and traces write it.
    public var name: String {
        switch self {
        case .keyboardWillShow: "keyboard.willShow"
        case .keyboardDidShow: "keyboard.didShow"
        case .keyboardWillHide: "keyboard.willHide"
        case .keyboardDidHide: "keyboard.didHide"
        case .focus: "focus"
        case .focusChanged: "focus.changed"
        case .resign: "resign"
        case .tap: "tap"
        case .text: "text"
        case .returnKey: "return"
        case .motion: "motion"
        case .tick: "tick"
        case .orientation: "orientation"
        case .animationFinished: "animation.finished"
        case .network: "network"
        case .pluginFailed: "plugin.failed"
        case .invariantFailed: "invariant.failed"
        case .touchBegan: "touch.began"
        case .touchMoved: "touch.moved"
        case .touchEnded: "touch.ended"
        case .touchCancelled: "touch.cancelled"
        case .gesturePan: "gesture.pan"
        case .gestureSwipe: "gesture.swipe"
        case .gestureLongPress: "gesture.longPress"
        case .gesturePinch: "gesture.pinch"
        case .scrollWillBeginDragging: "scroll.willBeginDragging"
        case .scrollDidScroll: "scroll.didScroll"
        case .scrollWillEndDragging: "scroll.willEndDragging"
        case .scrollDidEndDecelerating: "scroll.didEndDecelerating"
        case .scrollDidScrollToTop: "scroll.didScrollToTop"
        case .statusBarTap: "statusBar.tap"
        case .scrollWillBeginZooming: "scroll.willBeginZooming"
        case .scrollDidZoom: "scroll.didZoom"
        case .scrollDidEndZooming: "scroll.didEndZooming"
        }
    }

    /// The built-in event called `name`, if there is one.
    public init?(name: String) {
        guard let event = Self.byName[name] else { return nil }
        self = event
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// The fields as `rehearse events` lists them, from the payload's declaration
    /// (``PayloadFields/summary``: `frame {x,y,width,height}, beginFrame?, duration?, curve?`).
    public var fieldSummary: String { payloadType.payloadFields.summary }

    /// The names of the fields its payload must and may have, from the payload's declaration: what
    /// the loader and the JSON Schema check a scenario's fields of the event against.
    public var declaredFields: (required: Set<String>, optional: Set<String>) {
        let fields = payloadType.payloadFields
        return (fields.required, fields.optional)
    }

    /// The form of each field's value, from the payload's declaration.
    public var fieldShapes: [String: FieldShape] {
        Dictionary(uniqueKeysWithValues: payloadType.payloadFields.fields.map { ($0.name, $0.shape) })
    }

    /// The type of its payload: what `context.on(kind)` hands a handler, and what a test builds
    /// to send it (`.focus(NodeTarget(target: "username"))`).
    public var payloadType: any DeclaredPayload.Type {
        switch self {
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide: KeyboardChange.self
        case .focus, .returnKey: NodeTarget.self
        case .focusChanged: FocusChange.self
        case .resign: ResignRequest.self
        case .tap: Tap.self
        case .text: TextInput.self
        case .motion: MotionSample.self
        case .tick: Tick.self
        case .orientation: OrientationChange.self
        case .animationFinished: AnimationFinished.self
        case .network: NetworkChange.self
        case .pluginFailed: PluginFailure.self
        case .invariantFailed: InvariantFailure.self
        case .touchBegan, .touchMoved, .touchEnded, .touchCancelled: Touch.self
        case .gesturePan: PanGesture.self
        case .gestureSwipe: SwipeGesture.self
        case .gestureLongPress: LongPressGesture.self
        case .gesturePinch: PinchGesture.self
        case .scrollWillBeginDragging: NodeTarget.self
        case .scrollDidScroll, .scrollDidEndDecelerating, .scrollDidScrollToTop: ScrollPosition.self
        case .scrollWillEndDragging: ScrollRelease.self
        case .statusBarTap: StatusBarTap.self
        case .scrollWillBeginZooming, .scrollDidZoom, .scrollDidEndZooming: ScrollZoom.self
        }
    }

    /// Who sends it and what it means.
    public var summary: String {
        switch self {
        case .keyboardWillShow: "the keyboard service, when a text input becomes first responder; or injected"
        case .keyboardDidShow: "the keyboard service, once the keyboard has arrived"
        case .keyboardWillHide: "the keyboard service, when no text input is first responder; or injected"
        case .keyboardDidHide: "the keyboard service, once the keyboard has gone"
        case .focus: "a request: make target first responder"
        case .focusChanged: "the responder service"
        case .resign: "a request: end editing in target, or in the whole scene"
        case .tap: "injected; hit-tested on delivery"
        case .text: "injected typing; secure fields' text travels as <redacted>"
        case .returnKey: "injected return key; swallowed when the field auto-disables return and is empty"
        case .motion: "injected device motion"
        case .tick: "the display link, while something needs frames"
        case .orientation: "injected; rotates the screen bounds and the keyboard"
        case .animationFinished: "the animator; finished is false when interrupted"
        case .network: "injected connectivity"
        case .pluginFailed: "the bus, when a plugin throws (the plugin is isolated)"
        case .invariantFailed: "the simulation, when an invariant of the scenario or a plugin stops holding"
        case .touchBegan: "injected: a finger comes down; hit-tested on delivery"
        case .touchMoved: "injected: a finger that is down moves"
        case .touchEnded: "injected: a finger lifts; one that moved less than a tap's slop also makes a tap"
        case .touchCancelled: "injected: the system takes a finger away; its gestures are cancelled"
        case .gesturePan: "the gesture recognisers (a scroll view pans itself), or injected"
        case .gestureSwipe: "the gesture recognisers, once, as ended; or injected"
        case .gestureLongPress: "the gesture recognisers, after 0.5 s held within 10 points; or injected"
        case .gesturePinch: "the gesture recognisers, for two fingers; or injected"
        case .scrollWillBeginDragging: "a scroll view, when a drag begins to move it"
        case .scrollDidScroll: "a scroll view, whenever its content offset changes by a drag or its own motion"
        case .scrollWillEndDragging: "a scroll view, when the finger lifts; a plugin may change the target"
        case .scrollDidEndDecelerating: "a scroll view, when the motion after a drag has come to rest"
        case .scrollDidScrollToTop: "a scroll view, at rest at its top after a tap on the status bar"
        case .statusBarTap:
            "injected: a tap on the status bar; scrolls the one scroll view on screen with scrollsToTop to its top"
        case .scrollWillBeginZooming: "a scroll view, when a pinch begins to zoom its view for zooming"
        case .scrollDidZoom: "a scroll view, whenever its zoom scale changes"
        case .scrollDidEndZooming: "a scroll view, when zooming has ended (after any spring back), at a scale within its limits"
        }
    }

    /// The event of this kind read from its field form, as ``payloadType``.
    public func event(from fields: Fields) throws(FieldError) -> Event {
        switch self {
        case .keyboardWillShow: .keyboardWillShow(try KeyboardChange(fields: fields))
        case .keyboardDidShow: .keyboardDidShow(try KeyboardChange(fields: fields))
        case .keyboardWillHide: .keyboardWillHide(try KeyboardChange(fields: fields))
        case .keyboardDidHide: .keyboardDidHide(try KeyboardChange(fields: fields))
        case .focus: .focus(try NodeTarget(fields: fields))
        case .focusChanged: .focusChanged(try FocusChange(fields: fields))
        case .resign: .resign(try ResignRequest(fields: fields))
        case .tap: .tap(try Tap(fields: fields))
        case .text: .text(try TextInput(fields: fields))
        case .returnKey: .returnKey(try NodeTarget(fields: fields))
        case .motion: .motion(try MotionSample(fields: fields))
        case .tick: .tick(try Tick(fields: fields))
        case .orientation: .orientation(try OrientationChange(fields: fields))
        case .animationFinished: .animationFinished(try AnimationFinished(fields: fields))
        case .network: .network(try NetworkChange(fields: fields))
        case .pluginFailed: .pluginFailed(try PluginFailure(fields: fields))
        case .invariantFailed: .invariantFailed(try InvariantFailure(fields: fields))
        case .touchBegan: .touchBegan(try Touch(fields: fields))
        case .touchMoved: .touchMoved(try Touch(fields: fields))
        case .touchEnded: .touchEnded(try Touch(fields: fields))
        case .touchCancelled: .touchCancelled(try Touch(fields: fields))
        case .gesturePan: .gesturePan(try PanGesture(fields: fields))
        case .gestureSwipe: .gestureSwipe(try SwipeGesture(fields: fields))
        case .gestureLongPress: .gestureLongPress(try LongPressGesture(fields: fields))
        case .gesturePinch: .gesturePinch(try PinchGesture(fields: fields))
        case .scrollWillBeginDragging: .scrollWillBeginDragging(try NodeTarget(fields: fields))
        case .scrollDidScroll: .scrollDidScroll(try ScrollPosition(fields: fields))
        case .scrollWillEndDragging: .scrollWillEndDragging(try ScrollRelease(fields: fields))
        case .scrollDidEndDecelerating: .scrollDidEndDecelerating(try ScrollPosition(fields: fields))
        case .scrollDidScrollToTop: .scrollDidScrollToTop(try ScrollPosition(fields: fields))
        case .statusBarTap: .statusBarTap(try StatusBarTap(fields: fields))
        case .scrollWillBeginZooming: .scrollWillBeginZooming(try ScrollZoom(fields: fields))
        case .scrollDidZoom: .scrollDidZoom(try ScrollZoom(fields: fields))
        case .scrollDidEndZooming: .scrollDidEndZooming(try ScrollZoom(fields: fields))
        }
    }
}
