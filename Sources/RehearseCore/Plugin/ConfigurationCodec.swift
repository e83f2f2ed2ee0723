import Foundation

/// Converts `Codable` plugin configurations to and from field dictionaries, and applies overrides
/// on top of the defaults, refusing keys the configuration does not have.
public enum ConfigurationCodec {
    /// The field form of a configuration.
    public static func fields<Configuration: Encodable>(of configuration: Configuration) -> Fields {
        guard let data = try? JSONEncoder().encode(configuration),
              let fields = try? JSONDecoder().decode(Fields.self, from: data) else { return [:] }
        return fields
    }

    /// `defaults` with `overrides` applied (nested mappings merged key by key), decoded.
    public static func configuration<Configuration: Codable>(
        _ type: Configuration.Type, defaults: Configuration, overrides: Fields
    ) throws(FieldError) -> Configuration {
        let merged = try merge(overrides, into: fields(of: defaults), prefix: "")
        do {
            let data = try JSONEncoder().encode(merged)
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw fieldError(error)
        } catch {
            throw FieldError(path: "", problem: .invalidValue(String(describing: error)))
        }
    }

    private static func merge(_ overrides: Fields, into defaults: Fields, prefix: String) throws(FieldError) -> Fields {
        var merged = defaults
        for key in overrides.keys.sorted() {
            guard let base = defaults[key], let override = overrides[key] else {
                throw FieldError(path: prefix + key, problem: .unknown(known: defaults.keys.sorted()))
            }
            if case .dictionary(let baseFields) = base, case .dictionary(let overrideFields) = override,
               !baseFields.isEmpty {
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
            return FieldError(path: path(context) + (context.codingPath.isEmpty ? "" : ".") + key.stringValue,
                              problem: .missing)
        case .valueNotFound(_, let context):
            return FieldError(path: path(context), problem: .missing)
        @unknown default:
            return FieldError(path: "", problem: .invalidValue(String(describing: error)))
        }
    }
}
