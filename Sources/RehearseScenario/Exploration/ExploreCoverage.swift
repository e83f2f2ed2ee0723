import RehearseCore

/// What an exploration reached: the event names delivered, out of the simulation's vocabulary,
/// and the distinct values plugins' state took (`gateway.status=loggedIn`), strings and booleans.
/// Recorded on every event and action, so it keeps raw values and builds text only when asked.
public final class ExploreCoverage {
    private var builtinDelivered = [Bool](repeating: false, count: Event.builtinNames.count)
    private var customDelivered: Set<String> = []
    private var states: Set<StateValue> = []
    /// `PLUGIN.KEY=VALUE` for every value the installed plugins declare their state takes.
    private var declared: Set<String> = []
    /// How many event names the simulation accepts.
    public private(set) var vocabularySize = 0

    private struct StateValue: Hashable {
        let plugin: String
        let key: String
        let value: FieldValue
    }

    public init() {}

    /// The event names delivered, sorted.
    public var eventNames: [String] {
        (zip(Event.builtinNames, builtinDelivered).filter(\.1).map(\.0) + customDelivered).sorted()
    }

    /// `PLUGIN.KEY=VALUE` for each state value seen, sorted.
    public var pluginStates: [String] {
        states.map { state in
            let value = if case .string(let text) = state.value { text } else { state.value.jsonText }
            return "\(state.plugin).\(state.key)=\(value)"
        }.sorted()
    }

    /// The state values the plugins declare (``PluginStateKey/values``) that no sequence reached,
    /// as `PLUGIN.KEY=VALUE`, sorted: where exploration never got (a login never passed).
    public var neverReached: [String] { declared.subtracting(pluginStates).sorted() }

    /// Records what `simulation` delivers from now on.
    func watch(_ simulation: Simulation) {
        vocabularySize = simulation.eventVocabulary.count
        for id in simulation.pluginIDs {
            guard let plugin = simulation.plugin(id) else { continue }
            for key in type(of: plugin).stateKeys { declared.formUnion(key.values.map { "\(id).\(key.name)=\($0)" }) }
        }
        simulation.bus.subscribe(.all, owner: "explorer coverage") { [unowned self] delivered in
            if let slot = delivered.event.builtinSlot {
                builtinDelivered[slot] = true
            } else {
                customDelivered.insert(delivered.event.name)
            }
        }
    }

    /// Records the plugins' state now.
    func sample(_ simulation: Simulation) {
        for id in simulation.pluginIDs {
            for (key, value) in simulation.plugin(id)?.state ?? [:] {
                switch value {
                case .string, .bool: states.insert(StateValue(plugin: id, key: key, value: value))
                default: continue
                }
            }
        }
    }

    /// `events 14/23, plugin states 9`.
    public var summary: String { "events \(eventNames.count)/\(vocabularySize), plugin states \(states.count)" }
}
