import Foundation
import RehearseCore
import Yams

/// A YAML node with the file it came from, read with errors that say where and what was expected.
struct YAMLValue {
    let node: Yams.Node
    let file: String

    /// Where the node starts (the file's start when Yams has no mark).
    var location: SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    func error(_ message: String) -> ScenarioError { ScenarioError(message, at: location) }

    /// A short name of the node's type for "found ..." messages.
    var typeName: String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        case .scalar:
            switch scalarValue {
            case .none: "null"
            case .some(let value): value.typeName
            }
        }
    }

    /// The entries of a mapping in file order, with keys as strings.
    func mapping(_ what: String) throws(ScenarioError) -> [(key: String, keyValue: YAMLValue, value: YAMLValue)] {
        guard case .mapping(let mapping) = node else { throw error("\(what) must be a mapping, found \(typeName)") }
        var entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)] = []
        for (key, value) in mapping {
            let keyValue = YAMLValue(node: key, file: file)
            guard case .scalar(let scalar) = key else { throw keyValue.error("keys must be names, found \(keyValue.typeName)") }
            entries.append((scalar.string, keyValue, YAMLValue(node: value, file: file)))
        }
        return entries
    }

    /// The entries of a mapping whose keys must be among `allowed`.
    func mapping(_ what: String, allowed: [String]) throws(ScenarioError) -> [String: YAMLValue] {
        var result: [String: YAMLValue] = [:]
        for (key, keyValue, value) in try mapping(what) {
            guard allowed.contains(key) else {
                throw keyValue.error(
                    "unknown key '\(key)' in \(what)\(Suggestion.hint(for: key, among: allowed)); "
                        + "expected one of: \(allowed.joined(separator: ", "))")
            }
            result[key] = value
        }
        return result
    }

    func sequence(_ what: String) throws(ScenarioError) -> [YAMLValue] {
        guard case .sequence(let sequence) = node else { throw error("\(what) must be a list, found \(typeName)") }
        return sequence.map { YAMLValue(node: $0, file: file) }
    }

    func string(_ what: String) throws(ScenarioError) -> String {
        guard case .string(let text)? = scalarValue else { throw error("\(what) must be a string, found \(typeName)") }
        return text
    }

    func bool(_ what: String) throws(ScenarioError) -> Bool {
        guard case .bool(let flag)? = scalarValue else { throw error("\(what) must be true or false, found \(typeName)") }
        return flag
    }

    /// A finite number, at least `minimum` when given.
    func number(_ what: String, minimum: Double? = nil) throws(ScenarioError) -> Double {
        guard let number = scalarValue?.number else { throw error("\(what) must be a number, found \(typeName)") }
        guard number.isFinite else { throw error("\(what) must be a finite number, found \(number)") }
        if let minimum, number < minimum {
            throw error("\(what) must be at least \(minimum.shortDescription), found \(number.shortDescription)")
        }
        return number
    }

    /// A duration in seconds: finite, not negative, within the clock's range.
    func seconds(_ what: String) throws(ScenarioError) -> VirtualTime {
        let seconds = try number(what, minimum: 0)
        guard let time = VirtualTime.seconds(seconds), seconds <= ScenarioLimits.runSeconds else {
            throw error("\(what) must be at most \(Int(ScenarioLimits.runSeconds)) seconds, found \(seconds.shortDescription)")
        }
        return time
    }

    /// A length in points: from 0 to ``ScenarioLimits/deviceLength``.
    func length(_ what: String) throws(ScenarioError) -> Double {
        let length = try number(what, minimum: 0)
        guard length <= ScenarioLimits.deviceLength else {
            throw error("\(what) must be at most \(Int(ScenarioLimits.deviceLength)) points, found \(length.shortDescription)")
        }
        return length
    }

    /// A choice among a string enum's cases.
    func choice<Choice: RawRepresentable & CaseIterable>(_ what: String, as type: Choice.Type) throws(ScenarioError) -> Choice
    where Choice.RawValue == String {
        let raw = try string(what)
        let allowed = Choice.allCases.map(\.rawValue)
        guard let choice = Choice(rawValue: raw) else {
            throw error(
                "\(what) must be one of \(allowed.joined(separator: ", ")), found '\(raw)'"
                    + Suggestion.hint(for: raw, among: allowed))
        }
        return choice
    }

    /// A scalar as a field value by YAML 1.2's core schema (``YAMLCoreSchema``): `nil` for null,
    /// and for mappings and lists.
    var scalarValue: FieldValue? {
        guard case .scalar(let scalar) = node else { return nil }
        return YAMLCoreSchema.value(of: scalar.string, tag: Tag.Name(rawValue: node.tag.rawValue))
    }

    /// The node as a field value, recursively; `nil` for null. Non-finite numbers are refused.
    func fieldValue(_ what: String) throws(ScenarioError) -> FieldValue? {
        switch node {
        case .scalar:
            if case .double(let number)? = scalarValue, !number.isFinite {
                throw error("\(what) must be a finite number, found \(number)")
            }
            return scalarValue
        case .sequence:
            var items: [FieldValue] = []
            for item in try sequence(what) {
                guard let value = try item.fieldValue(what) else { throw item.error("\(what) cannot hold null in a list") }
                items.append(value)
            }
            return .array(items)
        case .mapping:
            var fields: Fields = [:]
            for (key, _, value) in try mapping(what) { fields[key] = try value.fieldValue(what) }
            return .dictionary(fields)
        case .alias:
            throw error("\(what): aliases are not supported")
        }
    }

    /// Where the field at dotted `path` (as a ``FieldError`` names it) is written in this node:
    /// the deepest node of the path that exists.
    func location(ofField path: String) -> SourceLocation {
        var current = self
        for part in path.split(separator: ".").map(String.init) {
            switch current.node {
            case .mapping(let mapping):
                guard let value = mapping.first(where: { $0.key.string == part })?.value else { return current.location }
                current = YAMLValue(node: value, file: file)
            case .sequence(let items):
                guard let index = Int(part), items.indices.contains(index) else { return current.location }
                current = YAMLValue(node: items[index], file: file)
            case .scalar, .alias:
                return current.location
            }
        }
        return current.location
    }
}
