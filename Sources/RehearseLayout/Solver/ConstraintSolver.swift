/// An incremental Cassowary solver (Badros, Borning and Stuckey), following the Kiwi solver:
/// constraints are added and removed without rebuilding, edit variables take suggested values,
/// and the dual simplex restores feasibility after each change. Pivot ties are broken by symbol
/// age, so the same calls always give the same solution.
public final class ConstraintSolver {
    private struct Tag {
        var marker: Int
        var other: Int?
    }

    private struct Edit {
        let tag: Tag
        let constraint: Constraint
        var constant: Double
    }

    private var kinds: [SymbolKind] = []
    private var rows: [Int: Row] = [:]
    private var constraints: [Constraint: Tag] = [:]
    private var variables: [Variable: Int] = [:]
    private var edits: [Variable: Edit] = [:]
    private var infeasibleRows: [Int] = []
    private var objective = Row()
    private var artificial: Row?
    private var insertionOrder: [Constraint: Int] = [:]
    private var nextInsertion = 0

    public init() {}

    /// The number of constraints in the system.
    public var constraintCount: Int { constraints.count }

    /// Whether `constraint` is in the system.
    public func contains(_ constraint: Constraint) -> Bool { constraints[constraint] != nil }

    // MARK: Constraints

    /// Adds `constraint`, refusing a duplicate or a required constraint that cannot hold; a refused
    /// constraint leaves the system as it was.
    public func add(_ constraint: Constraint) throws(SolverError) {
        guard constraints[constraint] == nil else { throw .duplicateConstraint(constraint.description) }
        do {
            try insert(constraint)
            insertionOrder[constraint] = nextInsertion
            nextInsertion += 1
        } catch {
            rebuild()
            throw error
        }
    }

    /// Starts over from the constraints and edit values that were accepted, in the order they came.
    /// Only a refused constraint needs this (the tableau may have pivoted before the refusal), so
    /// successful changes never pay for a copy.
    private func rebuild() {
        let accepted = insertionOrder.sorted { $0.value < $1.value }.map(\.key)
        let savedEdits = edits
        (kinds, rows, constraints, variables, edits, infeasibleRows, objective, artificial) =
            ([], [:], [:], [:], [:], [], Row(), nil)
        for constraint in accepted { try? insert(constraint) }
        for (variable, edit) in savedEdits {
            guard let tag = constraints[edit.constraint] else { continue }
            edits[variable] = Edit(tag: tag, constraint: edit.constraint, constant: 0)
            try? suggestValue(edit.constant, for: variable)
        }
    }

    private func insert(_ constraint: Constraint) throws(SolverError) {
        var (row, tag) = makeRow(for: constraint)
        var subject = chooseSubject(row, tag)
        if subject == nil, row.symbols.allSatisfy({ kinds[$0] == .dummy }) {
            guard abs(row.constant) < Row.epsilon else { throw .unsatisfiableConstraint(constraint.description) }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            rows[subject] = row
        } else if try !addWithArtificialVariable(row) {
            throw .unsatisfiableConstraint(constraint.description)
        }
        constraints[constraint] = tag
        try optimize(objective: nil)
    }

