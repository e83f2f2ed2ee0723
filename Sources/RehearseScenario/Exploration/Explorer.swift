import Foundation
import RehearseCore
import Synchronization

/// Property-based exploration of a scenario's set-up: seeded random sequences of actions are run
/// on fresh simulations until an invariant (the scenario's or a plugin's) breaks; the failing
/// sequence is then shrunk to one from which nothing can be removed or simplified, and written as
/// a scenario file that `rehearse run` reproduces.
public struct Explorer: Sendable {
    /// The set-up explored (its steps are not run).
    public let scenario: Scenario
    public let registry: PluginRegistry
    public var alphabet: ExploreAlphabet
    /// Actions per sequence (the file's `explore: {length}`, or ``defaultLength``).
    public var length: Int
    /// The most work one sequence may do; a sequence that needs more stops the exploration.
    public var budget = WorkBudget()

    /// The sequences one exploration runs unless told otherwise.
    public static let defaultRuns = 2_000
    /// Actions per sequence unless told otherwise.
    public static let defaultLength = 20
    /// The most threads one exploration runs sequences on.
    public static let maximumJobs = 64

    /// The scenario's plugins, configured once for every run.
    private let plugins: [ConfiguredPlugin]

    /// Explores `scenario`'s set-up; throws if its plugins cannot be configured.
    public init(scenario: Scenario, registry: PluginRegistry, alphabet: ExploreAlphabet? = nil) throws {
        self.scenario = scenario
        self.registry = registry
        self.alphabet = alphabet ?? .derived(from: scenario)
        length = scenario.explore?.length ?? Self.defaultLength
        plugins = try scenario.configuredPlugins(registry: registry)
    }

    /// A sequence that broke an invariant.
    public struct Failure: Sendable {
        /// The seed of the sequence (`--seed` reruns it).
        public var seed: UInt64
        public var invariant: InvariantFailure
        /// The simulated time it broke at.
        public var time: VirtualTime
        /// The actions up to and including the one during which it broke.
        public var actions: [ExploreAction]
    }

    /// The longest wait one action may be, in seconds.
    public var longestWait: Double {
        alphabet.kinds.map { kind in
            let fixed = kind.actions.map(\.duration.seconds)
            return max(kind.waitRange?.upperBound ?? 0, fixed.max() ?? 0)
        }.max() ?? 0
    }

    /// Why sequences of ``length`` actions could wait longer than ``ScenarioLimits/runSeconds`` (a scenario's longest run, so that a failure's scenario file always loads), or nil.
    public var sequenceTimeProblem: String? {
        Self.sequenceTimeProblem(length: length, longestWait: longestWait)
    }

    /// Why `length` actions of waits up to `longestWait` seconds could wait longer than
    /// ``ScenarioLimits/runSeconds`` (a scenario's longest run, so that a failure's scenario file always loads), or nil.
    static func sequenceTimeProblem(length: Int, longestWait: Double) -> String? {
        let longest = longestWait * Double(length)
        guard longest > ScenarioLimits.runSeconds else { return nil }
        return "\(length) actions of waits up to \(longestWait.shortDescription) s could wait \(longest.shortDescription) s; "
            + "the waits of a sequence add up to at most \(Int(ScenarioLimits.runSeconds)) simulated seconds"
    }

    /// The sequence with seed `seed`.
    public func sequence(seed: UInt64) -> [ExploreAction] {
        var random = SeededGenerator(seed: seed)
        return alphabet.sequence(length: length, using: &random)
    }

    /// What ``explore(seeds:jobs:coverage:progress:)`` found: the first sequence, in the seeds'
    /// order, that broke an invariant (nil if none did), and how many sequences ran.
    public struct Outcome: Sendable {
        public var failure: Failure?
        /// With a failure, its position in the seeds plus one, whatever `jobs` was: the count a
        /// run of one sequence after the other stops at.
        public var sequences: Int
    }

    /// Runs the sequence of each seed and returns the first, in `seeds`' order, that breaks an
    /// invariant, recording what the runs reached in `coverage`. With `jobs` above 1 the
    /// sequences run on that many threads, each taking the next seed in order; once one fails no
    /// later seed starts, and a failure of an earlier seed still running wins: the outcome is the
    /// one `jobs: 1` gives. `progress` is told how many sequences are done after each (one call at
    /// a time, from any of the threads) and may stop the exploration by returning false.
    public func explore<Seeds: Sequence<UInt64> & Sendable>(
        seeds: Seeds, jobs: Int = 1, coverage: ExploreCoverage? = nil, progress: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) throws -> Outcome where Seeds.Iterator: Sendable {
        if let coverage { coverage.describe(try scenario.makeSimulation(plugins: plugins)) }
        let shared = Mutex(Exploration(seeds: seeds.makeIterator(), coverage: coverage))
        let work = { @Sendable () -> Void in
            let memo = SetupMemo()  // the worker's: its sequences start from the set-up its first built
            while let (index, seed) = shared.withLock({ $0.claim() }) {
                var reached: ExploreCoverage.Reached?
                let result: Result<Failure?, any Error>
                do {
                    let (failure, seen) = try runRecording(sequence(seed: seed), seed: seed, records: coverage != nil, memo: memo)
                    reached = seen
                    result = .success(failure)
                } catch var exceeded as BudgetExceeded {
                    exceeded.seed = seed
                    result = .failure(exceeded)
                } catch {
                    result = .failure(error)
                }
                shared.withLock { exploration in
                    exploration.finish(index, result, reached: reached)
                    if !progress(exploration.done) { exploration.stopped = true }
                }
            }
        }
        if jobs > 1 {
            DispatchQueue.concurrentPerform(iterations: jobs) { _ in work() }
        } else {
            work()
        }
        return try shared.withLock { try $0.outcome() }
    }

