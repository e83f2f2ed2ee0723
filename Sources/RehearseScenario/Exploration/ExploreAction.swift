import RehearseCore

/// One thing exploration does to a simulation, as the scenario step that does it, so that a
/// failure's file replays exactly what was explored and writing it is printing its actions
/// (``description``): inject an event (`tap: login`, `type`, `rotate`, ...), emit one as `emit:`
/// does, make a gesture as the gesture steps do (`drag: {on: list, by: [0, -100], duration: 0.5}`,
/// the same ``Gesture``, placed when it runs), or let time pass.
public enum ExploreAction: Hashable, Sendable, CustomStringConvertible {
    /// An event as the step of its kind injects it (`tap: ID`, `focus`, `type`, `return`,
    /// `resign`, `rotate`, `network`, `motion`); one no such step injects is written as `emit:`.
    case inject(Event)
    /// An event as `emit:` injects it (a plugin's event, or one a file asks exploration to emit).
    case emit(Event)
    /// A gesture from where it starts, found when it runs.
    case gesture(Gesture, from: Origin)
    case wait(VirtualTime)

    /// Where a gesture starts.
    public enum Origin: Hashable, Sendable {
        /// The centre of the node's visible part as it is when the gesture runs, as in the gesture
        /// steps on a node.
        case node(String)
        /// A screen point, as in the gesture steps' screen-point forms.
        case point(Point)
    }

    /// The step, as a line of a scenario file's `steps:` without its `- `.
    public var description: String {
        switch self {
        case .inject(let event): ExploreStepText.step(injecting: event) ?? ExploreStepText.emit(event)
        case .emit(let event): ExploreStepText.emit(event)
        case .gesture(let gesture, let origin): ExploreStepText.step(gesture, from: origin)
        case .wait(let time): "wait: \(time)"
        }
    }

    /// How long the action moves the clock on.
    var duration: VirtualTime {
        switch self {
        case .inject, .emit: .zero
        case .gesture(let gesture, _): gesture.duration
        case .wait(let time): time
        }
    }

    /// Simpler versions of the action for shrinking, simplest first: a shorter wait.
    var simplerVersions: [ExploreAction] {
        guard case .wait(let time) = self else { return [] }
        let frame = VirtualTime(nanoseconds: 16_666_667)
        return [frame, VirtualTime(nanoseconds: time.nanoseconds / 2)].filter { $0 < time }.map(ExploreAction.wait)
    }

    /// Rounder versions of a wait, roundest first: to the tenth of a second, the hundredth, the
    /// millisecond (to the nearest, more than 0, each different from the wait and the ones before).
    var roundedVersions: [ExploreAction] {
        guard case .wait(let time) = self else { return [] }
        var versions: [VirtualTime] = []
        for unit: Int64 in [100_000_000, 10_000_000, 1_000_000] {
            let rounded = VirtualTime(nanoseconds: (time.nanoseconds + unit / 2) / unit * unit)
            if rounded > .zero, rounded != time, !versions.contains(rounded) { versions.append(rounded) }
        }
        return versions.map(ExploreAction.wait)
    }
}

/// The actions exploration draws from: kinds chosen by weight, then an action of the kind alike
/// (a wait with a range draws its length, to the millisecond).
public struct ExploreAlphabet: Sendable {
    /// One kind of action (`tap`, `focus`, `wait`, ...) with what it draws from.
    public struct Kind: Sendable {
        public var kind: ExploreKind
        public var weight: Double
        public var actions: [ExploreAction]
        /// For waits drawn from a range instead of `actions`, in seconds.
        public var waitRange: ClosedRange<Double>?

        public init(_ kind: ExploreKind, weight: Double = 1, actions: [ExploreAction], waitRange: ClosedRange<Double>? = nil) {
            self.kind = kind
            self.weight = weight
            self.actions = actions
            self.waitRange = waitRange
        }
    }

    /// The kinds that can be drawn (weight above 0, something to draw).
    public let kinds: [Kind]
    private let totalWeight: Double

    public init(kinds: [Kind]) {
        self.kinds = kinds.filter { $0.weight > 0 && (!$0.actions.isEmpty || $0.waitRange != nil) }
        totalWeight = self.kinds.reduce(0) { $0 + $1.weight }
    }

    /// The waits exploration uses by default, in seconds: a frame, a keyboard's rise, a gateway's answer.
    public static let defaultWaits = [1.0 / 60, 0.1, 0.3, 0.6]

