/// The form a field's value must have to be read: what the JSON Schema checks an event's fields
/// against, so that a file is valid for an editor exactly when its fields can be read. What a
/// value must hold beyond its form (a touch's id not negative) only the reader checks.
public indirect enum FieldShape: Hashable, Sendable {
    /// Any value the field form has.
    case any
    case string
    /// A finite number.
    case number
    /// A finite number within these bounds (a keyboard's animation duration).
    case numberWithin(ClosedRange<Double>)
    /// A whole number.
    case integer
    case boolean
    /// One of these strings.
    case choice([String])
    /// Numbers named by these keys: a mapping with exactly them, or a list in their order; with a
    /// `magnitude`, each at most that far from 0.
    case numbers([String], magnitude: Double? = nil)
    /// A list of values of one shape.
    case list(FieldShape)
    /// A mapping of any keys.
    case mapping
    /// A mapping of any keys whose values all have one shape (a gateway's `sections`, booleans).
    case mappingOf(FieldShape)

    /// This shape with its numbers at most `magnitude` from 0 (a gesture's velocity): for numbers
    /// named by keys; any other shape is itself.
    public func limited(to magnitude: Double) -> FieldShape {
        switch self {
        case .numbers(let keys, _): .numbers(keys, magnitude: magnitude)
        case .any, .string, .number, .numberWithin, .integer, .boolean, .choice, .list, .mapping, .mappingOf: self
        }
    }
}
