import RehearseCore
import RehearseLayout
import Yams

/// The constraint sets a scene declares: `{metrics?, sets: {NAME: [VFL or single constraints]}, active?}`.
public struct LayoutSpec: Sendable {
    public var sets: [(name: String, constraints: [LayoutConstraint])]
    /// The sets active from the start.
    public var active: [String]
}

/// Reads `scene.constraints`, reporting a syntax error at its character in the file.
enum LayoutSpecReader {
    static let optionNames = VisualFormatParser.AlignmentOption.allCases.map(\.rawValue)

    static func read(_ value: YAMLValue) throws(ScenarioError) -> (spec: LayoutSpec, activeValue: YAMLValue?) {
        let entries = try value.mapping("constraints", allowed: ScenarioSyntax.constraints)
        var metrics: [String: Double] = [:]
        if let metricsValue = entries["metrics"] {
            for (name, _, number) in try metricsValue.mapping("metrics") { metrics[name] = try number.number("metric '\(name)'") }
        }
        guard let setsValue = entries["sets"] else { throw value.error("constraints needs sets: {NAME: [constraints]}") }
        var sets: [(name: String, constraints: [LayoutConstraint])] = []
        for (name, _, list) in try setsValue.mapping("sets") {
            var constraints: [LayoutConstraint] = []
            for item in try list.sequence("constraint set '\(name)'") { constraints += try read(item, metrics: metrics) }
            sets.append((name, constraints))
        }
        var active: [String] = []
        if let activeValue = entries["active"] { active = try names(activeValue, among: sets.map(\.name)) }
        return (LayoutSpec(sets: sets, active: active), entries["active"])
    }

    /// A set name or a list of them, each declared.
    static func names(_ value: YAMLValue, among known: [String]) throws(ScenarioError) -> [String] {
        let items: [YAMLValue] = if case .sequence = value.node { try value.sequence("constraint sets") } else { [value] }
        var names: [String] = []
        for item in items {
            let name = try item.string("a constraint set name")
            guard known.contains(name) else {
                throw item.error(
                    "unknown constraint set '\(name)'\(Suggestion.hint(for: name, among: known)); "
                        + "sets: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
            }
            names.append(name)
        }
        return names
    }

    /// A VFL line (`H:`/`V:` or brackets), a single constraint, or `{format, options}`.
    private static func read(_ value: YAMLValue, metrics: [String: Double]) throws(ScenarioError) -> [LayoutConstraint] {
        var text: YAMLValue = value
        var options: [VisualFormatParser.AlignmentOption] = []
        if case .mapping = value.node {
            let entries = try value.mapping("a constraint", allowed: ScenarioSyntax.constraint)
            guard let format = entries["format"] else { throw value.error("a constraint mapping needs format") }
            text = format
            for option in try entries["options"]?.sequence("options") ?? [] {
                options.append(try option.choice("an option", as: VisualFormatParser.AlignmentOption.self))
            }
        }
        let source = try text.string("a constraint")
        do {
            if source.hasPrefix("H:") || source.hasPrefix("V:") || source.contains("[") {
                return try VisualFormatParser.parse(source, metrics: metrics, options: options)
            }
            guard options.isEmpty else { throw text.error("options apply to visual format lines only") }
            return [try SingleConstraintParser.parse(source, metrics: metrics)]
        } catch let error as LayoutSyntaxError {
            var location = text.location
            let quoted = if case .scalar(let scalar) = text.node { scalar.style != .plain } else { false }
            location.column += error.offset + (quoted ? 1 : 0)
            throw ScenarioError("\(error.message) in '\(source)'", at: location)
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw text.error("\(error)")
        }
    }
}