    /// The alphabet for `scenario`: its `explore:` section where it says, and otherwise taps on
    /// every node the scene declares, focus, text (`a` and every text the file's own steps type,
    /// so a login the steps pass is one exploration can reach) and return on every text field, resigning,
    /// the four orientations, the network on and off, a tilt either way, the default waits, and
    /// the plugin events its steps emit (`login.submit` with the fields written there), each kind
    /// weighing 1.
    public static func derived(from scenario: Scenario) -> ExploreAlphabet {
        let settings = scenario.explore ?? ExploreSettings()
        let nodes = scenario.nodes.map(\.node)
        let fields = nodes.filter { $0.kind.isTextInput }.map(\.id)
        let tilts = [-2.0, 2.0].map { ExploreAction.inject(.motion(MotionSample(rotationRate: Vector3(x: 0, y: $0, z: 0)))) }
        let texts = settings.texts ?? typedTexts(scenario)
        return ExploreAlphabet(
            kinds: ExploreKind.allCases.map { kind in
                let actions: [ExploreAction] =
                    switch kind {
                    case .tap: (settings.tapTargets ?? nodes.map(\.id)).map { .inject(.tap(Tap(target: $0))) }
                    case .focus: fields.map { .inject(.focus(NodeTarget(target: $0))) }
                    case .text: fields.flatMap { field in texts.map { .inject(.text(TextInput(target: field, text: $0))) } }
                    case .returnKey: fields.map { .inject(.returnKey(NodeTarget(target: $0))) }
                    case .resign: [.inject(.resign(ResignRequest()))]
                    case .rotate: Orientation.allCases.map { .inject(.orientation(OrientationChange(value: $0))) }
                    case .network: [false, true].map { .inject(.network(NetworkChange(online: $0))) }
                    case .motion: tilts
                    case .wait:
                        settings.waitRange == nil
                            ? defaultWaits.compactMap { VirtualTime.seconds($0).map(ExploreAction.wait) } : []
                    case .emit: (settings.events ?? emittedEvents(scenario)).map(ExploreAction.emit)
                    case .drag, .fling, .swipe, .longPress: ExploreGestures(scenario: scenario).actions(kind)
                    }
                return Kind(
                    kind, weight: settings.weights[kind] ?? kind.defaultWeight, actions: actions,
                    waitRange: kind == .wait ? settings.waitRange : nil)
            })
    }

    /// `a`, then the texts the scenario's steps type, each once, in the order they are typed.
    private static func typedTexts(_ scenario: Scenario) -> [String] {
        var texts = ["a"]
        for step in scenario.steps {
            switch step.action {
            case .inject(.text(let input)), .schedule(.text(let input), _):
                if !texts.contains(input.text) { texts.append(input.text) }
            case .injectQueried(let queried):
                if case .text(let text) = queried.kind, !texts.contains(text) { texts.append(text) }
            case .inject, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect, .expectEvent,
                .expectNoEvent, .set, .animate, .activate, .snapshot, .touchStream, .expectPicture, .expectVisible,
                .scrollUntilVisible, .settle, .waitUntil,
                .expectAccessible:
                continue
            }
        }
        return texts
    }

    /// The plugin events the scenario's steps emit, each once.
    private static func emittedEvents(_ scenario: Scenario) -> [Event] {
        var events: [Event] = []
        for step in scenario.steps {
            switch step.action {
            case .inject(let event), .schedule(let event, _):
                if case .custom = event, !events.contains(event) { events.append(event) }
            case .injectQueried, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect, .expectEvent,
                .expectNoEvent,
                .set, .animate, .activate, .snapshot, .touchStream, .expectPicture, .expectVisible, .scrollUntilVisible, .settle,
                .waitUntil,
                .expectAccessible:
                continue
            }
        }
        return events
    }

    /// `length` actions drawn with `random`.
    func sequence(length: Int, using random: inout SeededGenerator) -> [ExploreAction] {
        guard totalWeight > 0 else { return [] }
        return (0..<length).compactMap { _ in
            var pick = Double.random(in: 0..<totalWeight, using: &random)
            let kind =
                kinds.first {
                    pick -= $0.weight
                    return pick < 0
                } ?? kinds[kinds.count - 1]
            if let range = kind.waitRange {
                let milliseconds = Int64((Double.random(in: range, using: &random) * 1000).rounded())
                return .wait(VirtualTime(nanoseconds: max(milliseconds, 1) * 1_000_000))
            }
            return kind.actions.randomElement(using: &random)
        }
    }
}
