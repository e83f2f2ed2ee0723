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

/// A tableau row: `constant + Σ coefficient × symbol`. Cells are kept sorted by symbol id in two
/// parallel arrays (as Kiwi's sorted vector): rows are short, so a binary search and a linear
/// merge beat hashing, and iteration comes in a fixed order.
struct Row {
    var constant: Double
    private(set) var symbols: [Int] = []
    private(set) var coefficients: [Double] = []

    /// Coefficients closer to zero than this are dropped (Kiwi's `nearZero`).
    static let epsilon = 1e-8

    init(constant: Double = 0) {
        self.constant = constant
    }

    var isEmpty: Bool { symbols.isEmpty }

    /// The symbols with their coefficients, by increasing symbol id.
    var cells: Zip2Sequence<[Int], [Double]> { zip(symbols, coefficients) }

    private func position(of symbol: Int) -> (index: Int, found: Bool) {
        var low = 0, high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle] < symbol { low = middle + 1 } else { high = middle }
        }
        return (low, low < symbols.count && symbols[low] == symbol)
    }

    func coefficient(for symbol: Int) -> Double {
        let (index, found) = position(of: symbol)
        return found ? coefficients[index] : 0
    }

    func contains(_ symbol: Int) -> Bool { position(of: symbol).found }

    /// Adds `value` to the constant and returns the new constant.
    mutating func add(_ value: Double) -> Double {
        constant += value
        return constant
    }

    mutating func insert(_ symbol: Int, _ coefficient: Double = 1) {
        let (index, found) = position(of: symbol)
        if found {
            let value = coefficients[index] + coefficient
            if abs(value) < Self.epsilon {
                symbols.remove(at: index)
                coefficients.remove(at: index)
            } else {
                coefficients[index] = value
            }
        } else if abs(coefficient) >= Self.epsilon {
            symbols.insert(symbol, at: index)
            coefficients.insert(coefficient, at: index)
        }
    }

    /// Adds `row × coefficient`, merging the two sorted cell lists.
    mutating func insert(_ row: Row, _ coefficient: Double = 1) {
        constant += row.constant * coefficient
        var mergedSymbols: [Int] = [], mergedCoefficients: [Double] = []
        mergedSymbols.reserveCapacity(symbols.count + row.symbols.count)
        mergedCoefficients.reserveCapacity(symbols.count + row.symbols.count)
        var left = 0, right = 0
        func append(_ symbol: Int, _ value: Double) {
            guard abs(value) >= Self.epsilon else { return }
            mergedSymbols.append(symbol)
            mergedCoefficients.append(value)
        }
        while left < symbols.count || right < row.symbols.count {
            if right == row.symbols.count || (left < symbols.count && symbols[left] < row.symbols[right]) {
                append(symbols[left], coefficients[left])
                left += 1
            } else if left == symbols.count || row.symbols[right] < symbols[left] {
                append(row.symbols[right], row.coefficients[right] * coefficient)
                right += 1
            } else {
                append(symbols[left], coefficients[left] + row.coefficients[right] * coefficient)
                left += 1
                right += 1
            }
        }
        symbols = mergedSymbols
        coefficients = mergedCoefficients
    }

    /// Removes `symbol` and returns its coefficient (0 if absent).
    @discardableResult
    mutating func remove(_ symbol: Int) -> Double {
        let (index, found) = position(of: symbol)
        guard found else { return 0 }
        symbols.remove(at: index)
        return coefficients.remove(at: index)
    }

    mutating func reverseSign() {
        constant = -constant
        for index in coefficients.indices { coefficients[index] = -coefficients[index] }
    }

    /// Rewrites `0 = this row` as `symbol = ...`, dropping `symbol` from the cells.
    mutating func solve(for symbol: Int) {
        let factor = -1 / remove(symbol)
        constant *= factor
        for index in coefficients.indices { coefficients[index] *= factor }
    }

    /// Rewrites `lhs = this row` as `rhs = ...`.
    mutating func solve(for lhs: Int, _ rhs: Int) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row` (which `symbol` equals).
    mutating func substitute(_ symbol: Int, with row: Row) {
        let coefficient = remove(symbol)
        if coefficient != 0 { insert(row, coefficient) }
    }
}