    /// Removes `constraint`.
    public func remove(_ constraint: Constraint) throws(SolverError) {
        guard let tag = constraints.removeValue(forKey: constraint) else {
            throw .unknownConstraint(constraint.description)
        }
        insertionOrder[constraint] = nil
        if kinds[tag.marker] == .error { removeMarkerEffects(tag.marker, strength: constraint.strength.value) }
        if let other = tag.other, kinds[other] == .error { removeMarkerEffects(other, strength: constraint.strength.value) }
        if rows.removeValue(forKey: tag.marker) == nil {
            guard let leaving = markerLeavingRow(tag.marker), var row = rows.removeValue(forKey: leaving) else {
                throw .internalError("no row to remove \(constraint) from")
            }
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        try optimize(objective: nil)
    }

    // MARK: Edit variables

    /// Makes `variable` take suggested values with `strength` (which cannot be required).
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable(variable.name) }
        guard strength < .required else { throw .requiredEditVariable(variable.name) }
        let constraint = Constraint(Expression(variable), .equal, Expression(), strength: strength, origin: "edit \(variable.name)")
        try add(constraint)
        guard let tag = constraints[constraint] else { throw .internalError("edit constraint vanished") }
        edits[variable] = Edit(tag: tag, constraint: constraint, constant: 0)
    }

    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable(variable.name) }
        try remove(edit.constraint)
    }

    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

    /// Suggests a value for an edit variable and re-solves from the current solution.
    public func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard var edit = edits[variable] else { throw .unknownEditVariable(variable.name) }
        let delta = value - edit.constant
        edit.constant = value
        edits[variable] = edit
        if var row = rows[edit.tag.marker] {
            if row.add(-delta) < 0 { infeasibleRows.append(edit.tag.marker) }
            rows[edit.tag.marker] = row
        } else if let other = edit.tag.other, var row = rows[other] {
            if row.add(delta) < 0 { infeasibleRows.append(other) }
            rows[other] = row
        } else {
            var infeasible: [Int] = []
            var index = rows.values.startIndex
            while index != rows.values.endIndex {
                let coefficient = rows.values[index].coefficient(for: edit.tag.marker)
                if coefficient != 0, rows.values[index].add(delta * coefficient) < 0, kinds[rows.keys[index]] != .external {
                    infeasible.append(rows.keys[index])
                }
                rows.values.formIndex(after: &index)
            }
            infeasibleRows += infeasible.sorted()
        }
        try dualOptimize()
    }

    /// Writes the solution into the variables' values.
    public func updateVariables() {
        for (variable, symbol) in variables { variable.value = rows[symbol]?.constant ?? 0 }
    }

    // MARK: Tableau

    private func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        return kinds.count - 1
    }

    private func symbol(for variable: Variable) -> Int {
        if let symbol = variables[variable] { return symbol }
        let symbol = newSymbol(.external)
        variables[variable] = symbol
        return symbol
    }

    private func makeRow(for constraint: Constraint) -> (Row, Tag) {
        let expression = constraint.expression
        var row = Row(constant: expression.constant)
        for term in expression.terms where abs(term.coefficient) >= Row.epsilon {
            let symbol = symbol(for: term.variable)
            if let basic = rows[symbol] { row.insert(basic, term.coefficient) } else { row.insert(symbol, term.coefficient) }
        }
        let strength = constraint.strength.value
        let required = constraint.strength >= .required
        var tag: Tag
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign = constraint.relation == .lessThanOrEqual ? 1.0 : -1.0
            let slack = newSymbol(.slack)
            tag = Tag(marker: slack)
            row.insert(slack, sign)
            if !required {
                let error = newSymbol(.error)
                tag.other = error
                row.insert(error, -sign)
                objective.insert(error, strength)
            }
        case .equal:
            if required {
                let dummy = newSymbol(.dummy)
                tag = Tag(marker: dummy)
                row.insert(dummy)
            } else {
                let plus = newSymbol(.error), minus = newSymbol(.error)
                tag = Tag(marker: plus, other: minus)
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength)
                objective.insert(minus, strength)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Int? {
        if let external = row.symbols.first(where: { kinds[$0] == .external }) { return external }
        for symbol in [tag.marker, tag.other].compactMap({ $0 })
        where (kinds[symbol] == .slack || kinds[symbol] == .error) && row.coefficient(for: symbol) < 0 {
            return symbol
        }
        return nil
    }

    private func addWithArtificialVariable(_ row: Row) throws(SolverError) -> Bool {
        let artificialSymbol = newSymbol(.slack)
        rows[artificialSymbol] = row
        artificial = row
        try optimize(objective: artificialSymbol)
        let success = abs(artificial?.constant ?? 0) < Row.epsilon
        artificial = nil
        if var basic = rows.removeValue(forKey: artificialSymbol) {
            if basic.isEmpty { return success }
            guard let entering = basic.symbols.first(where: { kinds[$0] == .slack || kinds[$0] == .error }) else {
                return false
            }
            basic.solve(for: artificialSymbol, entering)
            substitute(entering, with: basic)
            rows[entering] = basic
        }
        var index = rows.values.startIndex
        while index != rows.values.endIndex {
            rows.values[index].remove(artificialSymbol)
            rows.values.formIndex(after: &index)
        }
        objective.remove(artificialSymbol)
        return success
    }

    private func substitute(_ symbol: Int, with row: Row) {
        var infeasible: [Int] = []
        var index = rows.values.startIndex
        while index != rows.values.endIndex {
            if rows.values[index].contains(symbol) {
                rows.values[index].substitute(symbol, with: row)
                let key = rows.keys[index]
                if kinds[key] != .external, rows.values[index].constant < 0 { infeasible.append(key) }
            }
            rows.values.formIndex(after: &index)
        }
        infeasibleRows += infeasible.sorted()
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Primal simplex on the objective (or on the artificial row while one is being removed).
    private func optimize(objective artificialSymbol: Int?) throws(SolverError) {
        while true {
            let target = artificialSymbol == nil ? objective : (artificial ?? objective)
            guard let entering = target.cells.first(where: { kinds[$0.0] != .dummy && $0.1 < 0 })?.0 else { return }
            guard let leaving = leavingRow(for: entering), var row = rows.removeValue(forKey: leaving) else {
                throw .internalError("the objective is unbounded")
            }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            rows[entering] = row
        }
    }

    private func dualOptimize() throws(SolverError) {
        while let leaving = infeasibleRows.popLast() {
            guard var row = rows[leaving], row.constant < 0 else { continue }
            var best: (ratio: Double, symbol: Int)?
            for (symbol, coefficient) in row.cells where coefficient > 0 && kinds[symbol] != .dummy {
                let ratio = objective.coefficient(for: symbol) / coefficient
                if best.map({ ratio < $0.ratio }) ?? true { best = (ratio, symbol) }
            }
            guard let entering = best?.symbol else { throw .internalError("dual optimize failed") }
            rows[leaving] = nil
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            rows[entering] = row
        }
    }

    private func leavingRow(for entering: Int) -> Int? {
        var best: (ratio: Double, symbol: Int)?
        var index = rows.values.startIndex
        while index != rows.values.endIndex {
            let symbol = rows.keys[index]
            let coefficient = rows.values[index].coefficient(for: entering)
            if coefficient < 0, kinds[symbol] != .external {
                let ratio = -rows.values[index].constant / coefficient
                if best.map({ (ratio, symbol) < ($0.ratio, $0.symbol) }) ?? true { best = (ratio, symbol) }
            }
            rows.values.formIndex(after: &index)
        }
        return best?.symbol
    }

    private func markerLeavingRow(_ marker: Int) -> Int? {
        var first: (ratio: Double, symbol: Int)?, second: (ratio: Double, symbol: Int)?, third: Int?
        for (symbol, row) in rows {
            let coefficient = row.coefficient(for: marker)
            guard coefficient != 0 else { continue }
            if kinds[symbol] == .external {
                third = min(third ?? symbol, symbol)
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if first == nil || (ratio, symbol) < (first?.ratio ?? 0, first?.symbol ?? 0) { first = (ratio, symbol) }
            } else {
                let ratio = row.constant / coefficient
                if second == nil || (ratio, symbol) < (second?.ratio ?? 0, second?.symbol ?? 0) { second = (ratio, symbol) }
            }
        }
        return first?.symbol ?? second?.symbol ?? third
    }

    private func removeMarkerEffects(_ marker: Int, strength: Double) {
        if let row = rows[marker] { objective.insert(row, -strength) } else { objective.insert(marker, -strength) }
    }
}
