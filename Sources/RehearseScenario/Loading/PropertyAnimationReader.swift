import RehearseCore

/// Reads the `animate:` step: `{target, property, to, duration, curve?, delay?, options?}`, where
/// `property` is an animatable property (`frame`) or one of its components (`frame.y`).
enum PropertyAnimationReader {
    static let optionNames = ScenarioSyntax.animateOptions

    static func read(_ value: YAMLValue, in simulation: Simulation) throws(ScenarioError) -> PropertyAnimation {
        let entries = try value.mapping("animate", allowed: ScenarioSyntax.animate)
        for key in ["target", "property", "to", "duration"] where entries[key] == nil {
            throw value.error(
                "animate needs \(key) (it takes target, property, to, duration and optionally curve, delay, options)")
        }
        guard let targetValue = entries["target"], let propertyValue = entries["property"], let toValue = entries["to"],
            let durationValue = entries["duration"]
        else { throw value.error("animate needs target, property, to and duration") }
        let target = try targetValue.string("target")
        guard simulation.scene.contains(target) else {
            let known = simulation.scene.allIDs
            throw targetValue.error("unknown node '\(target)'\(Suggestion.hint(for: target, among: known))")
        }
        let property = try propertyValue.string("property")
        let (name, component) =
            property.firstIndex(of: ".").map { (String(property[..<$0]), String(property[property.index(after: $0)...])) }
            ?? (property, nil)
        guard let animatable = AnimatableProperty(rawValue: name), component.map(animatable.componentNames.contains) ?? true
        else {
            let known = AnimatableProperty.allCases.flatMap { property in
                [property.rawValue] + property.componentNames.map { "\(property.rawValue).\($0)" }
            }
            throw propertyValue.error(
                "'\(property)' is not an animatable property or component\(Suggestion.hint(for: property, among: known)); "
                    + "properties: \(AnimatableProperty.allCases.map(\.rawValue).joined(separator: ", ")), each with its components (frame.y)"
            )
        }
        guard let to = try toValue.fieldValue("to") else { throw toValue.error("to cannot be null") }
        let path = "\(target).\(property)"
        do {
            try simulation.checkSetting(to, at: path)
        } catch {
            throw toValue.error("to: \(error.reason)")
        }
        var parameters = AnimationParameters(duration: try durationValue.seconds("duration").seconds)
        if let delay = entries["delay"] { parameters.delay = try delay.seconds("delay").seconds }
        if let curve = entries["curve"] { parameters.curve = try timingCurve(curve) }
        if let options = entries["options"] {
            for option in try options.sequence("options") {
                switch try option.string("an option") {
                case "beginFromCurrentState": parameters.options.insert(.beginFromCurrentState)
                case "allowUserInteraction": parameters.options.insert(.allowUserInteraction)
                case let name:
                    throw option.error(
                        "unknown option '\(name)'\(Suggestion.hint(for: name, among: optionNames)); "
                            + "options: \(optionNames.joined(separator: ", "))")
                }
            }
        }
        return PropertyAnimation(path: path, value: to, parameters: parameters)
    }

    /// A curve name, `{bezier: [x1, y1, x2, y2]}`, `{spring: {mass, stiffness, damping, velocity?}}`
    /// or `{pop: {bounciness?, speed?}}`.
    static func timingCurve(_ value: YAMLValue) throws(ScenarioError) -> TimingCurve {
        if case .scalar = value.node { return try value.choice("curve", as: NamedCurve.self).curve }
        let entries = try value.mapping("curve", allowed: ScenarioSyntax.curveForms)
        guard entries.count == 1, let (kind, argument) = entries.first else {
            throw value.error("curve is a name, or one of {bezier: [...]}, {spring: {...}}, {pop: {...}}")
        }
        switch kind {
        case "bezier":
            let points = try argument.sequence("bezier")
            guard points.count == 4 else { throw argument.error("bezier needs four numbers [x1, y1, x2, y2]") }
            var numbers: [Double] = []
            for point in points { numbers.append(try point.number("a control point")) }
            return .bezier(UnitBezier(numbers[0], numbers[1], numbers[2], numbers[3]))
        case "spring":
            let parts = try argument.mapping("spring", allowed: ScenarioSyntax.spring)
            func number(_ key: String, _ fallback: Double?) throws(ScenarioError) -> Double {
                guard let part = parts[key] else {
                    guard let fallback else { throw argument.error("spring needs \(key)") }
                    return fallback
                }
                return try part.number(key)
            }
            guard
                let spring = Spring(
                    mass: try number("mass", 1), stiffness: try number("stiffness", nil),
                    damping: try number("damping", nil), initialVelocity: try number("velocity", 0))
            else {
                throw argument.error("a spring needs positive mass and stiffness and a damping of at least 0")
            }
            return .spring(spring)
        default:
            let parts = try argument.mapping("pop", allowed: ScenarioSyntax.pop)
            let bounciness = try parts["bounciness"].map { value throws(ScenarioError) in try value.number("bounciness") } ?? 4
            let speed = try parts["speed"].map { value throws(ScenarioError) in try value.number("speed") } ?? 12
            guard let spring = Spring.pop(bounciness: bounciness, speed: speed) else {
                let range = ScenarioLimits.popParameter
                throw argument.error(
                    "POP's bounciness and speed are each from \(range.lowerBound.shortDescription) to \(range.upperBound.shortDescription)"
                )
            }
            return .spring(spring)
        }
    }
}
