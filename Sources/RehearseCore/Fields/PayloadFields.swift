/// The fields of a built-in event's payload, declared once: each one's name, whether it must be
/// given, and what the vocabulary says of its value. A ``TabulatedPayload`` derives it from its
/// ``FieldTable``; a payload that reads its fields by hand reads them through a ``FieldReader``
/// made with this declaration, which checks in debug builds that it asks for exactly these
/// fields, the required ones as required; `rehearse events` shows ``summary``; the
/// loader and the JSON Schema check a scenario's fields of the event against ``required`` and
/// ``optional``.
public struct PayloadFields: Sendable {
    /// One field of the payload.
    public struct Field: Sendable {
        /// Its key in the field form.
        public let name: String
        /// Whether the payload refuses to be read without it.
        public let isRequired: Bool
        /// What the summary says of its value after its name: `{x,y}`, `pt/s`, `: up | down`.
        public let note: String
        /// The form its value must have to be read.
        public let shape: FieldShape

        /// A field the payload cannot be read without, read as `Value`; `shape`, when given, is
        /// its form with the bounds the payload's reader holds it to (`Value`'s form otherwise).
        public static func required<Value: FieldConvertible>(
            _ name: String, _ type: Value.Type, _ note: String = "",
            shape: FieldShape? = nil
        ) -> Field {
            Field(name: name, isRequired: true, note: note, shape: shape ?? Value.fieldShape)
        }

        /// A field the payload may be read without, read as `Value`; `shape` as for ``required(_:_:_:shape:)``.
        public static func optional<Value: FieldConvertible>(
            _ name: String, _ type: Value.Type, _ note: String = "",
            shape: FieldShape? = nil
        ) -> Field {
            Field(name: name, isRequired: false, note: note, shape: shape ?? Value.fieldShape)
        }

        /// A string field holding one of `Choice`'s raw values, which the note lists.
        public static func choice<Choice: RawRepresentable & CaseIterable>(
            _ name: String, _ type: Choice.Type, isRequired: Bool = true
        ) -> Field where Choice.RawValue == String {
            let values = Choice.allCases.map(\.rawValue)
            return Field(name: name, isRequired: isRequired, note: ": " + values.joined(separator: " | "), shape: .choice(values))
        }
    }

    /// The fields, in the order the summary lists them.
    public let fields: [Field]
    /// What the summary says after the fields (`delivered with target`), if anything.
    public let remark: String?
    /// Sets of optional fields of which the payload needs one given whole (a tap's `x` and `y`, or
    /// its `target`); empty when it needs none. The reader checks it; the JSON Schema says it.
    public let alternatives: [[String]]

    public init(_ fields: Field..., remark: String? = nil, alternatives: [[String]] = []) {
        self.init(fields, remark: remark, alternatives: alternatives)
    }

    /// The declaration of `fields`, in the order the summary lists them.
    public init(_ fields: [Field], remark: String? = nil, alternatives: [[String]] = []) {
        self.fields = fields
        self.remark = remark
        self.alternatives = alternatives
    }

    /// The names of the fields the payload cannot be read without.
    public var required: Set<String> { Set(fields.filter(\.isRequired).map(\.name)) }
    /// The names of the fields it may be read without.
    public var optional: Set<String> { Set(fields.filter { !$0.isRequired }.map(\.name)) }

    /// The fields as `rehearse events` lists them: `frame {x,y,width,height}, beginFrame?, duration?`,
    /// a `?` after each optional name, and the remark after a `;`.
    public var summary: String {
        let names = fields.map { field in
            field.name + (field.isRequired ? "" : "?") + (field.note.isEmpty || field.note.hasPrefix(":") ? "" : " ") + field.note
        }
        return ([names.joined(separator: ", ")] + (remark.map { [$0] } ?? [])).joined(separator: "; ")
    }

    /// Whether `name` is declared, as required or not.
    func declares(_ name: String, required isRequired: Bool) -> Bool {
        fields.contains { $0.name == name && $0.isRequired == isRequired }
    }
}

/// A built-in event's payload: its fields are declared once, in ``payloadFields``.
public protocol DeclaredPayload: EventPayload {
    /// The fields its field form has.
    static var payloadFields: PayloadFields { get }
}
