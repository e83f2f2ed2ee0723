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

    /// The built-in events, in ``Event/builtinNames`` order.
    public static let builtin: [EventDescription] = BuiltinEvent.allCases.map {
        EventDescription(name: $0.name, fields: $0.fieldSummary, summary: $0.summary)
    }
}
