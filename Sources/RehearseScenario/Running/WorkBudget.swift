import RehearseCore

/// A cap on the simulated work of one run, or of one `rehearse explore` sequence: the events its
/// bus delivers, and the invariant checks they cost (every invariant is checked after every
/// delivery). Every documented limit of a scenario file can still describe work of months (a
/// 1,000 Hz stream for a million seconds under a thousand invariants); the budget stops such a run
/// at its first slice past the cap, with an error naming the budget and the option that raises it.
public struct WorkBudget: Hashable, Sendable {
    /// The most events one run may deliver (`--max-events`).
    public var maximumEvents: Int
    /// The most invariant checks one run may make, events × the paths its invariants read (a
    /// condition one or two, a `finite` rule one a path: ``Simulation/invariantWeight``)
    /// (`--max-invariant-checks`).
    public var maximumInvariantChecks: Int
    /// The most nodes one run's node queries and accessibility checks may read (`{text: "Log in"}`
    /// reads every node of the scene, and the matches' ancestors to put several in reading order:
    /// ``NodeQuery/resolve(in:ranking:read:)``; a check, every node) (`--max-queried-nodes`).
    public var maximumQueriedNodes: Int

    /// The events of one run unless told otherwise: far more than any shipped scenario delivers
    /// (the busiest, under 1,000), and a release build's worst case (a 1,000 Hz display ticking a
    /// plugin, 2.9 µs an event) ends within about 6 s of CPU.
    public static let defaultEvents = 2_000_000
    /// The invariant checks of one run unless told otherwise, in paths read: 4 to 6 s of CPU in a
    /// release build at the costliest (a condition, 145 ns; a `finite` path, 56 ns), so that with
    /// the events' budget any valid file ends within about 10 s.
    public static let defaultInvariantChecks = 30_000_000
    /// The nodes one run's queries may read unless told otherwise: a query step on a 100-node scene
    /// reads about 100, so 10,000 of them use a hundredth of it; a file of 10,000 steps each
    /// ordering the matches of a 10,000-node scene would read a billion nodes (minutes of CPU).
    public static let defaultQueriedNodes = 10_000_000

    /// A budget of `maximumEvents` events, `maximumInvariantChecks` invariant checks and
    /// `maximumQueriedNodes` nodes read by queries.
    public init(
        maximumEvents: Int = defaultEvents, maximumInvariantChecks: Int = defaultInvariantChecks,
        maximumQueriedNodes: Int = defaultQueriedNodes
    ) {
        self.maximumEvents = maximumEvents
        self.maximumInvariantChecks = maximumInvariantChecks
        self.maximumQueriedNodes = maximumQueriedNodes
    }
}

/// A run stopped because it spent its ``WorkBudget``.
public struct BudgetExceeded: Error, Hashable, Sendable, CustomStringConvertible {
    /// What ran out: `events` or `invariant checks`.
    public var what: String
    /// The cap.
    public var limit: Int
    /// The command-line option that raises it.
    public var option: String
    /// The simulated time the run had reached.
    public var time: VirtualTime
    /// The explore sequence's seed, when it was one (`--seed S --runs 1` reruns it).
    public var seed: UInt64?

    /// What ran out, when, and how to raise it.
    public var description: String {
        "the run needed more than \(limit) \(what) by \(time) s simulated\(seed.map { " (seed \($0))" } ?? ""), the budget of one run; "
            + "raise it with \(option) N if the work is meant"
    }
}

/// Counts what a simulation's bus delivers against a ``WorkBudget``, and runs the simulation in
/// slices so that a run stops soon after its budget is spent (a slice delivers at most what one
/// scheduled item causes, times ``slice``).
final class BudgetMeter {
    /// Scheduled items run between two looks at the budget.
    static let slice = 1_024

    private let simulation: Simulation
    private let budget: WorkBudget
    private(set) var events = 0
    /// The nodes the run's node queries have read.
    var queriedNodes = 0

    init(_ simulation: Simulation, budget: WorkBudget) {
        self.simulation = simulation
        self.budget = budget
        simulation.bus.subscribe(.all, owner: "budget") { [unowned self] _ in events += 1 }
    }

    /// The budget spent so far, if it is: events first, then invariant checks, then queried nodes.
    var exceeded: BudgetExceeded? {
        if events > budget.maximumEvents {
            return BudgetExceeded(what: "events", limit: budget.maximumEvents, option: "--max-events", time: simulation.now)
        }
        let weight = simulation.invariantWeight
        if weight > 0, events > budget.maximumInvariantChecks / weight {
            return BudgetExceeded(
                what: "invariant checks", limit: budget.maximumInvariantChecks,
                option: "--max-invariant-checks", time: simulation.now)
        }
        if queriedNodes > budget.maximumQueriedNodes {
            return BudgetExceeded(
                what: "nodes read by node queries and accessibility checks", limit: budget.maximumQueriedNodes,
                option: "--max-queried-nodes",
                time: simulation.now)
        }
        return nil
    }

    /// Runs everything due up to `time` in slices; throws, leaving the clock where it stopped, once
    /// the budget is spent.
    func run(until time: VirtualTime) throws(BudgetExceeded) {
        if let exceeded { throw exceeded }
        while !simulation.timeline.run(until: time, atMost: Self.slice) {
            if let exceeded { throw exceeded }
        }
        if let exceeded { throw exceeded }
    }

    /// Runs the next item due by `time`, or moves the clock to `time` when none is; throws once
    /// the budget is spent.
    func step(until time: VirtualTime) throws(BudgetExceeded) {
        if let exceeded { throw exceeded }
        _ = simulation.timeline.run(until: time, atMost: 1)
        if let exceeded { throw exceeded }
    }
}
