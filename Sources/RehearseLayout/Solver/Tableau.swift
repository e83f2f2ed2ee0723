/// The symbols that stand for one constraint in the tableau: its marker (slack, dummy or first
/// error) and, for a non-required constraint, its other error.
struct Tag {
    var marker: Int
    var other: Int?
}

/// The simplex tableau behind ``ConstraintSolver``, after Kiwi's `SolverImpl`: rows by basic symbol,
/// the objective, and the primal and dual simplex. It is a value owned by one solver, so its rows
/// are mutated in place without exclusivity checks or hashing: a symbol is an index, and each
/// symbol's row (if it is basic) is found through `slots`. Rows sit in a dense array in no
/// particular order; nothing depends on that order (infeasible rows are sorted, ties are broken
/// by symbol), so the same calls always give the same solution.
struct Tableau {
    private var kinds: [SymbolKind] = []
    /// For each symbol, the index of its row in `rows`, or -1 if it is not basic.
    private var slots: [Int] = []
    private var rows: [Row] = []
    /// The basic symbol of each row in `rows`.
    private var basics: [Int] = []
    private var objective = Row()
    private var artificial: Row?
    private var infeasibleRows: [Int] = []
    private var scratch = RowScratch()
    private var variables: [Variable: Int] = [:]
    /// The external symbols with their variables, in the order they came.
    private var externals: [(variable: Variable, symbol: Int)] = []

    // MARK: Constraints

    /// Adds `constraint` and returns its tag; on a throw the tableau may have pivoted and must be
    /// rebuilt.
    mutating func insert(_ constraint: Constraint) throws(SolverError) -> Tag {
        var (row, tag) = makeRow(for: constraint)
        var subject = chooseSubject(row, tag)
        if subject == nil, row.cells.allSatisfy({ kinds[$0.symbol] == .dummy }) {
            guard abs(row.constant) < Row.epsilon else { throw .unsatisfiableConstraint(constraint.description) }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            setRow(row, for: subject)
        } else if try !addWithArtificialVariable(row) {
            throw .unsatisfiableConstraint(constraint.description)
        }
        try optimize(artificial: false)
        return tag
    }

    /// Removes `constraint`, tagged `tag`, re-optimising from the current basis.
    mutating func remove(_ constraint: Constraint, tag: Tag) throws(SolverError) {
        let strength = constraint.strength.value
        if kinds[tag.marker] == .error { removeMarkerEffects(tag.marker, strength: strength) }
        if let other = tag.other, kinds[other] == .error { removeMarkerEffects(other, strength: strength) }
        if takeRow(for: tag.marker) == nil {
            guard let leaving = markerLeavingRow(tag.marker), var row = takeRow(for: leaving) else {
                throw .internalError("no row to remove \(constraint) from")
            }
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        try optimize(artificial: false)
    }

    /// Moves the constant of the edit constraint tagged `tag` by `delta` and re-solves with the
    /// dual simplex from the current basis.
    mutating func suggest(_ delta: Double, tag: Tag) throws(SolverError) {
        let marker = tag.marker
        if slots[marker] >= 0 {
            if rows[slots[marker]].add(-delta) < 0 { infeasibleRows.append(marker) }
        } else if let other = tag.other, slots[other] >= 0 {
            if rows[slots[other]].add(delta) < 0 { infeasibleRows.append(other) }
        } else {
            var infeasible: [Int] = []
            for slot in rows.indices {
                let coefficient = rows[slot].coefficient(for: marker)
                if coefficient != 0, rows[slot].add(delta * coefficient) < 0, kinds[basics[slot]] != .external {
                    infeasible.append(basics[slot])
                }
            }
            infeasibleRows += infeasible.sorted()
        }
        try dualOptimize()
    }

    /// Writes the solution into the variables' values.
    func updateVariables() {
        for (variable, symbol) in externals { variable.value = value(of: symbol) }
    }

    /// The solved value of `variable`, 0 if the tableau does not have it.
    func value(of variable: Variable) -> Double {
        variables[variable].map(value(of:)) ?? 0
    }

    // MARK: Rows

    private func value(of symbol: Int) -> Double {
        let slot = slots[symbol]
        return slot < 0 ? 0 : rows[slot].constant
    }

    private mutating func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        slots.append(-1)
        return kinds.count - 1
    }

    private mutating func symbol(for variable: Variable) -> Int {
        if let symbol = variables[variable] { return symbol }
        let symbol = newSymbol(.external)
        variables[variable] = symbol
        externals.append((variable, symbol))
        return symbol
    }

    /// Makes `row` the row of the (non-basic) `symbol`.
    private mutating func setRow(_ row: Row, for symbol: Int) {
        slots[symbol] = rows.count
        rows.append(row)
        basics.append(symbol)
    }

    /// Takes the row of `symbol` out of the tableau (the last row fills its place).
    private mutating func takeRow(for symbol: Int) -> Row? {
        let slot = slots[symbol]
        guard slot >= 0 else { return nil }
        slots[symbol] = -1
        let last = rows.count - 1
        if slot != last {
            rows.swapAt(slot, last)
            basics[slot] = basics[last]
            slots[basics[slot]] = slot
        }
        basics.removeLast()
        return rows.removeLast()
    }

