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
    /// A plugin-defined event such as `login.submit`.
    case custom(name: String, fields: Fields)

    /// The dotted names of the built-in events, in slot order.
    public static let builtinNames: [String] = [
        "keyboard.willShow", "keyboard.didShow", "keyboard.willHide", "keyboard.didHide",
        "focus", "focus.changed", "resign", "tap", "text", "return", "motion", "tick",
        "orientation", "animation.finished", "network", "plugin.failed", "invariant.failed",
    ]

    /// The slot of each built-in name, for subscriptions by name.
    public static let builtinSlots: [String: Int] = Dictionary(
        uniqueKeysWithValues: builtinNames.enumerated().map { ($1, $0) })

    /// The index of a built-in event in ``builtinNames``; `nil` for custom events.
    public var builtinSlot: Int? {
        switch self {
        case .keyboardWillShow: 0
        case .keyboardDidShow: 1
        case .keyboardWillHide: 2
        case .keyboardDidHide: 3
        case .focus: 4
        case .focusChanged: 5
        case .resign: 6
        case .tap: 7
        case .text: 8
        case .returnKey: 9
        case .motion: 10
        case .tick: 11
        case .orientation: 12
        case .animationFinished: 13
        case .network: 14
        case .pluginFailed: 15
        case .invariantFailed: 16
        case .custom: nil
        }
    }

    /// The event's dotted name (`keyboard.willShow`, `login.submit`).
    public var name: String {
        if case .custom(let name, _) = self { return name }
        return Self.builtinNames[builtinSlot ?? 0]
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
        case .custom(_, let fields): fields
        }
    }

    /// Reads an event from its name and field dictionary. Names that are not built in give
    /// ``custom(name:fields:)``; whether such a name is known is the vocabulary's business.
    public init(name: String, fields: Fields) throws(FieldError) {
        switch name {
        case "keyboard.willShow": self = .keyboardWillShow(try KeyboardChange(fields: fields))
        case "keyboard.didShow": self = .keyboardDidShow(try KeyboardChange(fields: fields))
        case "keyboard.willHide": self = .keyboardWillHide(try KeyboardChange(fields: fields))
        case "keyboard.didHide": self = .keyboardDidHide(try KeyboardChange(fields: fields))
        case "focus": self = .focus(try NodeTarget(fields: fields))
        case "focus.changed": self = .focusChanged(try FocusChange(fields: fields))
        case "resign": self = .resign(try ResignRequest(fields: fields))
        case "tap": self = .tap(try Tap(fields: fields))
        case "text": self = .text(try TextInput(fields: fields))
        case "return": self = .returnKey(try NodeTarget(fields: fields))
        case "motion": self = .motion(try MotionSample(fields: fields))
        case "tick": self = .tick(try Tick(fields: fields))
        case "orientation": self = .orientation(try OrientationChange(fields: fields))
        case "animation.finished": self = .animationFinished(try AnimationFinished(fields: fields))
        case "network": self = .network(try NetworkChange(fields: fields))
        case "plugin.failed": self = .pluginFailed(try PluginFailure(fields: fields))
        case "invariant.failed": self = .invariantFailed(try InvariantFailure(fields: fields))
        default: self = .custom(name: name, fields: fields)
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
