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

/// One term of a row: a symbol (a small integer, its index in the tableau) and its coefficient.
struct Cell {
    var symbol: Int
    var coefficient: Double
}

/// A tableau row: `constant + Σ coefficient × symbol`, as a flat sparse vector: one array of cells
/// sorted by symbol (as Kiwi's sorted vector), so a binary search finds a symbol and a linear merge
/// adds two rows, and iteration comes in a fixed order. Only the first `count` cells are the row;
/// the storage behind them is reused, and a merge writes into a ``RowScratch`` that then trades
/// places with it, so a pivot allocates nothing once the buffers have grown. A 64-bit summary of
/// the symbols (bit `symbol % 64`, a superset: bits are set as symbols come and cleared only when
/// a merge writes the row anew) answers most "is this symbol here?" questions of a tableau scan
/// without a search.
struct Row {
    var constant: Double
    private(set) var count = 0
    private var storage: [Cell] = []
    private var summary: UInt64 = 0

    /// Coefficients closer to zero than this are dropped (Kiwi's `nearZero`).
    static let epsilon = 1e-8

    init(constant: Double = 0) {
        self.constant = constant
    }

    var isEmpty: Bool { count == 0 }

    /// The cells, by increasing symbol id.
    var cells: ArraySlice<Cell> { storage[..<count] }

    private func position(of symbol: Int) -> (index: Int, found: Bool) {
        storage.withUnsafeBufferPointer { cells in
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) >> 1
                if cells[middle].symbol < symbol { low = middle + 1 } else { high = middle }
            }
            return (low, low < count && cells[low].symbol == symbol)
        }
    }

    private static func bit(_ symbol: Int) -> UInt64 { 1 &<< UInt64(symbol & 63) }

    func coefficient(for symbol: Int) -> Double {
        guard mayContain(symbol) else { return 0 }
        let (index, found) = position(of: symbol)
        return found ? storage[index].coefficient : 0
    }

    /// False only if `symbol` is not in the row (a check of the summary, no search).
    func mayContain(_ symbol: Int) -> Bool { summary & Self.bit(symbol) != 0 }

    /// Adds `value` to the constant and returns the new constant.
    mutating func add(_ value: Double) -> Double {
        constant += value
        return constant
    }

    mutating func insert(_ symbol: Int, _ coefficient: Double = 1) {
        let (index, found) = position(of: symbol)
        if found {
            let value = storage[index].coefficient + coefficient
            if abs(value) < Self.epsilon { removeCell(at: index) } else { storage[index].coefficient = value }
        } else if abs(coefficient) >= Self.epsilon {
            if count == storage.count { storage.append(Cell(symbol: 0, coefficient: 0)) }
            storage.withUnsafeMutableBufferPointer { cells in
                var slot = count
                while slot > index {
                    cells[slot] = cells[slot - 1]
                    slot -= 1
                }
                cells[index] = Cell(symbol: symbol, coefficient: coefficient)
            }
            count += 1
            summary |= Self.bit(symbol)
        }
    }

    private mutating func removeCell(at index: Int) {
        storage.withUnsafeMutableBufferPointer { cells in
            for slot in index..<(count - 1) { cells[slot] = cells[slot + 1] }
        }
        count -= 1
    }

    /// Adds `row × coefficient`, merging the two sorted cell lists into `scratch`, whose storage
    /// then becomes this row's (and this row's old storage the scratch).
    mutating func insert(_ row: Row, _ coefficient: Double = 1, scratch: inout RowScratch) {
        constant += row.constant * coefficient
        let needed = count + row.count
        if scratch.storage.count < needed {
            scratch.storage.append(
                contentsOf: repeatElement(Cell(symbol: 0, coefficient: 0), count: needed - scratch.storage.count))
        }
        let leftCount = count
        let rightCount = row.count
        var merged: UInt64 = 0
        count = storage.withUnsafeBufferPointer { own in
            row.storage.withUnsafeBufferPointer { other in
                scratch.storage.withUnsafeMutableBufferPointer { cells in
                    var left = 0
                    var right = 0
                    var written = 0
                    func append(_ symbol: Int, _ value: Double) {
                        guard abs(value) >= Self.epsilon else { return }
                        cells[written] = Cell(symbol: symbol, coefficient: value)
                        merged |= Self.bit(symbol)
                        written += 1
                    }
                    while left < leftCount || right < rightCount {
                        if right == rightCount || (left < leftCount && own[left].symbol < other[right].symbol) {
                            append(own[left].symbol, own[left].coefficient)
                            left += 1
                        } else if left == leftCount || other[right].symbol < own[left].symbol {
                            append(other[right].symbol, other[right].coefficient * coefficient)
                            right += 1
                        } else {
                            append(own[left].symbol, own[left].coefficient + other[right].coefficient * coefficient)
                            left += 1
                            right += 1
                        }
                    }
                    return written
                }
            }
        }
        summary = merged
        swap(&storage, &scratch.storage)
    }

    /// Removes `symbol` and returns its coefficient (0 if absent).
    @discardableResult
    mutating func remove(_ symbol: Int) -> Double {
        guard mayContain(symbol) else { return 0 }
        let (index, found) = position(of: symbol)
        guard found else { return 0 }
        let coefficient = storage[index].coefficient
        removeCell(at: index)
        return coefficient
    }

    /// Negates the constant and every coefficient.
    mutating func reverseSign() {
        constant = -constant
        let count = count
        storage.withUnsafeMutableBufferPointer { cells in
            for index in 0..<count { cells[index].coefficient = -cells[index].coefficient }
        }
    }

    private mutating func scale(by factor: Double) {
        let count = count
        storage.withUnsafeMutableBufferPointer { cells in
            for index in 0..<count { cells[index].coefficient *= factor }
        }
    }

    /// Rewrites `0 = this row` as `symbol = ...`, dropping `symbol` from the cells.
    mutating func solve(for symbol: Int) {
        let factor = -1 / remove(symbol)
        constant *= factor
        scale(by: factor)
    }

    /// Rewrites `lhs = this row` as `rhs = ...`.
    mutating func solve(for lhs: Int, _ rhs: Int) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row` (which `symbol` equals); returns whether `symbol` was there.
    @discardableResult
    mutating func substitute(_ symbol: Int, with row: Row, scratch: inout RowScratch) -> Bool {
        guard mayContain(symbol) else { return false }
        let (index, found) = position(of: symbol)
        guard found else { return false }
        let coefficient = storage[index].coefficient
        removeCell(at: index)
        if coefficient != 0 { insert(row, coefficient, scratch: &scratch) }
        return true
    }
}

/// The buffer a merge writes into; one per solver, traded with each merged row's old storage.
struct RowScratch {
    fileprivate var storage: [Cell] = []
}
