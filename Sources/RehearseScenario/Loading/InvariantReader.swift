import RehearseCore

extension StepParser {
    /// The scenario's `invariants:` list: `{name, when?, check}` or `{name, when?, finite: [paths]}`,
    /// every path checked against the scene as steps' paths are.
    func invariants(_ value: YAMLValue, errors: inout ScenarioErrors) throws(ScenarioError) -> [Invariant] {
        let items = try value.sequence("invariants")
        guard items.count <= ScenarioLimits.invariants else {
            throw value.error("\(items.count) invariants; a scenario has at most \(ScenarioLimits.invariants)")
        }
        var names: Set<String> = []
        var invariants: [Invariant] = []
        for item in items {
            let read = errors.keep { () throws(ScenarioError) in
                let invariant = try self.invariant(item)
                guard names.insert(invariant.name).inserted else {
                    throw item.error("invariant '\(invariant.name)' is listed twice")
                }
                return invariant
            }
            if let read { invariants.append(read) }
        }
        return invariants
    }

    private func invariant(_ value: YAMLValue) throws(ScenarioError) -> Invariant {
        let entries = try value.mapping("an invariant", allowed: ScenarioSyntax.invariant)
        guard let nameValue = entries["name"] else { throw value.error("an invariant needs a name") }
        let name = try nameValue.string("an invariant's name")
        guard !name.isEmpty, name.count <= ScenarioLimits.invariantNameLength else {
            throw nameValue.error("an invariant's name is 1 to \(ScenarioLimits.invariantNameLength) characters")
        }
        let guardCondition = try entries["when"].map { value throws(ScenarioError) in try condition(value) }
        let rule: Invariant.Rule
        switch (entries["check"], entries["finite"]) {
        case (let check?, nil):
            rule = .check(try condition(check))
        case (nil, let finite?):
            let items = try finite.sequence("finite")
            guard (1...ScenarioLimits.finitePaths).contains(items.count) else {
                throw finite.error("finite lists 1 to \(ScenarioLimits.finitePaths) paths")
            }
            rule = .finite(
                try items.map { item throws(ScenarioError) in
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
    func condition(_ value: YAMLValue) throws(ScenarioError) -> Condition {
        let text = try value.string("a condition")
        let condition: Condition
        do {
            condition = try Condition(parsing: text)
        } catch {
            throw ScenarioError(error.message, at: location(in: value, text: text, offset: error.offset))
        }
        var sides = [(condition.path.text, try checkPath(condition.path.text, at: value))]
        if let path = condition.operandPath { sides.append((path.text, try checkPath(path.text, at: value))) }
        // An ordering of a path that holds something else than a number (`username.text < 5`)
        // could never hold: refused here, at the path.
        for (path, current) in sides where condition.op.orders {
            guard let current, current.number == nil else { continue }
            let range = text.range(of: path, options: path == sides[0].0 ? [] : .backwards)
            let offset = range.map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
            throw ScenarioError(
                "\(condition.op.rawValue) compares numbers, and \(path) is \(current.typeName)",
                at: location(in: value, text: text, offset: offset))
        }
        return condition
    }

    /// Where the character at `offset` (in Unicode scalars) of the condition `text` written as
    /// `value` is: exact on one line, quoted or not; the scalar's start otherwise.
    private func location(in value: YAMLValue, text: String, offset: Int) -> SourceLocation {
        var location = value.location
        if case .scalar(let scalar) = value.node, !text.contains("\n") {
            location.column += offset + (scalar.style == .plain ? 0 : 1)
        }
        return location
    }
}
