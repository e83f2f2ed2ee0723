import RehearseCore

/// The checks every plugin's declarations should pass, so that what `rehearse plugins`, `rehearse
/// events` and the docs say of a plugin is what it does. One line in the plugin's own tests:
///
/// ```swift
/// @Test func shakeDetectorConforms() {
///     #expect(PluginConformance.problems(of: ShakeDetector.self, samples: [Shake(peaks: 3, magnitude: 2.4)]) == [])
/// }
/// ```
///
/// It checks the id's form; that the default configuration survives its field form; that the
/// state, on a fresh install (on the plugin's own scene, if it ships one), has exactly the
/// declared keys and starts in a declared value; that each declared event has a sample, and that
/// each sample's fields are the ones its `fieldSummary` names (a `?` marks an optional one) and
/// survive their field form.
public enum PluginConformance {
    /// The longest plugin id.
    public static let maximumIDLength = 64

    /// What is wrong with `type`'s declarations, in plain words; empty when nothing is. `scene`
    /// builds the scene to install it on when it ships none; `samples` holds at least one event
    /// of each type in its ``Plugin/events``.
    public static func problems<P: Plugin>(
        of type: P.Type, scene: ((Scene) throws -> Void)? = nil,
        samples: [any PluginEvent] = []
    ) -> [String] {
        idProblems(P.id) + configurationProblems(type) + stateProblems(type, scene: scene) + eventProblems(type, samples: samples)
    }

    /// Lower-case words of letters and digits joined by `-`, as scenario files and D-Bus name it.
    static func idProblems(_ id: String) -> [String] {
        let words = id.split(separator: "-", omittingEmptySubsequences: false)
        let wellFormed =
            id.count <= maximumIDLength
            && words.allSatisfy { word in
                guard let first = word.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
                return word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
        return wellFormed
            ? [] : ["id '\(id)': lower-case words of letters and digits joined by '-', at most \(maximumIDLength) characters"]
    }

    private static func configurationProblems<P: Plugin>(_ type: P.Type) -> [String] {
        let fields = FieldCodec.fields(of: P.defaultConfiguration)
        do {
            let decoded = try FieldCodec.value(P.Configuration.self, from: fields)
            return decoded == P.defaultConfiguration
                ? []
                : ["the default configuration reads back differently from its fields \(FieldValue.dictionary(fields).jsonText)"]
        } catch {
            return ["the default configuration does not read back from its fields: \(error)"]
        }
    }

    private static func stateProblems<P: Plugin>(_ type: P.Type, scene: ((Scene) throws -> Void)?) -> [String] {
        let simulation = Simulation()
        do {
            try (scene ?? P.scene?.build)?(simulation.scene)
            try simulation.install(P.self)
        } catch {
            return ["it does not install with its defaults: \(error)"]
        }
        let state = simulation.plugin(P.id)?.state ?? [:]
        let declared = Set(P.stateKeys.map(\.name))
        var problems: [String] = []
        if Set(state.keys) != declared {
            problems.append("state has the keys \(state.keys.sorted()), stateKeys declares \(declared.sorted())")
        }
        for key in P.stateKeys where !key.values.isEmpty {
            guard let value = state[key.name] else { continue }
            let text = if case .string(let string) = value { string } else { value.jsonText }
            if !key.values.contains(text) {
                problems.append("state '\(key.name)' starts as \(text), not one of its declared values \(key.values)")
            }
        }
        return problems
    }

    private static func eventProblems<P: Plugin>(_ type: P.Type, samples: [any PluginEvent]) -> [String] {
        var problems: [String] = []
        let declared = P.events.map { $0.name }
        for eventType in P.events where !samples.contains(where: { Swift.type(of: $0).name == eventType.name }) {
            problems.append("event '\(eventType.name)': no sample to check its fields against its fieldSummary")
        }
        for sample in samples {
            let eventType = Swift.type(of: sample)
            guard declared.contains(eventType.name) else {
                problems.append("event '\(eventType.name)' is not among the plugin's events")
                continue
            }
            let (required, optional) = eventType.declaredFields
            let keys = Set(sample.fields.keys)
            if !required.isSubset(of: keys) || !keys.isSubset(of: required.union(optional)) {
                problems.append(
                    "event '\(eventType.name)': fieldSummary '\(eventType.fieldSummary)' names \(required.union(optional).sorted()), "
                        + "a sample has \(keys.sorted())")
            }
            do {
                if try eventType.init(fields: sample.fields).fields != sample.fields {
                    problems.append("event '\(eventType.name)': a sample reads back differently from its fields")
                }
            } catch {
                problems.append("event '\(eventType.name)': a sample does not read back from its fields: \(error)")
            }
        }
        return problems
    }
}
