/// A typed event payload with a field dictionary form.
public protocol EventPayload: Hashable, Sendable {
    /// Reads the payload, refusing missing, mistyped and unknown fields.
    init(fields: Fields) throws(FieldError)
    /// The payload's field dictionary form.
    var fields: Fields { get }
}

extension EventPayload where Self: Codable {
    /// Reads the payload from its fields, refusing unknown, missing and mistyped ones.
    public init(fields: Fields) throws(FieldError) {
        self = try FieldCodec.value(Self.self, from: fields)
    }

    /// The payload's fields (absent optionals are left out).
    public var fields: Fields { FieldCodec.fields(of: self) }
}
