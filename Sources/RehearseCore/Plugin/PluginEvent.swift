/// An event a plugin defines (`login.submit`, `shake`): declared once, as a type, with its name and
/// fields. Plugins emit it with ``PluginContext/emit(_:)-(PluginEvent)`` and receive it typed with
/// ``PluginContext/on(_:_:)-(PluginEvent.Type,_)``; scenario files and D-Bus clients send it by name,
/// with its fields checked against the type.
///
/// A `Codable` struct gets its field form for free:
///
/// ```swift
/// struct Shake: PluginEvent, Codable {
///     static let name = "shake"
///     static let fieldSummary = "magnitude"
///     static let summary = "the device was shaken"
///     var magnitude: Double
/// }
/// ```
public protocol PluginEvent: EventPayload, SendableMetatype {
    /// The dotted name scenarios and D-Bus use.
    static var name: String { get }
    /// The fields as `rehearse events` lists them (`username, reason?`).
    static var fieldSummary: String { get }
    /// Who emits it and what it means.
    static var summary: String { get }
    /// The form of each field's value, for the JSON Schema: found from the type when it is
    /// `Decodable`; a field not listed may hold any value.
    static var fieldShapes: [String: FieldShape] { get }
}

extension PluginEvent {
    /// None known: any value is checked by reading the event alone.
    public static var fieldShapes: [String: FieldShape] { [:] }

    /// The event's line in the vocabulary.
    public static var eventDescription: EventDescription {
        EventDescription(name: name, fields: fieldSummary, summary: summary)
    }

    /// The event as it travels on the bus.
    public var event: Event { .custom(name: Self.name, fields: fields) }

    /// The fields ``fieldSummary`` names (``EventDescription/declaredFields``).
    public static var declaredFields: (required: Set<String>, optional: Set<String>) {
        eventDescription.declaredFields
    }
}

extension PluginEvent where Self: Decodable {
    /// The shapes of the fields the type decodes (strings, numbers, whole numbers, booleans, enums
    /// of strings), found by ``FieldShapeProbe``.
    public static var fieldShapes: [String: FieldShape] { FieldShapeProbe.shapes(of: Self.self) }
}
