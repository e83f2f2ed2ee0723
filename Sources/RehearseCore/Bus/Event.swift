/// Everything that travels on the bus: the built-in events as typed payloads, and plugin-defined
/// events as a name with fields.
public enum Event: Hashable, Sendable {
    case keyboardWillShow(KeyboardChange)
    case keyboardDidShow(KeyboardChange)
    case keyboardWillHide(KeyboardChange)
    case keyboardDidHide(KeyboardChange)
    /// A request: make `target` first responder.
    case focus(NodeTarget)
    case focusChanged(FocusChange)
    /// A request: end editing in `target`, or in the whole scene.
    case resign(ResignRequest)
    case tap(Tap)
    case text(TextInput)
    /// The return key pressed in `target`.
    case returnKey(NodeTarget)
    case motion(MotionSample)
    case tick(Tick)
    case orientation(OrientationChange)
    case animationFinished(AnimationFinished)
    case network(NetworkChange)
    case pluginFailed(PluginFailure)
    /// An invariant stopped holding (reported once until it holds again).
    case invariantFailed(InvariantFailure)
    /// A finger came down, moved, lifted, or was taken away by the system.
    case touchBegan(Touch)
    case touchMoved(Touch)
    case touchEnded(Touch)
    case touchCancelled(Touch)
    /// A recognised gesture, in one of its states.
    case gesturePan(PanGesture)
    case gestureSwipe(SwipeGesture)
    case gestureLongPress(LongPressGesture)
    case gesturePinch(PinchGesture)
    /// A scroll view's delegate moments.
    case scrollWillBeginDragging(NodeTarget)
    case scrollDidScroll(ScrollPosition)
    case scrollWillEndDragging(ScrollRelease)
    case scrollDidEndDecelerating(ScrollPosition)
    /// A scroll view a tap on the status bar scrolled to its top (UIKit's `scrollViewDidScrollToTop`).
    case scrollDidScrollToTop(ScrollPosition)
    /// A tap on the status bar (``StatusBarTap``).
    case statusBarTap(StatusBarTap)
    /// A scroll view's zooming moments.
    case scrollWillBeginZooming(ScrollZoom)
    case scrollDidZoom(ScrollZoom)
    case scrollDidEndZooming(ScrollZoom)
    /// A plugin-defined event such as `login.submit`.
    case custom(name: String, fields: Fields)

    /// The dotted names of the built-in events, in slot order (``BuiltinEvent``'s).
    public static let builtinNames: [String] = BuiltinEvent.allCases.map(\.name)

    /// The slot of each built-in name, for subscriptions by name.
    public static let builtinSlots: [String: Int] = Dictionary(
        uniqueKeysWithValues: BuiltinEvent.allCases.map { ($0.name, $0.rawValue) })

    /// Which built-in event this is; `nil` for custom events.
    public var builtin: BuiltinEvent? {
        switch self {
        case .keyboardWillShow: .keyboardWillShow
        case .keyboardDidShow: .keyboardDidShow
        case .keyboardWillHide: .keyboardWillHide
        case .keyboardDidHide: .keyboardDidHide
        case .focus: .focus
        case .focusChanged: .focusChanged
        case .resign: .resign
        case .tap: .tap
        case .text: .text
        case .returnKey: .returnKey
        case .motion: .motion
        case .tick: .tick
        case .orientation: .orientation
        case .animationFinished: .animationFinished
        case .network: .network
        case .pluginFailed: .pluginFailed
        case .invariantFailed: .invariantFailed
        case .touchBegan: .touchBegan
        case .touchMoved: .touchMoved
        case .touchEnded: .touchEnded
        case .touchCancelled: .touchCancelled
        case .gesturePan: .gesturePan
        case .gestureSwipe: .gestureSwipe
        case .gestureLongPress: .gestureLongPress
        case .gesturePinch: .gesturePinch
        case .scrollWillBeginDragging: .scrollWillBeginDragging
        case .scrollDidScroll: .scrollDidScroll
        case .scrollWillEndDragging: .scrollWillEndDragging
        case .scrollDidEndDecelerating: .scrollDidEndDecelerating
        case .scrollDidScrollToTop: .scrollDidScrollToTop
        case .statusBarTap: .statusBarTap
        case .scrollWillBeginZooming: .scrollWillBeginZooming
        case .scrollDidZoom: .scrollDidZoom
        case .scrollDidEndZooming: .scrollDidEndZooming
        case .custom: nil
        }
    }

    /// The index of a built-in event in ``builtinNames``; `nil` for custom events.
    public var builtinSlot: Int? { builtin?.rawValue }

    /// The event's dotted name (`keyboard.willShow`, `login.submit`).
    public var name: String {
        if case .custom(let name, _) = self { return name }
        return builtin?.name ?? ""
    }

    /// The event's field dictionary form.
    public var fields: Fields {
        switch self {
        case .keyboardWillShow(let payload), .keyboardDidShow(let payload),
            .keyboardWillHide(let payload), .keyboardDidHide(let payload):
            payload.fields
        case .focus(let payload), .returnKey(let payload): payload.fields
        case .focusChanged(let payload): payload.fields
        case .resign(let payload): payload.fields
        case .tap(let payload): payload.fields
        case .text(let payload): payload.fields
        case .motion(let payload): payload.fields
        case .tick(let payload): payload.fields
        case .orientation(let payload): payload.fields
        case .animationFinished(let payload): payload.fields
        case .network(let payload): payload.fields
        case .pluginFailed(let payload): payload.fields
        case .invariantFailed(let payload): payload.fields
        case .touchBegan(let payload), .touchMoved(let payload), .touchEnded(let payload), .touchCancelled(let payload):
            payload.fields
        case .gesturePan(let payload): payload.fields
        case .gestureSwipe(let payload): payload.fields
        case .gestureLongPress(let payload): payload.fields
        case .gesturePinch(let payload): payload.fields
        case .scrollWillBeginDragging(let payload): payload.fields
        case .scrollDidScroll(let payload), .scrollDidEndDecelerating(let payload), .scrollDidScrollToTop(let payload):
            payload.fields
        case .scrollWillEndDragging(let payload): payload.fields
        case .statusBarTap(let payload): payload.fields
        case .scrollWillBeginZooming(let payload), .scrollDidZoom(let payload), .scrollDidEndZooming(let payload): payload.fields
        case .custom(_, let fields): fields
        }
    }

    /// Reads an event from its name and field dictionary. Names that are not built in give
    /// ``custom(name:fields:)``; whether such a name is known is the vocabulary's business.
    public init(name: String, fields: Fields) throws(FieldError) {
        guard let builtin = BuiltinEvent(name: name) else {
            self = .custom(name: name, fields: fields)
            return
        }
        do {
            self = try builtin.event(from: fields)
        } catch {
            throw error.namingMisspelling(in: fields)
        }
    }
}

/// An event as delivered: stamped with its place in the run.
public struct DeliveredEvent: Hashable, Sendable {
    /// Consecutive from 1 in the order of delivery.
    public var sequence: UInt64
    /// The virtual time of delivery.
    public var time: VirtualTime
    /// The event itself.
    public var event: Event
    /// Who published it: `injected`, a system service (`keyboard`, `responder`, `animator`,
    /// `display-link`, `bus`) or a plugin id.
    public var source: String

    public init(sequence: UInt64, time: VirtualTime, event: Event, source: String) {
        self.sequence = sequence
        self.time = time
        self.event = event
        self.source = source
    }
}
