/// The built-in events, declared once: the order is the bus's slot order, and each case says its
/// dotted name, its fields as the vocabulary shows them, who sends it, and how it is read from
/// its field form. ``Event``'s names and slots, ``EventKind``, ``EventDescription/builtin`` (and
/// from it `rehearse events`, the D-Bus introspection and the schema's event names) all come from
/// here; the switches are exhaustive, so a new event does not compile until it is complete.
public enum BuiltinEvent: Int, CaseIterable, Sendable {
    case keyboardWillShow, keyboardDidShow, keyboardWillHide, keyboardDidHide
    case focus, focusChanged, resign, tap, text, returnKey, motion, tick
    case orientation, animationFinished, network, pluginFailed, invariantFailed

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
        }
    }

    /// The built-in event called `name`, if there is one.
    public init?(name: String) {
        guard let event = Self.byName[name] else { return nil }
        self = event
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// The fields, as the design writes them (`target`, `frame {x,y,width,height}`).
    public var fieldSummary: String {
        switch self {
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide:
            "frame {x,y,width,height}, beginFrame, duration, curve"
        case .focus, .returnKey: "target"
        case .focusChanged: "from?, to?"
        case .resign: "target?"
        case .tap: "x, y or target; delivered with target and isControl"
        case .text: "target, text"
        case .motion: "rotationRate {x,y,z}, attitude?, gravity?, userAcceleration?"
        case .tick: "timestamp, targetTimestamp"
        case .orientation: "value: portrait | portraitUpsideDown | landscapeLeft | landscapeRight"
        case .animationFinished: "target, property, finished"
        case .network: "online"
        case .pluginFailed: "plugin, error"
        case .invariantFailed: "name, owner, actual, expected"
        }
    }

    /// The type of its payload: what `context.on(kind)` hands a handler, and what a test builds
    /// to send it (`.focus(NodeTarget(target: "username"))`).
    public var payloadType: any EventPayload.Type {
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
        }
    }
}