    /// Runs `actions` on a fresh simulation of the set-up; the first invariant broken, if any. An
    /// action the simulation refuses at its moment (a tap on a node a plugin has taken out, a
    /// gesture on a node not visible) does nothing and takes no time, and the written file leaves
    /// it out (``steps(_:)``). Runs given the same `memo` (one thread's) start from what the first
    /// one's set-up built (``SetupMemo``), as an exploration's worker does.
    public func run(_ actions: [ExploreAction], seed: UInt64 = 0, memo: SetupMemo? = nil) throws -> Failure? {
        try runRecording(actions, seed: seed, records: false, memo: memo).0
    }

    /// ``run(_:seed:memo:)``, also returning what the sequence reached if `records`; `watching` is
    /// given the simulation once it is set up, and `performed` told each action it took, as the
    /// written file has it.
    func runRecording(
        _ actions: [ExploreAction], seed: UInt64, records: Bool, memo: SetupMemo? = nil,
        watching: ((Simulation) -> Void)? = nil,
        performed: ((ExploreAction) -> Void)? = nil
    ) throws -> (Failure?, ExploreCoverage.Reached?) {
        let simulation = try scenario.makeSimulation(plugins: plugins, memo: memo)
        watching?(simulation)
        let seen = records ? ExploreCoverage.Run(watching: simulation) : nil
        let watch = InvariantWatch(simulation)
        let meter = BudgetMeter(simulation, budget: budget)
        simulation.checkInvariants()
        if let (invariant, time) = watch.first {
            return (Failure(seed: seed, invariant: invariant, time: time, actions: []), seen?.reached)
        }
        for (index, action) in actions.enumerated() {
            if let done = try perform(action, on: simulation, meter: meter) { performed?(done) }
            if let exceeded = meter.exceeded { throw exceeded }
            seen?.sample(simulation)
            if let (invariant, time) = watch.first {
                return (Failure(seed: seed, invariant: invariant, time: time, actions: Array(actions[...index])), seen?.reached)
            }
        }
        return (nil, seen?.reached)
    }

    /// Does `action` as its step does: the action as the written file has it (text typed into a
    /// field that is secure now masked, as every scenario file has it), or nil if the simulation
    /// refused it.
    private func perform(_ action: ExploreAction, on simulation: Simulation, meter: BudgetMeter) throws -> ExploreAction? {
        switch action {
        case .inject(let event), .emit(let event):
            let typed = simulation.maskingSecureText(event)
            guard (try? simulation.inject(typed)) != nil else { return nil }
            return if case .inject = action { .inject(typed) } else { .emit(typed) }
        case .gesture(let gesture, let origin):
            let start = simulation.now
            let fingers = Array(0..<gesture.fingers)
            do {
                switch origin {
                case .node(let id):
                    try simulation.inject(try simulation.place(gesture, fingers: fingers, on: GestureAnchor(node: id)))
                case .point(let point):
                    try simulation.inject(gesture.touches(from: point, ids: fingers, rate: simulation.device.refreshRate))
                }
            } catch {
                return nil
            }
            try meter.run(until: start + gesture.duration)
            return action
        case .wait(let duration):
            try meter.run(until: simulation.now + duration)
            return action
        }
    }

    /// `failure` with the fewest, simplest actions that still break the same invariant: chunks of
    /// actions are removed (halves, then quarters, ... then single actions), waits in a row merged
    /// and waits shortened until no change keeps the failure; then each wait is rounded (to the
    /// tenth of a second, the hundredth, the millisecond: the first that keeps it). Its time is
    /// the time its file (``scenarioText(for:)``) fails at.
    public func shrink(_ failure: Failure) throws -> Failure {
        var current = failure
        let memo = SetupMemo()
        func attempt(_ actions: [ExploreAction]) throws -> Bool {
            guard let candidate = try run(actions, seed: failure.seed, memo: memo),
                candidate.invariant.name == failure.invariant.name, candidate.invariant.owner == failure.invariant.owner
            else { return false }
            current = candidate
            return true
        }
        /// Replaces each action with the first of its `versions` that keeps the failure; whether any was.
        func simplify(_ versions: KeyPath<ExploreAction, [ExploreAction]>) throws -> Bool {
            var changed = false
            var index = 0
            while index < current.actions.count {  // a candidate may fail earlier, leaving fewer actions
                for version in current.actions[index][keyPath: versions] {
                    var candidate = current.actions
                    candidate[index] = version
                    if try attempt(candidate) {
                        changed = true
                        break
                    }
                }
                index += 1
            }
            return changed
        }
        var changed = true
        while changed {
            changed = false
            var chunk = max(current.actions.count / 2, 1)
            while chunk >= 1 {
                var start = 0
                while start < current.actions.count {
                    var candidate = current.actions
                    candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                    if try attempt(candidate) { changed = true } else { start += chunk }
                }
                chunk /= 2
            }
            var index = 0
            while index + 1 < current.actions.count {  // two waits in a row become one
                if case .wait(let first) = current.actions[index], case .wait(let second) = current.actions[index + 1] {
                    var candidate = current.actions
                    candidate.replaceSubrange(index...index + 1, with: [.wait(first + second)])
                    if try attempt(candidate) {
                        changed = true
                        continue
                    }
                }
                index += 1
            }
            if try simplify(\.simplerVersions) { changed = true }
        }
        _ = try simplify(\.roundedVersions)
        return current
    }

