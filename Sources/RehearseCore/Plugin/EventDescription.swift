/// What an event is called, what it carries and who sends it: one line of the vocabulary.
public struct EventDescription: Hashable, Sendable {
    /// The dotted name.
    public var name: String
    /// The fields, as written in the design (`target`, `frame {x,y,width,height}`).
    public var fields: String
    /// Who emits it and what it means.
    public var summary: String

    public init(name: String, fields: String, summary: String) {
        self.name = name
        self.fields = fields
        self.summary = summary
    }

    private static let keyboardFields = "frame {x,y,width,height}, beginFrame, duration, curve"

    /// The built-in events, in ``Event/builtinNames`` order.
    public static let builtin: [EventDescription] = [
        EventDescription(name: "keyboard.willShow", fields: keyboardFields,
                         summary: "the keyboard service, when a text input becomes first responder; or injected"),
        EventDescription(name: "keyboard.didShow", fields: keyboardFields,
                         summary: "the keyboard service, once the keyboard has arrived"),
        EventDescription(name: "keyboard.willHide", fields: keyboardFields,
                         summary: "the keyboard service, when no text input is first responder; or injected"),
        EventDescription(name: "keyboard.didHide", fields: keyboardFields,
                         summary: "the keyboard service, once the keyboard has gone"),
        EventDescription(name: "focus", fields: "target", summary: "a request: make target first responder"),
        EventDescription(name: "focus.changed", fields: "from?, to?", summary: "the responder service"),
        EventDescription(name: "resign", fields: "target?",
                         summary: "a request: end editing in target, or in the whole scene"),
        EventDescription(name: "tap", fields: "x, y or target; delivered with target and isControl",
                         summary: "injected; hit-tested on delivery"),
        EventDescription(name: "text", fields: "target, text",
                         summary: "injected typing; secure fields' text travels as <redacted>"),
        EventDescription(name: "return", fields: "target",
                         summary: "injected return key; swallowed when the field auto-disables return and is empty"),
        EventDescription(name: "motion", fields: "rotationRate {x,y,z}, attitude?, gravity?, userAcceleration?",
                         summary: "injected device motion"),
        EventDescription(name: "tick", fields: "timestamp, targetTimestamp",
                         summary: "the display link, while something needs frames"),
        EventDescription(name: "orientation",
                         fields: "value: portrait | portraitUpsideDown | landscapeLeft | landscapeRight",
                         summary: "injected; rotates the screen bounds and the keyboard"),
        EventDescription(name: "animation.finished", fields: "target, property, finished",
                         summary: "the animator; finished is false when interrupted"),
        EventDescription(name: "network", fields: "online", summary: "injected connectivity"),
        EventDescription(name: "plugin.failed", fields: "plugin, error",
                         summary: "the bus, when a plugin throws (the plugin is isolated)"),
        EventDescription(name: "invariant.failed", fields: "name, owner, actual, expected",
                         summary: "the simulation, when an invariant of the scenario or a plugin stops holding"),
    ]
}
