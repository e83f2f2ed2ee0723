/// One thing a remote plugin's answer asks for, done as a Swift plugin does it through its
/// ``PluginContext`` (docs/remote-plugins.md, "Effects").
public enum RemoteEffect: Hashable, Sendable {
    /// Publishes an event after the current one, checked as injected events are.
    case emit(name: String, fields: Fields)
    /// Changes the scene at once through a path, as a scenario's `set:` step does.
    case set(path: String, value: FieldValue)
    /// Changes paths in one animation transaction; `completion` is the tag `Wake` gets when its
    /// animations end.
    case animate(AnimationParameters, changes: [String: FieldValue], completion: String?)
    /// Makes the named constraint sets the active ones.
    case activate(sets: [String])
    /// Asks for `Wake(tag)` after `delay` of virtual time.
    case schedule(after: VirtualTime, tag: String)
    /// Changes where the scroll view released now comes to rest, as a delegate sets
    /// `targetContentOffset` in `scrollViewWillEndDragging`: valid only in the answer to
    /// ``targetOffsetCall``.
    case targetOffset(scrollView: String, offset: Point)

    /// The one call whose answer may hold a `target-offset` effect.
    public static let targetOffsetCall = "Deliver(scroll.willEndDragging)"

    /// The kinds an answer may name, as the protocol names them.
    public enum Kind: String, CaseIterable, Sendable {
        case emit, set, animate, activate, schedule
        case targetOffset = "target-offset"
    }

    /// Reads the effect `(kind, arguments)` of an answer; throws what is wrong, naming the argument.
    public init(kind name: String, arguments: Fields) throws(FieldError) {
        guard let kind = Kind(rawValue: name) else {
            let kinds = Kind.allCases.map(\.rawValue)
            throw FieldError(
                path: "",
                problem: .invalidValue(
                    "unknown effect '\(name)'\(Suggestion.hint(for: name, among: kinds)); effects: \(kinds.joined(separator: ", "))"
                ))
        }
        var reader = FieldReader(arguments)
        switch kind {
        case .emit:
            self = .emit(name: try reader.required("name"), fields: try reader.optional("fields", as: Fields.self) ?? [:])
        case .set:
            self = .set(path: try reader.required("path"), value: try reader.required("value", as: FieldValue.self))
        case .animate:
            var parameters = AnimationParameters(duration: try Self.seconds(reader.required("duration"), "duration"))
            parameters.delay = try Self.seconds(reader.optional("delay") ?? 0, "delay")
            parameters.curve = (try reader.choice("curve", as: NamedCurve.self) ?? .easeInEaseOut).curve
            self = .animate(
                parameters, changes: try reader.required("changes", as: Fields.self),
                completion: try reader.optional("completion"))
        case .activate:
            self = .activate(sets: try reader.required("sets", as: [String].self))
        case .schedule:
            let delay = try Self.seconds(reader.required("after"), "after")
            guard let after = VirtualTime.seconds(delay) else {
                throw FieldError(path: "after", problem: .invalidValue("must be a number of seconds, found \(delay)"))
            }
            self = .schedule(after: after, tag: try reader.required("tag"))
        case .targetOffset:
            self = .targetOffset(scrollView: try reader.required("target"), offset: try reader.required("offset", as: Point.self))
        }
        try reader.finish()
    }

    /// A span in seconds from 0 to a run's longest.
    private static func seconds(_ value: Double, _ name: String) throws(FieldError) -> Double {
        guard (0...ScenarioLimits.runSeconds).contains(value) else {
            throw FieldError(
                path: name, problem: .invalidValue("must be 0 to \(Int(ScenarioLimits.runSeconds)) seconds, found \(value)"))
        }
        return value
    }
}

extension RemoteEffect {
    /// The effect's kind.
    public var kind: Kind {
        switch self {
        case .emit: .emit
        case .set: .set
        case .animate: .animate
        case .activate: .activate
        case .schedule: .schedule
        case .targetOffset: .targetOffset
        }
    }
}