    private mutating func makeRow(for constraint: Constraint) -> (Row, Tag) {
        let expression = constraint.expression
        var row = Row(constant: expression.constant)
        for term in expression.terms where abs(term.coefficient) >= Row.epsilon {
            let symbol = symbol(for: term.variable)
            let slot = slots[symbol]
            if slot >= 0 {
                row.insert(rows[slot], term.coefficient, scratch: &scratch)
            } else {
                row.insert(symbol, term.coefficient)
            }
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
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
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
        if let external = row.cells.first(where: { kinds[$0.symbol] == .external }) { return external.symbol }
        for symbol in [tag.marker, tag.other].compactMap({ $0 })
        where (kinds[symbol] == .slack || kinds[symbol] == .error) && row.coefficient(for: symbol) < 0 {
            return symbol
        }
        return nil
    }

    private mutating func addWithArtificialVariable(_ row: Row) throws(SolverError) -> Bool {
        let artificialSymbol = newSymbol(.slack)
        setRow(row, for: artificialSymbol)
        artificial = row
        try optimize(artificial: true)
        let success = abs(artificial?.constant ?? 0) < Row.epsilon
        artificial = nil
        if var basic = takeRow(for: artificialSymbol) {
            if basic.isEmpty { return success }
            guard let entering = basic.cells.first(where: { kinds[$0.symbol] == .slack || kinds[$0.symbol] == .error })?.symbol
            else {
                return false
            }
            basic.solve(for: artificialSymbol, entering)
            substitute(entering, with: basic)
            setRow(basic, for: entering)
        }
        for slot in rows.indices where rows[slot].mayContain(artificialSymbol) { rows[slot].remove(artificialSymbol) }
        objective.remove(artificialSymbol)
        return success
    }

    /// Replaces `symbol` by `row` in every row, the objective and the artificial row; rows left
    /// with a negative constant are queued, by symbol, for the dual simplex.
    private mutating func substitute(_ symbol: Int, with row: Row) {
        var infeasible: [Int] = []
        for slot in rows.indices
        where rows[slot].mayContain(symbol) && rows[slot].substitute(symbol, with: row, scratch: &scratch) {
            let basic = basics[slot]
            if kinds[basic] != .external, rows[slot].constant < 0 { infeasible.append(basic) }
        }
        infeasibleRows += infeasible.sorted()
        objective.substitute(symbol, with: row, scratch: &scratch)
        artificial?.substitute(symbol, with: row, scratch: &scratch)
    }

    // MARK: Simplex

    /// The first symbol, by id, that can enter the basis to decrease `row`.
    private func entering(_ row: Row) -> Int? {
        row.cells.first(where: { kinds[$0.symbol] != .dummy && $0.coefficient < 0 })?.symbol
    }

    /// Primal simplex on the objective (or on the artificial row while one is being removed).
    private mutating func optimize(artificial useArtificial: Bool) throws(SolverError) {
        while let entering = useArtificial ? entering(artificial ?? objective) : entering(objective) {
            guard let leaving = leavingRow(for: entering), var row = takeRow(for: leaving) else {
                throw .internalError("the objective is unbounded")
            }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(row, for: entering)
        }
    }

    private mutating func dualOptimize() throws(SolverError) {
        while let leaving = infeasibleRows.popLast() {
            let slot = slots[leaving]
            guard slot >= 0, rows[slot].constant < 0 else { continue }
            var best: (ratio: Double, symbol: Int)?
            for cell in rows[slot].cells where cell.coefficient > 0 && kinds[cell.symbol] != .dummy {
                let ratio = objective.coefficient(for: cell.symbol) / cell.coefficient
                if best.map({ ratio < $0.ratio }) ?? true { best = (ratio, cell.symbol) }
            }
            guard let entering = best?.symbol, var row = takeRow(for: leaving) else {
                throw .internalError("dual optimize failed")
            }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(row, for: entering)
        }
    }

    private func leavingRow(for entering: Int) -> Int? {
        var best: (ratio: Double, symbol: Int)?
        for slot in rows.indices {
            let coefficient = rows[slot].coefficient(for: entering)
            let symbol = basics[slot]
            if coefficient < 0, kinds[symbol] != .external {
                let ratio = -rows[slot].constant / coefficient
                if best.map({ (ratio, symbol) < ($0.ratio, $0.symbol) }) ?? true { best = (ratio, symbol) }
            }
        }
        return best?.symbol
    }

    private func markerLeavingRow(_ marker: Int) -> Int? {
        var first: (ratio: Double, symbol: Int)?
        var second: (ratio: Double, symbol: Int)?
        var third: Int?
        for slot in rows.indices {
            let coefficient = rows[slot].coefficient(for: marker)
            guard coefficient != 0 else { continue }
            let symbol = basics[slot]
            let constant = rows[slot].constant
            if kinds[symbol] == .external {
                third = min(third ?? symbol, symbol)
            } else if coefficient < 0 {
                let ratio = -constant / coefficient
                if first == nil || (ratio, symbol) < (first?.ratio ?? 0, first?.symbol ?? 0) { first = (ratio, symbol) }
            } else {
                let ratio = constant / coefficient
                if second == nil || (ratio, symbol) < (second?.ratio ?? 0, second?.symbol ?? 0) { second = (ratio, symbol) }
            }
        }
        return first?.symbol ?? second?.symbol ?? third
    }

    private mutating func removeMarkerEffects(_ marker: Int, strength: Double) {
        let slot = slots[marker]
        if slot >= 0 { objective.insert(rows[slot], -strength, scratch: &scratch) } else { objective.insert(marker, -strength) }
    }
}
