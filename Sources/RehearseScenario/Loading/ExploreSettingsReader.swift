import RehearseCore

extension StepParser {
    /// The `explore:` section: `length`, `runs`, and `actions:` mapping each kind to a weight or to
    /// `{weight, ...}` with the kind's values (`tap: {nodes}`, `text: {values}`, `wait: {between}`,
    /// `emit: {events: [{name, fields}]}`).
    func exploreSettings(_ value: YAMLValue) throws(ScenarioError) -> ExploreSettings {
        let entries = try value.mapping("explore", allowed: ScenarioSyntax.explore)
        var settings = ExploreSettings()
        settings.length = try entries["length"].map { value throws(ScenarioError) in
            try wholeNumber(value, "length", upTo: Double(ScenarioLimits.exploreLength))
        }
        settings.runs = try entries["runs"].map { value throws(ScenarioError) in
            try wholeNumber(value, "runs", upTo: Double(ScenarioLimits.exploreRuns))
        }
        guard let actions = entries["actions"] else { return settings }
        for (name, key, setting) in try actions.mapping("actions") {
            guard let kind = ExploreKind(rawValue: name) else {
                throw key.error(
                    "unknown action kind '\(name)'\(Suggestion.hint(for: name, among: ExploreKind.names)); "
                        + "kinds: \(ExploreKind.names.joined(separator: ", "))")
            }
            if case .scalar = setting.node {
                settings.weights[kind] = try weight(setting)
                continue
            }
            let allowed = ["weight"] + (kind.valuesKey.map { [$0] } ?? [])
            let options = try setting.mapping("the \(name) actions", allowed: allowed)
            if let weightValue = options["weight"] { settings.weights[kind] = try weight(weightValue) }
            try read(kind, options, into: &settings)
        }
        return settings
    }

    private func read(_ kind: ExploreKind, _ options: [String: YAMLValue], into settings: inout ExploreSettings)
        throws(ScenarioError)
    {
        switch kind {
        case .tap:
            settings.tapTargets = try options["nodes"].map { value throws(ScenarioError) in
                try list(value, "nodes").map { item throws(ScenarioError) in try node(item) }
            }
        case .text:
            settings.texts = try options["values"].map { value throws(ScenarioError) in
                try list(value, "values").map { item throws(ScenarioError) in try item.string("a text") }
            }
        case .wait:
            guard let between = options["between"] else { return }
            let bounds = try between.sequence("between")
            guard bounds.count == 2 else { throw between.error("between needs two durations, [shortest, longest]") }
            let low = try bounds[0].seconds("the shortest wait")
            let high = try bounds[1].seconds("the longest wait")
            guard low < high, low.nanoseconds > 0 else { throw between.error("between needs 0 < shortest < longest") }
            if let problem = Explorer.sequenceTimeProblem(
                length: settings.length ?? Explorer.defaultLength, longestWait: high.seconds)
            {
                throw between.error(problem)
            }
            settings.waitRange = low.seconds...high.seconds
        case .emit:
            settings.events = try options["events"].map { value throws(ScenarioError) in
                try list(value, "events").map { item throws(ScenarioError) in try emit(item).0 }
            }
        case .focus, .returnKey, .resign, .rotate, .network, .motion, .drag, .fling, .swipe, .longPress:
            return  // no values: only a weight
        }
    }

    /// A list of ``ScenarioLimits/exploreValues`` items.
    private func list(_ value: YAMLValue, _ what: String) throws(ScenarioError) -> [YAMLValue] {
        let items = try value.sequence(what)
        let counts = ScenarioLimits.exploreValues
        guard counts.contains(items.count) else {
            throw value.error("\(what) lists \(counts.lowerBound) to \(counts.upperBound) items")
        }
        return items
    }

    private func weight(_ value: YAMLValue) throws(ScenarioError) -> Double {
        let weight = try value.number("a weight", minimum: 0)
        guard weight <= ScenarioLimits.exploreWeight else {
            throw value.error("a weight is 0 to \(Int(ScenarioLimits.exploreWeight)), found \(weight.shortDescription)")
        }
        return weight
    }

    /// A whole number from 1 to `maximum`.
    private func wholeNumber(_ value: YAMLValue, _ what: String, upTo maximum: Double) throws(ScenarioError) -> Int {
        let number = try value.number(what, minimum: 1)
        guard number == number.rounded(), number <= maximum else {
            throw value.error("\(what) is a whole number from 1 to \(Int(maximum)), found \(number.shortDescription)")
        }
        return Int(number)
    }
}
