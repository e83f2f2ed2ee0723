/// The invariants of one simulation, checked after every delivery: an invariant that stops holding
/// publishes `invariant.failed` once, and again only after it has held in between.
final class InvariantMonitor {
    private struct Entry {
        let name: String
        let owner: String
        let evaluate: () -> InvariantOutcome
        var isBroken = false
    }

    private var entries: [Entry] = []
    /// Set while checking, so that the `invariant.failed` events published then do not check again.
    private var isChecking = false

    var count: Int { entries.count }
    /// What checking every invariant once costs, in paths read (``add(name:owner:weight:evaluate:)``).
    private(set) var weight = 0

    /// The name and owner of every invariant, in the order they were added.
    var declared: [(name: String, owner: String)] { entries.map { ($0.name, $0.owner) } }

    /// Adds an invariant whose check reads `weight` paths (a plugin's own test counts one).
    func add(name: String, owner: String, weight: Int = 1, evaluate: @escaping () -> InvariantOutcome) {
        entries.append(Entry(name: name, owner: owner, evaluate: evaluate))
        self.weight += max(weight, 1)
    }

    /// Checks every invariant and publishes a failure for each one that has just stopped holding.
    func check(on bus: EventBus) {
        guard !isChecking else { return }
        isChecking = true
        defer { isChecking = false }
        for index in entries.indices {
            switch entries[index].evaluate() {
            case .holds:
                entries[index].isBroken = false
            case .broken(let actual, let expected):
                guard !entries[index].isBroken else { continue }
                entries[index].isBroken = true
                let failure = InvariantFailure(
                    name: entries[index].name, owner: entries[index].owner,
                    actual: actual, expected: expected)
                bus.publish(.invariantFailed(failure), source: "invariants")
            }
        }
    }
}
