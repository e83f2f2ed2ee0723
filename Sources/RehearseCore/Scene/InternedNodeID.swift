/// A node id held as a number in its scene's table (``InternedNodeIDs``), so that a value holding
/// one (a ``PropertyHandle``) is plain bytes: copying it, as a plugin's `for handle in handles`
/// does on every frame, counts no reference.
struct InternedNodeID: Hashable, Sendable {
    fileprivate let number: UInt32
}

/// A scene's table of the ids that its property handles were made for, each kept once for as
/// long as the scene lives (and freed with it): only ids of nodes the scene had when a handle was
/// made for them.
struct InternedNodeIDs {
    private var ids: [String] = []
    private var numbers: [String: InternedNodeID] = [:]

    /// The number of `id`, taken from the table or added to it.
    mutating func number(of id: String) -> InternedNodeID {
        if let number = numbers[id] { return number }
        let number = InternedNodeID(number: UInt32(ids.count))
        ids.append(id)
        numbers[id] = number
        return number
    }

    /// The id `interned` stands for.
    subscript(interned: InternedNodeID) -> String { ids[Int(interned.number)] }
}