    /// `actions` as the written file has them: those the simulation takes, run on a fresh one, as
    /// ``run(_:seed:)`` does them (text typed into a secure field masked).
    public func steps(_ actions: [ExploreAction]) throws -> [ExploreAction] {
        var steps: [ExploreAction] = []
        _ = try runRecording(actions, seed: 0, records: false, performed: { steps.append($0) })
        return steps
    }

    /// The scenario file that replays `failure`: the set-up, then its actions as the steps that do
    /// them (``steps(_:)``, each its ``ExploreAction/description``); `rehearse run` on it fails with
    /// that invariant at `failure.time`, the same simulation step for step.
    public func scenarioText(for failure: Failure) throws -> String {
        let invariant = "\(failure.invariant.name) (\(failure.invariant.owner))"
        let steps = try steps(failure.actions)
        var lines = [
            "# Found by rehearse explore (seed \(failure.seed)) and shrunk: `rehearse run` fails it at \(failure.time) s, "
                + "with the invariant its name says. Add `expect` steps to make it a test.",
            "name: \(YAMLFlow.quoted("explore: \(invariant), seed \(failure.seed), shrunk"))",
            try ScenarioRecorder.setupText(of: scenario).trimmingCharacters(in: .newlines),
            steps.isEmpty ? "steps: []" : "steps:",
        ]
        lines += steps.map { "  - \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The first `invariant.failed` a simulation delivers, and when.
private final class InvariantWatch {
    private(set) var first: (InvariantFailure, VirtualTime)?

    init(_ simulation: Simulation) {
        simulation.bus.subscribe(.name("invariant.failed"), owner: "explorer") { [unowned self] delivered in
            if first == nil, case .invariantFailed(let failure) = delivered.event { first = (failure, delivered.time) }
        }
    }
}

/// The seeds of one exploration as its threads take them, and what the sequences came to. What a
/// sequence reached joins the coverage in the seeds' order, up to the first failure and no
/// further, so the coverage too is what one thread finds.
private struct Exploration<Seeds: IteratorProtocol<UInt64> & Sendable>: Sendable {
    var seeds: Seeds
    private var next = 0
    private(set) var done = 0
    /// Set when `progress` says to stop: no more seeds are taken.
    var stopped = false
    /// The earliest sequence, by position, that failed or could not run.
    private var earliest: (index: Int, result: Result<Failure?, any Error>)?
    private let coverage: ExploreCoverage?
    /// What finished sequences reached, by position, until every earlier one has finished.
    private var waiting: [Int: ExploreCoverage.Reached] = [:]
    /// The position of the next sequence whose coverage joins.
    private var nextToMerge = 0

    typealias Failure = Explorer.Failure

    init(seeds: Seeds, coverage: ExploreCoverage?) {
        self.seeds = seeds
        self.coverage = coverage
    }

    /// The next seed and its position, unless a sequence failed or the exploration was stopped.
    mutating func claim() -> (Int, UInt64)? {
        guard !stopped, earliest == nil, let seed = seeds.next() else { return nil }
        defer { next += 1 }
        return (next, seed)
    }

    /// Records the result of the sequence at `index`, and what it reached.
    mutating func finish(_ index: Int, _ result: Result<Failure?, any Error>, reached: ExploreCoverage.Reached?) {
        done += 1
        if let reached { waiting[index] = reached }
        if case .success(nil) = result {} else if earliest.map({ index < $0.index }) ?? true { earliest = (index, result) }
        while let reached = waiting[nextToMerge], earliest.map({ nextToMerge <= $0.index }) ?? true {
            coverage?.merge(reached)
            waiting[nextToMerge] = nil
            nextToMerge += 1
        }
    }

    /// The earliest failure (thrown, if the sequence could not run), or none after every sequence.
    func outcome() throws -> Explorer.Outcome {
        guard let (index, result) = earliest else { return Explorer.Outcome(failure: nil, sequences: done) }
        return Explorer.Outcome(failure: try result.get(), sequences: index + 1)
    }
}
