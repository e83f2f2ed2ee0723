import Synchronization

/// A node id held as a number, so that a value holding one (a ``PropertyHandle``) is plain bytes:
/// copying it, as a plugin's `for handle in handles` does on every frame, counts no reference.
/// Each distinct id is kept once for the life of the process, in a table shared by every
/// simulation (only ids that a property handle was made for: a scenario's, a plugin's, a remote
/// plugin's reads); reading the id back takes the table's lock, which a read does only after its
/// node was removed (``PropertyHandle/node`` does too).
struct InternedNodeID: Hashable, Sendable {
    private let number: UInt32

    /// The number of `id`, taken from the table or added to it.
    init(_ id: String) {
        number = Self.table.withLock { table in
            if let number = table.numbers[id] { return number }
            let number = UInt32(table.ids.count)
            table.ids.append(id)
            table.numbers[id] = number
            return number
        }
    }

    /// The id this number stands for.
    var id: String { Self.table.withLock { $0.ids[Int(number)] } }

    private struct Table {
        var ids: [String] = []
        var numbers: [String: UInt32] = [:]
    }

    private static let table = Mutex(Table())
}
