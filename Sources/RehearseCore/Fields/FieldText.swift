/// Field values written as text, as the command line and `InjectStrings` take them.
public enum FieldText {
    /// `true`/`false` are booleans, whole numbers integers, other decimal numbers (`0.5`, `-2e3`)
    /// numbers, and anything else a string (quote nothing: `hello world` is a string; so are
    /// `0x10`, `nan` and `1e999`, which are no finite decimal number).
    public static func value(_ text: String) -> FieldValue {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default:
            if let integer = Int64(text) { return .int(integer) }
            if text.utf8.allSatisfy(isDecimalNumberByte), let number = Double(text), number.isFinite {
                return .double(number)
            }
            return .string(text)
        }
    }

    /// The bytes a decimal number is written with: `Double(_:)` also reads hexadecimal (`0x10`
    /// is 16), which nobody writing a field's value means.
    private static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.eE".utf8.contains(byte)
    }

    /// The most parts a dotted key may have (`a.b.c` has three), as deep as values may nest in a
    /// D-Bus call: each part is a level of nesting, built one within another.
    public static let maximumKeyParts = 32

    /// `{"rotationRate.y": "0.5", "target": "username"}` as nested fields; a key that is both a
    /// value and a prefix (`a=1`, `a.b=2`), or of more than ``maximumKeyParts`` parts, is an error.
    public static func fields(_ pairs: [(key: String, value: String)]) throws(FieldError) -> Fields {
        var fields: Fields = [:]
        for (key, text) in pairs {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !parts.contains(where: \.isEmpty) else {
                throw FieldError(path: key, problem: .invalidValue("is not a dotted field name"))
            }
            guard parts.count <= maximumKeyParts else {
                throw FieldError(
                    path: "\(parts[0]).…", problem: .invalidValue("has \(parts.count) parts; the limit is \(maximumKeyParts)"))
            }
            try insert(value(text), at: parts[...], into: &fields, path: key)
        }
        return fields
    }

    private static func insert(
        _ value: FieldValue, at parts: ArraySlice<String>, into fields: inout Fields,
        path: String
    ) throws(FieldError) {
        guard let first = parts.first else { return }
        if parts.count == 1 {
            guard fields[first] == nil else { throw FieldError(path: path, problem: .invalidValue("is given twice")) }
            fields[first] = value
            return
        }
        var nested: Fields
        switch fields[first] {
        case nil: nested = [:]
        case .dictionary(let existing)?: nested = existing
        default: throw FieldError(path: path, problem: .invalidValue("is both a value and a group"))
        }
        try insert(value, at: parts.dropFirst(), into: &nested, path: path)
        fields[first] = .dictionary(nested)
    }
}

extension Double {
    /// The number as people write it: `2` rather than `2.0`.
    public var shortDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }

    /// The number as traces, JSON and D-Bus carry it: `-0.0` as `0.0`, which it equals. The sign
    /// of a zero means nothing here (an offset sprung back to 0 from above the top computes as
    /// -0), and `"y":-0.0` in a trace only puzzles its reader.
    public var withoutNegativeZero: Double { self == 0 ? 0 : self }
}
