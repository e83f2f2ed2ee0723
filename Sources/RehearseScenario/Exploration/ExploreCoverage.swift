import RehearseCore
import Synchronization

/// What an exploration reached: the event names delivered, out of the simulation's vocabulary,
/// and the distinct values plugins' state took (`gateway.status=loggedIn`), strings and booleans.
/// Each sequence records into a ``Run`` of its own, merged in when the sequence ends, so the
/// threads of `explore --jobs` share nothing while they run.
public final class ExploreCoverage: Sendable {
    private let reached = Mutex(Reached())

    /// What one or more sequences reached, as raw values (text is built only when asked).
    struct Reached: Sendable {
        var builtinDelivered = [Bool](repeating: false, count: Event.builtinNames.count)
        var customDelivered: Set<String> = []
        var states: Set<StateValue> = []
        /// `PLUGIN.KEY=VALUE` for every value the installed plugins declare their state takes.
        var declared: Set<String> = []
        var vocabularySize = 0

        mutating func merge(_ other: Reached) {
            builtinDelivered = zip(builtinDelivered, other.builtinDelivered).map { $0 || $1 }
            customDelivered.formUnion(other.customDelivered)
            states.formUnion(other.states)
            declared.formUnion(other.declared)
            vocabularySize = max(vocabularySize, other.vocabularySize)
        }
    }

    struct StateValue: Hashable, Sendable {
        let plugin: String
        let key: String
        let value: FieldValue
    }

    public init() {}

    /// How many event names the simulation accepts.
    public var vocabularySize: Int { reached.withLock { $0.vocabularySize } }

    /// The event names delivered, sorted.
    public var eventNames: [String] {
        reached.withLock { (zip(Event.builtinNames, $0.builtinDelivered).filter(\.1).map(\.0) + $0.customDelivered).sorted() }
    }

    /// `PLUGIN.KEY=VALUE` for each state value seen, sorted.
    public var pluginStates: [String] {
        reached.withLock { reached in
            reached.states.map { state in
                let value = if case .string(let text) = state.value { text } else { state.value.jsonText }
                return "\(state.plugin).\(state.key)=\(value)"
            }.sorted()
        }
    }

    /// The state values the plugins declare (``PluginStateKey/values``) that no sequence reached,
    /// as `PLUGIN.KEY=VALUE`, sorted: where exploration never got (a login never passed).
    public var neverReached: [String] {
        let declared = reached.withLock { $0.declared }
        return declared.subtracting(pluginStates).sorted()
    }

    /// `events 14/23, plugin states 9`.
    public var summary: String {
        let states = reached.withLock { $0.states.count }
        return "events \(eventNames.count)/\(vocabularySize), plugin states \(states)"
    }

    /// Adds what one sequence reached.
    func merge(_ other: Reached) {
        reached.withLock { $0.merge(other) }
    }

    /// Records what every sequence's set-up has: the event names `simulation` accepts and the
    /// state values its plugins declare (the same for every fresh simulation of a set-up, so
    /// read once per exploration rather than per sequence).
    func describe(_ simulation: Simulation) {
        var declared: Set<String> = []
        for id in simulation.pluginIDs {
            guard let plugin = simulation.plugin(id) as? any Plugin else { continue }
            for key in type(of: plugin).stateKeys { declared.formUnion(key.values.map { "\(id).\(key.name)=\($0)" }) }
        }
        let vocabularySize = simulation.eventVocabulary.count
        reached.withLock { reached in
            reached.declared.formUnion(declared)
            reached.vocabularySize = max(reached.vocabularySize, vocabularySize)
        }
    }

    /// What one sequence reaches, recorded on its own thread as it runs.
    final class Run {
        fileprivate(set) var reached = Reached()
        /// Each plugin's state at the last sample, in ``Simulation/pluginIDs``' order: a state
        /// that has not changed since is not recorded again.
        private var lastSampled: [Fields] = []

        /// Records what `simulation` delivers from now on.
        init(watching simulation: Simulation) {
            simulation.bus.subscribe(.all, owner: "explorer coverage") { [unowned self] delivered in
                if let slot = delivered.event.builtinSlot {
                    reached.builtinDelivered[slot] = true
                } else {
                    reached.customDelivered.insert(delivered.event.name)
                }
            }
        }

        /// Records the plugins' state now.
        func sample(_ simulation: Simulation) {
            let ids = simulation.pluginIDs
            if lastSampled.count != ids.count { lastSampled = Array(repeating: [:], count: ids.count) }
            for (index, id) in ids.enumerated() {
                let state = simulation.plugin(id)?.state ?? [:]
                guard state != lastSampled[index] else { continue }
                lastSampled[index] = state
                for (key, value) in state {
                    switch value {
                    case .string, .bool: reached.states.insert(StateValue(plugin: id, key: key, value: value))
                    case .int, .double, .array, .dictionary: continue
                    }
                }
            }
        }
    }
}
