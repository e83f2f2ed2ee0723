import RehearseCore

extension StepParser {
    /// The scenario's `invariants:` list: `{name, when?, check}` or `{name, when?, finite: [paths]}`,
    /// every path checked against the scene as steps' paths are.
    func invariants(_ value: YAMLValue) throws(ScenarioError) -> [Invariant] {
        let items = try value.sequence("invariants")
        guard items.count <= Invariant.maximumCount else {
            throw value.error("\(items.count) invariants; a scenario has at most \(Invariant.maximumCount)")
        }
        var names: Set<String> = []
        return try items.map { item throws(ScenarioError) in
            let invariant = try self.invariant(item)
            guard names.insert(invariant.name).inserted else { throw item.error("invariant '\(invariant.name)' is listed twice") }
            return invariant
        }
    }

    private func invariant(_ value: YAMLValue) throws(ScenarioError) -> Invariant {
        let entries = try value.mapping("an invariant", allowed: ScenarioSyntax.invariant)
        guard let nameValue = entries["name"] else { throw value.error("an invariant needs a name") }
        let name = try nameValue.string("an invariant's name")
        guard !name.isEmpty, name.count <= Invariant.maximumNameLength else {
            throw nameValue.error("an invariant's name is 1 to \(Invariant.maximumNameLength) characters")
        }
        let guardCondition = try entries["when"].map { value throws(ScenarioError) in try condition(value) }
        let rule: Invariant.Rule
        switch (entries["check"], entries["finite"]) {
        case (let check?, nil):
            rule = .check(try condition(check))
        case (nil, let finite?):
            let items = try finite.sequence("finite")
            guard (1...Invariant.maximumFinitePaths).contains(items.count) else {
                throw finite.error("finite lists 1 to \(Invariant.maximumFinitePaths) paths")
            }
            rule = .finite(try items.map { item throws(ScenarioError) in
                let path = try item.string("a path")
                try checkPath(path, at: item)
                return ValuePath(path)
            })
        default:
            throw value.error("an invariant has either check: PATH OP VALUE or finite: [PATH, ...]")
        }
        return Invariant(name: name, when: guardCondition, rule)
    }

    /// `PATH OP OPERAND`, its paths checked; an error points at the character at fault.
    private func condition(_ value: YAMLValue) throws(ScenarioError) -> Condition {
        let text = try value.string("a condition")
        let condition: Condition
        do {
            condition = try Condition(parsing: text)
        } catch {
            var location = value.location
            if case .scalar(let scalar) = value.node, !text.contains("\n") {
                location.column += error.offset + (scalar.style == .plain ? 0 : 1)
            }
            throw ScenarioError(error.message, at: location)
        }
        try checkPath(condition.path.text, at: value)
        if let path = condition.operandPath { try checkPath(path.text, at: value) }
        return condition
    }
}
