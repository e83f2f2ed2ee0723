import LoginEvents
import RehearseCore
import RehearseLayout

/// Paper's login screen animator (vijaysharm, "Facebook's Paper Login"): the original's visual format
/// line with its two metrics moving (``LayoutConstraint/metric``), given by the constraint sets
/// `hidden` and `shown`, swapped in a 0.3 s animation when the keyboard shows or hides (a
/// suggestion to the solver, no constraint re-added);
/// a tap outside the fields ends editing; Next moves to the password, Go ends editing and emits
/// `login.submit`; the status bar is hidden. The options are what the article says it lacks.
public final class LoginAnimator: Plugin {
    public static let id = "login-animator"
    public static let summary = "Paper's login form: lifts when the keyboard shows, submits on Go (vijaysharm)"
    public static let durations = ["duration"]
    public static let stateKeys = [
        PluginStateKey("phase", "where the login is", values: Phase.allCases.map(\.rawValue)),
        PluginStateKey("layout", "the form's active constraint set", values: ["hidden", "shown"]),
        PluginStateKey(
            "shimmering", "whether the title shimmers (submitAnimation, while a login is checked)", values: ["true", "false"]),
        PluginStateKey("shimmerPhase", "how far through its period the shimmer is, 0 to 1"),
    ]
    public static let defaultConfiguration = Configuration()
    public static let scene: ScenePreset? = PaperLoginScene.preset
    public static let events: [any PluginEvent.Type] = [LoginSubmit.self, LoginSucceeded.self, LoginFailed.self]

    /// The period of one shimmer sweep, in seconds (facebook/Shimmer's default speed moves a
    /// highlight across a title in about a second).
    public static let shimmerPeriod = 1.0

    private let configuration: Configuration
    private let context: PluginContext
    private let engine: LayoutEngine
    private var phase = Phase.editing
    /// The metrics the "shown" set gives: given again only when they change.
    private var shownMetricsInUse: Metrics
    private var shimmerStart: VirtualTime?

