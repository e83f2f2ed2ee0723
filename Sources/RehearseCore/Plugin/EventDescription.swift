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

    /// The fields ``fields`` names: `username, reason?` has `username` required and `reason`
    /// optional (what follows a name, as in `frame {x,y}`, is not a name). The plugin conformance
    /// kit checks samples against them, and the loader and the JSON Schema check a file's fields.
    public var declaredFields: (required: Set<String>, optional: Set<String>) {
        var required: Set<String> = []
        var optional: Set<String> = []
        for item in fields.split(separator: ",") {
            guard let word = item.split(separator: " ").first else { continue }
            if word.hasSuffix("?") { optional.insert(String(word.dropLast())) } else { required.insert(String(word)) }
        }
        return (required, optional)
    }

    /// Throws for the first required field `fields` lacks, then for the first it has that is not
    /// declared: how an event with no Swift type (a remote plugin's) is checked.
    public func checkFields(_ fields: Fields) throws(FieldError) {
        let (required, optional) = declaredFields
        if let missing = required.subtracting(fields.keys).sorted().first {
            throw FieldError(path: missing, problem: .missing)
        }
        if let unknown = fields.keys.sorted().first(where: { !required.contains($0) && !optional.contains($0) }) {
            throw FieldError(path: unknown, problem: .unknown(known: required.union(optional).sorted()))
        }
    }

    /// The built-in events, in ``Event/builtinNames`` order.
    public static let builtin: [EventDescription] = BuiltinEvent.allCases.map {
        EventDescription(name: $0.name, fields: $0.fieldSummary, summary: $0.summary)
    }
}
