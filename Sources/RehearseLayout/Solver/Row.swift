/// The kinds of symbols in the tableau, as Kiwi has them.
enum SymbolKind {
    /// Stands for a user variable.
    case external
    /// The slack of an inequality.
    case slack
    /// The error of a non-required constraint (minimised by the objective).
    case error
    /// Marks a required equality; never pivots.
    case dummy
}

/// A tableau row: `constant + Σ coefficient × symbol`, symbols by id.
struct Row {
    var constant: Double
    var cells: [Int: Double] = [:]

    /// Coefficients closer to zero than this are dropped (Kiwi's `nearZero`).
    static let epsilon = 1e-8

    init(constant: Double = 0) {
        self.constant = constant
    }

    func coefficient(for symbol: Int) -> Double { cells[symbol] ?? 0 }

    /// Adds `value` to the constant and returns the new constant.
    mutating func add(_ value: Double) -> Double {
        constant += value
        return constant
    }

    mutating func insert(_ symbol: Int, _ coefficient: Double = 1) {
        let value = (cells[symbol] ?? 0) + coefficient
        cells[symbol] = abs(value) < Self.epsilon ? nil : value
    }

    mutating func insert(_ row: Row, _ coefficient: Double = 1) {
        constant += row.constant * coefficient
        for (symbol, value) in row.cells { insert(symbol, value * coefficient) }
    }

    mutating func remove(_ symbol: Int) {
        cells[symbol] = nil
    }

    mutating func reverseSign() {
        constant = -constant
        for symbol in cells.keys { cells[symbol] = -(cells[symbol] ?? 0) }
    }

    /// Rewrites `0 = this row` as `symbol = ...`, dropping `symbol` from the cells.
    mutating func solve(for symbol: Int) {
        let factor = -1 / (cells.removeValue(forKey: symbol) ?? 1)
        constant *= factor
        for key in cells.keys { cells[key] = (cells[key] ?? 0) * factor }
    }

    /// Rewrites `lhs = this row` as `rhs = ...`.
    mutating func solve(for lhs: Int, _ rhs: Int) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row` (which `symbol` equals).
    mutating func substitute(_ symbol: Int, with row: Row) {
        guard let coefficient = cells.removeValue(forKey: symbol) else { return }
        insert(row, coefficient)
    }
}
