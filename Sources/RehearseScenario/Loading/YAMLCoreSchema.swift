import Foundation
import RehearseCore
import Yams

/// YAML 1.2's core schema (the specification's section 10.3), which editors, the YAML language
/// server and JSON Schema validators read: `010` is the integer 10, `0o10` is 8, `1:30` and `yes`
/// are strings, `1e-6` is a number. Yams' default resolver is YAML 1.1's, where `010` is 8, `1:30`
/// is 90 and `yes` is true, so a file would mean one thing to its editor and another to Rehearse.
enum YAMLCoreSchema {
    /// The resolver the loader composes with: plain scalars get a tag by the core schema's
    /// regular expressions; quoted ones are strings.
    static let resolver: Resolver = {
        do {
            return try Resolver.basic
                .appending(.null, "^(?:~|null|Null|NULL|)$")
                .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
                .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
                .appending(
                    .float,
                    #"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"#)
        } catch {
            preconditionFailure("the core schema's patterns are constant and valid: \(error)")
        }
    }()

    /// The value of a scalar the resolver (or an explicit tag) tagged `tag`: nil for null; the
    /// text as written for a tag this schema does not have (`!!timestamp`, `!custom`) and for an
    /// explicit tag the text does not fit (`!!int abc`).
    static func value(of text: String, tag: Tag.Name) -> FieldValue? {
        switch tag {
        case .null: return nil
        case .bool:
            return ["true", "True", "TRUE"].contains(text)
                ? .bool(true)
                : ["false", "False", "FALSE"].contains(text) ? .bool(false) : .string(text)
        case .int: return integer(text).map(FieldValue.int) ?? Double(text).map(FieldValue.double) ?? .string(text)
        case .float: return float(text).map(FieldValue.double) ?? .string(text)
        default: return .string(text)
        }
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`; nil past 64 bits (read then as a number,
    /// as JSON readers do with such integers).
    static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0o") { return Int64(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        return Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text, radix: 10)
    }

    /// A float in the core schema's forms: `.inf`, `-.inf`, `.nan` or decimal notation.
    private static func float(_ text: String) -> Double? {
        let unsigned = text.trimmingPrefix { $0 == "+" || $0 == "-" }.lowercased()
        if unsigned == ".inf" { return text.hasPrefix("-") ? -.infinity : .infinity }
        if unsigned == ".nan" { return .nan }
        // Swift reads `1.`, `.5`, `+2` and `-0.5e3` as strtod does.
        return Double(text)
    }
}
