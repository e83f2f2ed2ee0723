/// A payload's field form as a table: one row per field, naming the field once with whether it
/// must be given, what `rehearse events` says of its value, and the stored property it is read
/// into and written from. Reading, writing and the payload's ``PayloadFields`` all come from the
/// rows, so a field cannot be declared one way and read another.
public struct FieldTable<Payload: Sendable>: Sendable {
    /// One field: its declaration, and how it moves between the field form and the property.
    public struct Row: Sendable {
        fileprivate let field: PayloadFields.Field
        fileprivate let read: @Sendable (inout FieldReader, inout Payload) throws(FieldError) -> Void
        fileprivate let write: @Sendable (Payload, inout Fields) -> Void
    }

    /// The fields as declared, in the order of the rows.
    public let declaration: PayloadFields
    private let blank: Payload
    private let rows: [Row]

    /// A table whose rows fill in `blank`, a value each read starts from (every row overwrites its
    /// property, so nothing of `blank` survives a read).
    public init(_ blank: Payload, _ rows: Row..., remark: String? = nil) {
        self.blank = blank
        self.rows = rows
        declaration = PayloadFields(rows.map(\.field), remark: remark)
    }

    /// The payload read from its field form, refusing missing, mistyped and unknown fields (the
    /// first in the rows' order).
    public func read(_ fields: Fields) throws(FieldError) -> Payload {
        var reader = FieldReader(fields)
        var payload = blank
        for row in rows { try row.read(&reader, &payload) }
        try reader.finish()
        return payload
    }

    /// The payload's field form; an absent optional field is left out.
    public func fields(of payload: Payload) -> Fields {
        var fields = Fields(minimumCapacity: rows.count)
        for row in rows { row.write(payload, &fields) }
        return fields
    }
}

extension FieldTable.Row {
    /// A field the payload cannot be read without; with a `magnitude`, the schema holds its
    /// numbers to it, and with `within`, its number to those bounds (the simulation checks them
    /// when the event is injected).
    public static func required<Value: FieldConvertible & SendableMetatype>(
        _ name: String, _ property: WritableKeyPath<Payload, Value> & Sendable, _ note: String = "", magnitude: Double? = nil,
        within bounds: ClosedRange<Double>? = nil
    ) -> Self {
        let shape =
            bounds.map(FieldShape.numberWithin) ?? magnitude.map { Value.fieldShape.limited(to: $0) } ?? Value.fieldShape
        return Self(
            field: PayloadFields.Field(name: name, isRequired: true, note: note, shape: shape),
            read: { (reader, payload) throws(FieldError) in payload[keyPath: property] = try reader.required(name) },
            write: { payload, fields in fields[name] = payload[keyPath: property].fieldValue })
    }

    /// A field the payload may be read without; `nil` is written by leaving the field out.
    public static func optional<Value: FieldConvertible & SendableMetatype>(
        _ name: String, _ property: WritableKeyPath<Payload, Value?> & Sendable, _ note: String = ""
    ) -> Self {
        Self(
            field: .optional(name, Value.self, note),
            read: { (reader, payload) throws(FieldError) in payload[keyPath: property] = try reader.optional(name) },
            write: { payload, fields in fields[name] = payload[keyPath: property]?.fieldValue })
    }

    /// A required string field holding one of `Choice`'s raw values, which the declaration lists.
    public static func choice<Choice: RawRepresentable & CaseIterable & SendableMetatype>(
        _ name: String, _ property: WritableKeyPath<Payload, Choice> & Sendable
    ) -> Self where Choice.RawValue == String {
        Self(
            field: .choice(name, Choice.self),
            read: { (reader, payload) throws(FieldError) in payload[keyPath: property] = try reader.requiredChoice(name) },
            write: { payload, fields in fields[name] = .string(payload[keyPath: property].rawValue) })
    }
}

/// A built-in event's payload whose field form is its stored properties, one field each, declared
/// once in ``fieldTable``: its ``DeclaredPayload/payloadFields``, its reading and its field form
/// all come from the table.
public protocol TabulatedPayload: DeclaredPayload {
    /// The payload's fields, one row each.
    static var fieldTable: FieldTable<Self> { get }
}

extension TabulatedPayload {
    public static var payloadFields: PayloadFields { fieldTable.declaration }

    public init(fields: Fields) throws(FieldError) {
        self = try Self.fieldTable.read(fields)
    }

    public var fields: Fields { Self.fieldTable.fields(of: self) }
}
