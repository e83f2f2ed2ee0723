import RehearseCore

/// One thing exploration does to a simulation: inject an event (a tap, focus, text, a rotation,
/// ...), or let time pass.
public enum ExploreAction: Hashable, Sendable, CustomStringConvertible {
    case inject(Event)
    case wait(VirtualTime)

    public var description: String {
        switch self {
        case .inject(let event): "\(event.name) \(FieldValue.dictionary(event.fields).jsonText)"
        case .wait(let time): "wait \(time.seconds.shortDescription)"
        }
    }

    /// Simpler versions of the action for shrinking, simplest first: a shorter wait.
    var simplerVersions: [ExploreAction] {
        guard case .wait(let time) = self else { return [] }
        let frame = VirtualTime(nanoseconds: 16_666_667)
        return [frame, VirtualTime(nanoseconds: time.nanoseconds / 2)].filter { $0 < time }.map(ExploreAction.wait)
    }
}

/// The actions exploration draws from, each kind equally likely and the actions of a kind alike.
public struct ExploreAlphabet: Sendable {
    /// The actions, by kind (`tap`, `focus`, `wait`, ...).
    public var kinds: [(name: String, actions: [ExploreAction])]

    public init(kinds: [(name: String, actions: [ExploreAction])]) {
        self.kinds = kinds.filter { !$0.actions.isEmpty }
    }

    /// The waits exploration uses by default, in seconds: a frame, a keyboard's rise, a gateway's answer.
    public static let defaultWaits = [1.0 / 60, 0.1, 0.3, 0.6]

    /// The default alphabet for `scenario`'s scene: taps on every node it declares, focus, text,
    /// return on every text field, resigning, the four orientations, the network on and off, a
    /// tilt either way, waits, and the plugin events its steps emit (`login.submit` with the
    /// fields written there).
    public static func derived(from scenario: Scenario) -> ExploreAlphabet {
        var emitted: [ExploreAction] = []
        for step in scenario.steps {
            switch step.action {
            case .inject(let event), .schedule(let event, _):
                if case .custom = event, !emitted.contains(.inject(event)) { emitted.append(.inject(event)) }
            default: continue
            }
        }
        let nodes = scenario.nodes.map(\.node)
        let fields = nodes.filter { $0.kind.isTextInput }.map(\.id)
        let tilts = [-2.0, 2.0].map { ExploreAction.inject(.motion(MotionSample(rotationRate: Vector3(x: 0, y: $0, z: 0)))) }
        return ExploreAlphabet(kinds: [
            ("tap", nodes.map { .inject(.tap(Tap(target: $0.id))) }),
            ("focus", fields.map { .inject(.focus(NodeTarget(target: $0))) }),
            ("text", fields.map { .inject(.text(TextInput(target: $0, text: "a"))) }),
            ("return", fields.map { .inject(.returnKey(NodeTarget(target: $0))) }),
            ("resign", [.inject(.resign(ResignRequest()))]),
            ("rotate", Orientation.allCases.map { .inject(.orientation(OrientationChange(value: $0))) }),
            ("network", [false, true].map { .inject(.network(NetworkChange(online: $0))) }),
            ("motion", tilts),
            ("wait", defaultWaits.compactMap { VirtualTime.seconds($0).map(ExploreAction.wait) }),
            ("emit", emitted),
        ])
    }

    /// `length` actions drawn with `random`.
    func sequence(length: Int, using random: inout SeededGenerator) -> [ExploreAction] {
        (0..<length).compactMap { _ in kinds.randomElement(using: &random)?.actions.randomElement(using: &random) }
    }
}