    /// Where the form is in its life.
    private enum Phase: String, CaseIterable {
        case editing, submitting, succeeded, failed
    }

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        self.context = context
        shownMetricsInUse = configuration.shown
        try Self.checkDurations(configuration, in: context)
        engine = try Self.layOut(configuration, in: context)
        context.scene.statusBarHidden = true
        context.invariant("the form is never under the keyboard") { [unowned self] in formClearOfKeyboard() }
        context.on(.keyboardWillShow) { [unowned self] change in try keyboardMoved(change, shown: true) }
        context.on(.keyboardWillHide) { [unowned self] change in try keyboardMoved(change, shown: false) }
        context.on(.tap) { tap in
            guard tap.target.flatMap({ context.scene[$0]?.kind.isTextInput }) != true else { return }
            try context.emit(.resign(ResignRequest()))
        }
        context.on(.returnKey) { [unowned self] request in try returnPressed(in: request.target) }
        try context.on(LoginSucceeded.self) { [unowned self] _ in try loginResolved(succeeded: true) }
        try context.on(LoginFailed.self) { [unowned self] _ in try loginResolved(succeeded: false) }
    }

    public var state: Fields {
        var shimmerPhase = 0.0
        if let start = shimmerStart {
            let elapsed = (context.now - start).seconds / Self.shimmerPeriod
            shimmerPhase = elapsed - elapsed.rounded(.down)
        }
        return [
            "phase": .string(phase.rawValue),
            "layout": .string(engine.activeConstraintSets.last ?? ""),
            "shimmering": .bool(shimmerStart != nil),
            "shimmerPhase": .double(shimmerPhase),
        ]
    }

    // MARK: Constraints

    /// The form's layout engine, laid out with the keyboard hidden: built and solved, or, where the
    /// set-up is built again and again (an exploration), copied from the snapshot kept the first
    /// time; where the build started from the scene the set-up left, the form is laid out there
    /// already, and the engine is copied as that set-up left it.
    private static func layOut(_ configuration: Configuration, in context: PluginContext) throws -> LayoutEngine {
        let memo = context.setupMemo
        if let installed = memo?.installed(context.pluginID, as: LayoutEngine.Snapshot.self) {
            let engine = LayoutEngine(snapshot: installed, target: context)
            context.layout = engine
            return engine
        }
        let engine = try build(configuration, in: context)
        memo?.keepInstall(as: context.pluginID) { engine.snapshot() }
        return engine
    }

    /// ``layOut(_:in:)`` on a scene as the scenario's nodes make it.
    private static func build(_ configuration: Configuration, in context: PluginContext) throws -> LayoutEngine {
        if let snapshot = context.setupMemo?.kept(context.pluginID, as: LayoutEngine.Snapshot.self) {
            let engine = LayoutEngine(snapshot: snapshot, target: context)
            context.layout = engine
            try engine.layOutAgain()
            return engine
        }
        let engine = try LayoutEngine(
            target: context,
            sets: [
                ("base", try baseConstraints(configuration) + verticalLine(configuration)),
                ("hidden", []),
                ("shown", []),
            ], metrics: ["hidden": configuration.hidden.values, "shown": configuration.shown.values])
        context.layout = engine
        try engine.activate(["base", "hidden"])
        context.setupMemo?.keep(engine.snapshot(), as: context.pluginID)
        return engine
    }

    private static func baseConstraints(_ configuration: Configuration) throws -> [LayoutConstraint] {
        try [configuration.username, configuration.separator, configuration.password]
            .flatMap { try VisualFormatParser.parse("H:|-[\($0)]-|") }
            + [SingleConstraintParser.parse("\(configuration.title).centerX == superview.centerX")]
    }

    /// `V:|-top-[title]-space-[username]-(8)-[separator(1)]-(8)-[password]`, `top` and `space` moving.
    private static func verticalLine(_ c: Configuration) throws -> [LayoutConstraint] {
        try VisualFormatParser.parse(
            "V:|-top-[\(c.title)]-space-[\(c.username)]-(8)-[\(c.separator)(1)]-(8)-[\(c.password)]",
            movingMetrics: Set(Metrics.names))
    }

    /// Whether the shown layout is fitted to the keyboard rather than the original's fixed metrics.
    private var fitsKeyboard: Bool {
        configuration.displacement == .keyboard || (configuration.landscape == .adaptive && context.scene.orientation.isLandscape)
    }

    /// The shown metrics for a keyboard of `height`: the original's, or (displacement `keyboard`, or
    /// landscape `adaptive` in landscape) a top that puts the password's bottom `gap` above it.
    private func shownMetrics(keyboardHeight height: Double) -> Metrics {
        let scene = context.scene
        guard fitsKeyboard else { return configuration.shown }
        let c = configuration
        let stack = [c.title, c.username, c.password].reduce(17.0) { $0 + (scene[$1]?.frame.size.height ?? 0) }
        let available = scene.bounds.size.height - height - c.gap
        var space = c.shown.space
        var top = available - stack - space
        if top < 0 {
            // Not enough room: give up space between title and fields first (down to 8).
            space = max(8, space + top)
            top = max(0, available - stack - space)
        }
        return Metrics(top: top, space: space)
    }

    /// Where the keyboard is up and the form is not shimmering over a submission, the password
    /// field's bottom (as laid out, the animation's end) is above the keyboard's top, wherever the
    /// layout promises it: fitted to the keyboard, or the original's metrics with the device's own
    /// portrait keyboard, which they were made for. The original's metrics in landscape or with
    /// another keyboard are the bugs the article admits (landscape-original.yaml,
    /// displacement-fixed.yaml).
    private func formClearOfKeyboard() -> InvariantOutcome {
        let keyboard = context.keyboard
        let scene = context.scene
        let madeFor = !scene.orientation.isLandscape && keyboard.frame.size.height == context.device.keyboardHeight(in: .portrait)
        guard keyboard.isVisible, phase != .submitting, fitsKeyboard || madeFor,
            let password = scene.frameInScreen(configuration.password)
        else { return .holds }
        let top = keyboard.frame.minY
        guard password.maxY > top + Condition.tolerance else { return .holds }
        return .broken(
            actual: "\(configuration.password).frame.maxY = \(password.maxY)", expected: "<= keyboard.frame.y = \(top)")
    }

    // MARK: Events

    private func keyboardMoved(_ change: KeyboardChange, shown: Bool) throws {
        // While a submission shimmers the form stays put, but the layout follows the keyboard for
        // later; after a submission, a new keyboard starts over.
        guard phase != .submitting else {
            try engine.activate(["base", shown ? "shown" : "hidden"], layingOut: false)
            return
        }
        phase = .editing
        if shown {
            let metrics = shownMetrics(keyboardHeight: change.frame.size.height)
            if metrics != shownMetricsInUse {
                try engine.setMetrics(metrics.values, for: "shown")
                shownMetricsInUse = metrics
            }
        }
        let parameters =
            configuration.followKeyboardAnimation
            ? AnimationParameters(duration: change.duration, curve: change.curve.curve)
            : AnimationParameters(duration: configuration.duration, curve: configuration.curve.curve)
        try context.animate(parameters) {
            try engine.activate(["base", shown ? "shown" : "hidden"])
        }
    }

    private func returnPressed(in id: String) throws {
        if id == configuration.username {
            try context.emit(.focus(NodeTarget(target: configuration.password)))
        } else if id == configuration.password {
            try context.emit(.resign(ResignRequest()))
            let username = context.scene[configuration.username]?.text ?? ""
            try context.emit(LoginSubmit(username: username))
            if configuration.submitAnimation { try startSubmitting() }
        }
    }

    /// The title slides down over the fields, which fade out, and the shimmer starts.
    private func startSubmitting() throws {
        guard let usernameFrame = context.scene[configuration.username]?.frame,
            var title = context.scene[configuration.title]?.frame
        else { return }
        phase = .submitting
        shimmerStart = context.now
        title.origin.y = usernameFrame.minY
        let c = configuration
        try context.animate(AnimationParameters(duration: c.duration, curve: c.curve.curve)) {
            try context.set(title.vector, for: .frame, of: c.title)
            for id in [c.username, c.separator, c.password] { try context.set(SIMD4(0, 0, 0, 0), for: .alpha, of: id) }
        }
    }

    /// Success leaves the title where it is; failure brings the form back.
    private func loginResolved(succeeded: Bool) throws {
        guard phase == .submitting else { return }
        shimmerStart = nil
        phase = succeeded ? .succeeded : .failed
        guard !succeeded else { return }
        let c = configuration
        try context.animate(AnimationParameters(duration: c.duration, curve: c.curve.curve)) {
            try engine.layOutAgain()
            for id in [c.title, c.username, c.separator, c.password] { try context.set(SIMD4(1, 0, 0, 0), for: .alpha, of: id) }
        }
        phase = .editing
    }
}
