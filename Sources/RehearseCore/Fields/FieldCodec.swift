/// Converts `Codable` values (plugin configurations, plugin events) to and from field
/// dictionaries, refusing keys the type does not have, and applies configuration overrides on top
/// of the defaults.
public enum FieldCodec {
    /// The field form of a value.
    public static func fields<Value: Encodable>(of value: Value) -> Fields {
        guard case .dictionary(let fields)? = try? FieldValueEncoder.encode(value) else { return [:] }
        return fields
    }

    /// A value read from its field form; a key the type does not have is an error, as are missing
    /// and mistyped ones (a missing one named by its likely misspelling, if one was given).
    public static func value<Value: Codable>(_ type: Value.Type, from fields: Fields) throws(FieldError) -> Value {
        let value: Value
        do {
            value = try decode(type, from: fields)
        } catch {
            throw error.namingMisspelling(in: fields)
        }
        try refuseUnknownKeys(fields, known: Self.fields(of: value), prefix: "")
        return value
    }

    /// `defaults` with `overrides` applied (nested mappings merged key by key), decoded.
    public static func configuration<Configuration: Codable>(
        _ type: Configuration.Type, defaults: Configuration, overrides: Fields
    ) throws(FieldError) -> Configuration {
        try decode(type, from: try merge(overrides, into: fields(of: defaults), prefix: ""))
    }

    /// `defaults` with `overrides` applied (nested mappings merged key by key), for a configuration
    /// that has no Swift type (a remote plugin's): a key the defaults do not have is refused, and so
    /// is a value of another kind than the default's; a whole number where the default is a
    /// number with a fraction becomes one (`threshold: 2` over `2.0` is `2.0`), as a decoder makes it.
    public static func merged(defaults: Fields, overrides: Fields) throws(FieldError) -> Fields {
        try conformed(try merge(overrides, into: defaults, prefix: ""), to: defaults, prefix: "")
    }

    private static func conformed(_ values: Fields, to defaults: Fields, prefix: String) throws(FieldError) -> Fields {
        var result = values
        for key in values.keys.sorted() {
            guard let value = values[key], let base = defaults[key] else { continue }
            switch (value, base) {
            case (.dictionary(let nested), .dictionary(let nestedBase)):
                result[key] = .dictionary(try conformed(nested, to: nestedBase, prefix: prefix + key + "."))
            case (.int(let whole), .double):
                result[key] = .double(Double(whole))
            case (.bool, .bool), (.int, .int), (.double, .double), (.double, .int), (.string, .string), (.array, .array):
                continue
            case (.bool, _), (.int, _), (.double, _), (.string, _), (.array, _), (.dictionary, _):
                throw FieldError(path: prefix + key, problem: .invalidValue("must be \(base.typeName), found \(value.typeName)"))
            }
        }
        return result
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from fields: Fields) throws(FieldError) -> Value {
        do {
            return try FieldValueDecoder(value: .dictionary(fields), codingPath: []).decode(type)
        } catch let error as FieldError {
            throw error
        } catch let error as DecodingError {
            throw fieldError(error)
        } catch {
            throw FieldError(path: "", problem: .invalidValue(String(describing: error)))
        }
    }

    /// Throws for the first key of `given` (in sorted order, nested mappings too) that `known`, the
    /// decoded value encoded again, does not have.
    private static func refuseUnknownKeys(_ given: Fields, known: Fields, prefix: String) throws(FieldError) {
        for key in given.keys.sorted() {
            guard let knownValue = known[key] else {
                throw FieldError(path: prefix + key, problem: .unknown(known: known.keys.sorted()))
            }
            if case .dictionary(let nestedGiven)? = given[key], case .dictionary(let nestedKnown) = knownValue {
                try refuseUnknownKeys(nestedGiven, known: nestedKnown, prefix: prefix + key + ".")
            }
        }
    }

    private static func merge(_ overrides: Fields, into defaults: Fields, prefix: String) throws(FieldError) -> Fields {
        var merged = defaults
        for key in overrides.keys.sorted() {
            guard let base = defaults[key], let override = overrides[key] else {
                throw FieldError(path: prefix + key, problem: .unknown(known: defaults.keys.sorted()))
            }
            if case .dictionary(let baseFields) = base, case .dictionary(let overrideFields) = override,
                !baseFields.isEmpty
            {
                merged[key] = .dictionary(try merge(overrideFields, into: baseFields, prefix: prefix + key + "."))
            } else {
                merged[key] = override
            }
        }
        return merged
    }

    private static func fieldError(_ error: DecodingError) -> FieldError {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return FieldError(path: path(context), problem: .invalidValue("must be \(type): \(context.debugDescription)"))
        case .dataCorrupted(let context):
            return FieldError(path: path(context), problem: .invalidValue(context.debugDescription))
        case .keyNotFound(let key, let context):
            return FieldError(
                path: path(context) + (context.codingPath.isEmpty ? "" : ".") + key.stringValue,
                problem: .missing)
        case .valueNotFound(_, let context):
            return FieldError(path: path(context), problem: .missing)
        @unknown default:
            return FieldError(path: "", problem: .invalidValue(String(describing: error)))
        }
    }
}
