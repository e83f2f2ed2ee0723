import RehearseCore

/// Reads the steps of a scenario, checking every node id, path and event name against a
/// simulation built from the scenario's device, scene and plugins.
struct StepParser {
    let simulation: Simulation
    /// The simulated time the steps have reached so far, to refuse an `at:` in the past.
    private(set) var clock = VirtualTime.zero
    /// The motion samples the streams so far schedule.
    private var motionSamples = 0
    /// The touch steps' fingers and events so far.
    private let touchSteps = TouchStepReader()
    /// The orientation the steps have reached: touch steps' points must be on its screen.
    private var orientation = Orientation.portrait
    /// Whether the file says `settle: auto`: a settle follows every step that starts motion.
    var settlesAfterSteps = false
    /// The last step so far whose length is known only when it runs (a settle, a wait-until, a
    /// scroll-until-visible; with `settle: auto`, a step that starts motion), and why: no `at:`
    /// may follow it.
    private var unknownLength: (name: String, location: SourceLocation)?

    /// A step's name, one case each: parsing switches over them all, so a new step cannot be
    /// listed without its parser.
    enum StepName: String, CaseIterable {
        case tap, wait, at, expect, type, `return`, focus, resign, keyboard, motion, rotate
        case network, emit, set, animate, activate
        case expectEvent = "expect-event"
        case expectNoEvent = "expect-no-event"
        case snapshot
        case drag, swipe, fling
        case longPress = "long-press"
        case pinch, touches
        case expectPicture = "expect-picture"
        case expectVisible = "expect-visible"
        case expectNotVisible = "expect-not-visible"
        case scrollUntilVisible = "scroll-until-visible"
        case settle
        case waitUntil = "wait-until"
        case expectAccessible = "expect-accessible"
        case tapStatusBar = "tap-status-bar"
    }

    static let stepNames = StepName.allCases.map(\.rawValue)

    /// The scene as declared, before plugins changed it: made when a path names a node a plugin
    /// has taken out, and kept.
    private let declaredScene: Lazy<Simulation?>
    /// The kinds of the scene's nodes (the root's aside), found once.
    private let sceneKinds: Lazy<Set<NodeKind>>

    /// Reads steps against `simulation`, which they do not change; `declaredScene` makes the
    /// scene as declared, without plugins.
    init(simulation: Simulation, declaredScene: @escaping () -> Simulation? = { nil }) {
        self.simulation = simulation
        self.declaredScene = Lazy(declaredScene)
        sceneKinds = Lazy { Set(simulation.scene.allIDs.dropFirst().compactMap { simulation.scene[$0]?.kind }) }
    }

    /// A snapshot's name, which names its picture file: a ``PlainFileName``, never a path.
    private func snapshotName(_ value: YAMLValue, of step: String = "snapshot") throws(ScenarioError) -> String {
        let name = try value.string(step)
        guard PlainFileName.isValid(name) else {
            throw value.error("\(step) names are file names: \(PlainFileName.rule); found \(FieldValue.string(name).jsonText)")
        }
        return name
    }

    /// `expect-accessible: all` or a list of rules (``AccessibilityRule``), each at most once.
    private func accessibilityRules(_ value: YAMLValue) throws(ScenarioError) -> [AccessibilityRule] {
        let names = AccessibilityRule.allCases.map(\.rawValue)
        if case .scalar = value.node {
            guard try value.string("expect-accessible") == "all" else {
                throw value.error("expect-accessible takes all, or a list of rules: \(names.joined(separator: ", "))")
            }
            return AccessibilityRule.allCases
        }
        var rules: [AccessibilityRule] = []
        for item in try value.sequence("expect-accessible's rules") {
            let rule = try accessibilityRule(item)
            guard !rules.contains(rule) else { throw item.error("rule '\(rule.rawValue)' is listed twice") }
            rules.append(rule)
        }
        guard !rules.isEmpty else { throw value.error("expect-accessible lists no rule; all checks every one") }
        return rules
    }

    /// One ``AccessibilityRule`` by its name.
    func accessibilityRule(_ value: YAMLValue) throws(ScenarioError) -> AccessibilityRule {
        let name = try value.string("a rule")
        guard let rule = AccessibilityRule(rawValue: name) else {
            let names = AccessibilityRule.allCases.map(\.rawValue)
            throw value.error(
                "unknown rule '\(name)'\(Suggestion.hint(for: name, among: names)); rules: \(names.joined(separator: ", "))")
        }
        return rule
    }

    /// `expect-picture: NAME` or `{name, tolerance}` (points, at most ``ScenarioLimits/deviceLength``).
    private func expectPicture(_ value: YAMLValue) throws(ScenarioError) -> Step.Action {
        if case .scalar = value.node {
            return .expectPicture(name: try snapshotName(value, of: "expect-picture"), tolerance: nil)
        }
        let entries = try value.mapping("expect-picture", allowed: ScenarioSyntax.expectPicture)
        guard let name = entries["name"] else { throw value.error("expect-picture needs a name") }
        let tolerance = try entries["tolerance"].map { value throws(ScenarioError) in
            let tolerance = try value.number("tolerance", minimum: 0)
            guard tolerance <= ScenarioLimits.deviceLength else {
                throw value.error(
                    "tolerance must be at most \(ScenarioLimits.deviceLength.shortDescription) points, found \(tolerance.shortDescription)"
                )
            }
            return tolerance
        }
        return .expectPicture(name: try snapshotName(name, of: "expect-picture"), tolerance: tolerance)
    }

    /// Moves the steps' clock, refusing to go past ``ScenarioLimits/runSeconds``.
    mutating func moveClock(to time: VirtualTime, at value: YAMLValue) throws(ScenarioError) {
        guard time.seconds <= ScenarioLimits.runSeconds else {
            throw value.error(
                "this step would take the scenario to \(time) s; a scenario runs at most "
                    + "\(Int(ScenarioLimits.runSeconds)) simulated seconds")
        }
        clock = time
    }

    mutating func step(_ value: YAMLValue) throws(ScenarioError) -> Step {
        let step = try read(value)
        if settlesAfterSteps, step.action.startsMotion {
            unknownLength = ("settle: auto's settle after the step", step.location)
            try moveClock(to: clock + Self.defaultWait, at: value)
        }
        return step
    }

    private mutating func read(_ value: YAMLValue) throws(ScenarioError) -> Step {
        // `- settle`, the one step written without an argument.
        if case .scalar(let scalar) = value.node, scalar.string == StepName.settle.rawValue {
            unknownLength = (scalar.string, value.location)
            return Step(action: try settle(nil, at: value), location: value.location)
        }
        let entries = try value.mapping("a step")
        guard entries.count == 1, let (name, key, argument) = entries.first else {
            let names = entries.map(\.key).joined(separator: ", ")
            throw value.error("a step has exactly one key (the step's name), found \(entries.isEmpty ? "none" : names)")
        }
        guard let stepName = StepName(rawValue: name) else {
            throw key.error(
                "unknown step '\(name)'\(Suggestion.hint(for: name, among: Self.stepNames)); "
                    + "steps: \(Self.stepNames.joined(separator: ", "))")
        }
        let action = try action(stepName, argument)
        if !action.hasKnownDuration { unknownLength = (name, key.location) }
        return Step(action: action, location: key.location)
    }

    /// Throws unless a time may be named here: not after a step whose length is known only when it
    /// runs, where the time could already be past.
    private func checkTimeMayBeNamed(_ step: String, at value: YAMLValue) throws(ScenarioError) {
        guard let (name, location) = unknownLength else { return }
        throw value.error(
            "\(step) names a time from the start, but \(name) at line \(location.line) takes as long as it takes "
                + "when it runs; use wait: (seconds from the step before) after it")
    }

    private mutating func action(_ name: StepName, _ argument: YAMLValue) throws(ScenarioError) -> Step.Action {
        switch name {
        case .tap: return try tap(argument)
        case .wait:
            let duration = try argument.seconds("wait")
            try moveClock(to: clock + duration, at: argument)
            return .wait(duration)
        case .at:
            try checkTimeMayBeNamed("at", at: argument)
            let time = try argument.seconds("at")
            guard time >= clock else {
                throw argument.error("at \(time) s is before the time already reached, \(clock) s")
            }
            try moveClock(to: time, at: argument)
            return .advance(to: time)
        case .expect: return .expect(try expectations(argument))
        case .type:
            let entries = try argument.mapping("type", allowed: ScenarioSyntax.type)
            guard let into = entries["into"], let textValue = entries["text"] else {
                throw argument.error("type needs into (a text field) and text")
            }
            let text = try textValue.string("text")
            let action = try nodeEvent(.text(text), at: into, of: "type", textInput: true)
            // The field's text in the set-up with this one appended (a query's field is found when
            // the step runs: this text alone); what earlier steps typed, the run checks.
            if case .inject(.text(let input)) = action {
                guard ScenarioLimits.textFits(simulation.scene[input.target]?.text ?? "", appending: text) else {
                    throw textValue.error("\(InjectionError.textTooLong(target: input.target))")
                }
            } else {
                do { try ScenarioLimits.checkText(text, path: "text") } catch { throw textValue.error("type: \(error)") }
            }
            return action
        case .return: return try nodeEvent(.returnKey, at: argument, of: "return", textInput: true)
        case .focus: return try nodeEvent(.focus, at: argument, of: "focus", textInput: true)
        case .resign:
            if case .scalar = argument.node, try argument.string("resign") == "all" {
                return .inject(.resign(ResignRequest(target: nil)))
            }
            return try nodeEvent(.resign, at: argument, of: "resign")
        case .keyboard: return try keyboard(argument)
        case .motion: return try motion(argument)
        case .rotate:
            orientation = try argument.choice("rotate", as: Orientation.self)
            return .inject(.orientation(OrientationChange(value: orientation)))
        case .network:
            if case .mapping = argument.node {
                let entries = try argument.mapping("network", allowed: ScenarioSyntax.network)
                guard let online = entries["online"] else { throw argument.error("network needs online: true or false") }
                return .inject(.network(NetworkChange(online: try online.bool("online"))))
            }
            return .inject(.network(NetworkChange(online: try argument.bool("network"))))
        case .emit:
            let (event, time) = try emit(argument)
            return time.map { .schedule(event, at: $0) } ?? .inject(event)
        case .set: return try set(argument)
        case .tapStatusBar:
            guard try argument.bool("tap-status-bar") else {
                throw argument.error("tap-status-bar takes true (a tap on the status bar); leave the step out for none")
            }
            return .inject(.statusBarTap(StatusBarTap()))
        case .animate: return .animate(try PropertyAnimationReader.read(argument, in: simulation))
        case .activate:
            guard let layout = simulation.layout else { throw argument.error("activate needs scene.constraints with sets") }
            return .activate(try LayoutSpecReader.names(argument, among: layout.constraintSetNames))
        case .expectEvent: return .expectEvent(try eventExpectation(argument, step: name.rawValue))
        case .expectNoEvent:
            var expectation = try eventExpectation(argument, step: name.rawValue, allowsCount: false)
            expectation.count = 0...0
            return .expectNoEvent(expectation)
        case .snapshot:
            return .snapshot(try snapshotName(argument))
        case .drag: return try touches(argument, touchSteps.drag)
        case .swipe: return try touches(argument, touchSteps.swipe)
        case .fling: return try touches(argument, touchSteps.fling)
        case .longPress: return try touches(argument, touchSteps.longPress)
        case .pinch: return try touches(argument, touchSteps.pinch)
        case .touches: return try touches(argument, touchSteps.stream)
        case .expectPicture: return try expectPicture(argument)
        case .expectVisible: return .expectVisible(node: try nodeQuery(argument, of: name.rawValue), visible: true)
        case .expectNotVisible: return .expectVisible(node: try nodeQuery(argument, of: name.rawValue), visible: false)
        case .scrollUntilVisible:
            let scroll = try scrollUntilVisible(argument)
            try moveClock(to: clock + scroll.longestDuration, at: argument)
            return .scrollUntilVisible(scroll)
        case .settle: return try settle(argument, at: argument)
        case .waitUntil: return try waitUntil(argument)
        case .expectAccessible: return .expectAccessible(try accessibilityRules(argument))
        }
    }

    /// `scroll-until-visible: {node, in, direction?, max?}`: `in` a scroll view that `node` is inside.
    private func scrollUntilVisible(_ value: YAMLValue) throws(ScenarioError) -> ScrollUntilVisible {
        let entries = try value.mapping("scroll-until-visible", allowed: ScenarioSyntax.scrollUntilVisible)
        guard let nodeValue = entries["node"], let inValue = entries["in"] else {
            throw value.error("scroll-until-visible needs node: NODE and in: SCROLLVIEW")
        }
        let node = try nodeQuery(nodeValue, of: "scroll-until-visible")
        let scrollView = try nodeQuery(inValue, of: "scroll-until-visible")
        // Ids are checked now; what queries find, the run checks.
        if let id = scrollView.isID ? scrollView.id : nil, simulation.scene[id]?.kind != .scrollView {
            let scrollViews = simulation.scene.allIDs.filter { simulation.scene[$0]?.kind == .scrollView }
            throw inValue.error(
                "node '\(id)' is not a scroll view; scroll views: \(scrollViews.isEmpty ? "none" : scrollViews.joined(separator: ", "))"
            )
        }
        if let id = node.isID ? node.id : nil, let scroll = scrollView.isID ? scrollView.id : nil,
            !simulation.scene.ancestors(of: id).contains(scroll)
        {
            throw nodeValue.error("node '\(id)' is not inside \(scroll), so dragging \(scroll) does not move it")
        }
        let direction = try entries["direction"].map { value throws(ScenarioError) in
            try value.choice("direction", as: SwipeDirection.self)
        }
        let maximum =
            try entries["max"].map { value throws(ScenarioError) in
                let number = try value.number("max", minimum: 1)
                guard number == number.rounded(), number <= Double(ScenarioLimits.scrollDrags) else {
                    throw value.error(
                        "max must be a whole number of drags from 1 to \(ScenarioLimits.scrollDrags), found \(number.shortDescription)"
                    )
                }
                return Int(number)
            } ?? ScrollUntilVisible.defaultMaximumDrags
        return ScrollUntilVisible(node: node, scrollView: scrollView, direction: direction, maximumDrags: maximum)
    }

    /// A touch step read by `read` against the screen the steps have reached; the clock moves on by its duration.
    private mutating func touches(
        _ argument: YAMLValue,
        _ read: (YAMLValue, TouchStepReader.Screen) throws(ScenarioError) -> TouchStreamStep
    )
        throws(ScenarioError) -> Step.Action
    {
        let portrait = simulation.device.screen
        let size = orientation.isLandscape ? Size(width: portrait.height, height: portrait.width) : portrait
        let screen = TouchStepReader.Screen(
            size: size, rate: simulation.device.refreshRate, scene: simulation.scene,
            query: { [self] value, step throws(ScenarioError) in try nodeQuery(value, of: step) })
        let stream = try read(argument, screen)
        try moveClock(to: clock + stream.duration, at: argument)
        return .touchStream(stream)
    }

    // MARK: Nodes and events

    /// A node id the scene has (``nodeQuery(_:of:)`` reads every node argument of a step through it).
    func node(_ value: YAMLValue) throws(ScenarioError) -> String {
        let id = try value.string("a node id")
        guard simulation.scene.contains(id) else {
            let known = simulation.scene.allIDs
            throw value.error(
                "unknown node '\(id)'\(Suggestion.hint(for: id, among: known)); nodes: \(known.joined(separator: ", "))")
        }
        return id
    }

    /// A node argument of `step`: an id, checked now (it must be in the scene), or a query mapping
    /// (``NodeQuery``: `{text: "Log in"}`, `{label: Password, index: 1}`), its form checked now and
    /// found when the step runs, as the scene is then. A query that no node of this scene can
    /// ever match is refused now: see ``checkCanMatch(_:at:of:)``.
    func nodeQuery(_ value: YAMLValue, of step: String) throws(ScenarioError) -> NodeQuery {
        if case .scalar = value.node { return .id(try node(value)) }
        let entries = try value.mapping("a node query", allowed: NodeQuery.keys)
        for (key, entry) in entries where try entry.fieldValue(key) == nil {
            throw entry.error("\(step): \(key) must not be null")
        }
        guard case .dictionary(let fields)? = try value.fieldValue("a node query") else {
            throw value.error("a node query must be a mapping")
        }
        let query: NodeQuery
        do {
            query = try NodeQuery(fields: fields)
        } catch {
            throw ScenarioError("\(step): \(error)", at: value.location(ofField: error.path))
        }
        if query.isID, let id = entries["id"] { return .id(try node(id)) }
        try checkCanMatch(query, at: value, of: step)
        return query
    }

    /// Refuses a query no node can ever match: a scenario with no plugin never adds a node nor
    /// changes a node's id or kind (steps change texts, labels and traits, never those), so the
    /// query's `id` and `kind` must fit a node of its scene now. With a plugin (which may add
    /// nodes) everything is left to the run.
    /// Each check costs a look-up, not a search of the scene: a file's 10,000 steps may each
    /// query a 10,000-node scene.
    private func checkCanMatch(_ query: NodeQuery, at value: YAMLValue, of step: String) throws(ScenarioError) {
        let fixed = NodeQuery(id: query.id, kind: query.kind)
        guard simulation.pluginIDs.isEmpty, fixed.id != nil || fixed.kind != nil else { return }
        let canMatch =
            fixed.id.map { id in id != Scene.rootID && simulation.scene.read(id) { fixed.matches($0) } == true }
            ?? fixed.kind.map(sceneKinds.value.contains) ?? true
        guard !canMatch else { return }
        do {
            _ = try fixed.at(0).resolve(in: simulation.scene)  // any of several will do
        } catch {
            var error = error
            error.query = fixed
            throw value.error(
                "\(step): no node can ever match \(query): \(error); nothing adds nodes to this scene (it has no plugins)")
        }
    }

    /// The event of `kind` at the node `value` names: injected at once for an id (a text field's,
    /// when `textInput`), at the node found when the step runs for a query.
    private func nodeEvent(
        _ kind: QueriedEvent.Kind, at value: YAMLValue, of step: String,
        textInput: Bool = false
    ) throws(ScenarioError) -> Step.Action {
        let query = try nodeQuery(value, of: step)
        let queried = QueriedEvent(query: query, kind: kind)
        guard query.isID, let id = query.id else { return .injectQueried(queried) }
        guard !textInput || simulation.scene[id]?.kind.isTextInput == true else {
            let fields = simulation.scene.allIDs.filter { simulation.scene[$0]?.kind.isTextInput == true }
            throw value.error(
                "node '\(id)' is not a text field; text fields: \(fields.isEmpty ? "none" : fields.joined(separator: ", "))")
        }
        return .inject(queried.event(target: id))
    }

    /// `tap: NODE` (an id or a query), or `tap: {x, y}` in screen points.
    private func tap(_ value: YAMLValue) throws(ScenarioError) -> Step.Action {
        guard case .mapping = value.node, try value.mapping("tap").contains(where: { ScenarioSyntax.tapPoint.contains($0.key) })
        else {
            return try nodeEvent(.tap, at: value, of: "tap")
        }
        let entries = try value.mapping("tap", allowed: ScenarioSyntax.tapPoint)
        guard let x = entries["x"], let y = entries["y"] else { throw value.error("tap needs a node id, or x and y") }
        return .inject(.tap(Tap(point: Point(x: try x.number("x"), y: try y.number("y")))))
    }

    private func eventName(_ value: YAMLValue) throws(ScenarioError) -> String {
        let name = try value.string("an event name")
        let known = simulation.eventVocabulary.map(\.name)
        guard known.contains(name) else {
            throw value.error(
                "unknown event '\(name)'\(Suggestion.hint(for: name, among: known)); "
                    + "see `rehearse events` for the vocabulary")
        }
        return name
    }

    /// `emit: {name, fields, at}`: the event, and when it is due if not now.
    func emit(_ value: YAMLValue) throws(ScenarioError) -> (Event, VirtualTime?) {
        let entries = try value.mapping("emit", allowed: ScenarioSyntax.emit)
        let time = try entries["at"].map { at throws(ScenarioError) in
            try checkTimeMayBeNamed("emit's at", at: at)
            let time = try at.seconds("at")
            guard time >= clock else { throw at.error("at \(time) s is before the time already reached, \(clock) s") }
            return time
        }
        guard let nameValue = entries["name"] else { throw value.error("emit needs a name") }
        let name = try eventName(nameValue)
        var fields: Fields = [:]
        if let fieldsValue = entries["fields"] {
            guard case .dictionary(let given)? = try fieldsValue.fieldValue("fields") else {
                throw fieldsValue.error("fields must be a mapping, found \(fieldsValue.typeName)")
            }
            fields = given
        }
        do {
            let event = try Event(name: name, fields: fields)
            try simulation.check(event)
            return (event, time)
        } catch let error as FieldError {
            throw ScenarioError("\(name): \(error)", at: (entries["fields"] ?? value).location(ofField: error.path))
        } catch {
            throw value.error("\(name): \(error)")
        }
    }

    private func eventExpectation(_ value: YAMLValue, step: String, allowsCount: Bool = true) throws(ScenarioError)
        -> EventExpectation
    {
        if case .scalar = value.node { return EventExpectation(name: try eventName(value), fields: [:], count: 1...Int.max) }
        let entries = try value.mapping(
            step, allowed: allowsCount ? ScenarioSyntax.eventExpectation : ScenarioSyntax.noEventExpectation)
        guard let nameValue = entries["name"] else { throw value.error("\(step) needs a name") }
        var expectation = EventExpectation(name: try eventName(nameValue), fields: [:], count: 1...Int.max)
        if let fieldsValue = entries["fields"] {
            guard case .dictionary(let fields)? = try fieldsValue.fieldValue("fields") else {
                throw fieldsValue.error("fields must be a mapping, found \(fieldsValue.typeName)")
            }
            try checkDeclared(fields, of: expectation.name, at: fieldsValue)
            try checkApproximations(in: fieldsValue)
            expectation.fields = fields
        }
        if let countValue = entries["count"] { expectation.count = try count(countValue) }
        return expectation
    }

    /// `{approx: N, within: W}` (a number within W of N), or nil for a value that is not a mapping
    /// with either key; a mapping with one must have exactly both, numbers, W not negative.
    private func approximation(_ value: YAMLValue) throws(ScenarioError) -> (Double, Double)? {
        guard case .mapping = value.node,
            try value.mapping("an expected value").contains(where: { ScenarioSyntax.approximate.contains($0.key) })
        else { return nil }
        let entries = try value.mapping("an approximate value", allowed: ScenarioSyntax.approximate)
        guard let approx = entries["approx"], let within = entries["within"] else {
            throw value.error("an approximate value needs approx and within")
        }
        return (try approx.number("approx"), try within.number("within", minimum: 0))
    }

    /// Reads every `{approx, within}` nested in an expected value (``approximation(_:)``), so a
    /// malformed one is refused here rather than never matching.
    private func checkApproximations(in value: YAMLValue) throws(ScenarioError) {
        switch value.node {
        case .mapping:
            if try approximation(value) != nil { return }
            for entry in try value.mapping("an expected value") { try checkApproximations(in: entry.value) }
        case .sequence:
            for item in try value.sequence("an expected value") { try checkApproximations(in: item) }
        case .scalar, .alias:
            return
        }
    }

    /// That every field expected is one the event declares: a misspelt field (`usernme`) would
    /// never match, and the step would fail (or `expect-no-event` pass) for a typo.
    private func checkDeclared(_ fields: Fields, of name: String, at value: YAMLValue) throws(ScenarioError) {
        guard
            let (required, optional) = BuiltinEvent(name: name)?.declaredFields
                ?? simulation.declaredEvent(named: name)?.declaredFields
        else { return }
        let declared = required.union(optional).sorted()
        for key in fields.keys.sorted() where !declared.contains(key) {
            throw ScenarioError(
                "\(name) has no field '\(key)'\(Suggestion.hint(for: key, among: declared)); "
                    + "its fields: \(declared.isEmpty ? "none" : declared.joined(separator: ", "))",
                at: value.location(ofField: key))
        }
    }

    private func count(_ value: YAMLValue) throws(ScenarioError) -> ClosedRange<Int> {
        if case .scalar = value.node {
            let count = try value.number("count", minimum: 0)
            guard count == count.rounded(), count <= Double(ScenarioLimits.eventCount) else {
                throw value.error(
                    "count must be a whole number up to \(ScenarioLimits.eventCount), found \(count.shortDescription)")
            }
            return Int(count)...Int(count)
        }
        let entries = try value.mapping("count", allowed: ScenarioSyntax.count)
        guard let between = entries["between"], case let bounds = try between.sequence("between"), bounds.count == 2 else {
            throw value.error("count must be a number or {between: [low, high]}")
        }
        let low = try bounds[0].number("the low bound", minimum: 0)
        let high = try bounds[1].number("the high bound", minimum: low)
        guard low == low.rounded(), high == high.rounded(), high <= Double(ScenarioLimits.eventCount) else {
            throw between.error("between needs two whole numbers up to \(ScenarioLimits.eventCount)")
        }
        return Int(low)...Int(high)
    }

    // MARK: Expectations and changes

    /// Checks that `path` names something, and returns its value in the simulation every run starts
    /// from (nil where it has none yet).
    @discardableResult
    func checkPath(_ path: String, at value: YAMLValue) throws(ScenarioError) -> FieldValue? {
        do {
            let head = String(path.prefix { $0 != "." })
            if !simulation.scene.contains(head), let declared = declaredScene.value, declared.scene.contains(head) {
                // A node the scene declares that a plugin has taken out for now (a gateway's
                // other children): check the path against the scene as declared.
                return try declared.value(at: path)
            } else {
                return try simulation.value(at: path)
            }
        } catch {
            throw value.error("\(error)")
        }
    }

    private func expectations(_ value: YAMLValue) throws(ScenarioError) -> [Expectation] {
        let entries = try value.mapping("expect")
        guard !entries.isEmpty else { throw value.error("expect needs at least one path: value") }
        var result: [Expectation] = []
        for (path, key, expected) in entries {
            try checkPath(path, at: key)
            result.append(Expectation(path: path, matcher: try matcher(expected), location: key.location))
        }
        return result
    }

    private func matcher(_ value: YAMLValue) throws(ScenarioError) -> ValueMatcher {
        guard case .mapping = value.node else { return .equals(try value.fieldValue("an expected value")) }
        let keys = try value.mapping("an expected value").map(\.key)
        if let (approx, within) = try approximation(value) { return .approx(approx, within: within) }
        try checkApproximations(in: value)
        if keys == ["between"], let between = try value.mapping("a range", allowed: ["between"])["between"] {
            let bounds = try between.sequence("between")
            guard bounds.count == 2 else { throw between.error("between needs two numbers, [low, high]") }
            let low = try bounds[0].number("the low bound")
            return .between(low, try bounds[1].number("the high bound", minimum: low))
        }
        return .equals(try value.fieldValue("an expected value"))
    }

    private func set(_ value: YAMLValue) throws(ScenarioError) -> Step.Action {
        var changes: [(path: String, value: FieldValue, location: SourceLocation)] = []
        let entries = try value.mapping("set")
        guard !entries.isEmpty else { throw value.error("set needs at least one path: value") }
        for (path, key, newValue) in entries {
            try checkPath(path, at: key)
            guard let field = try newValue.fieldValue("a new value") else { throw newValue.error("a new value cannot be null") }
            do {
                try simulation.checkSetting(field, at: path)
            } catch {
                throw newValue.error("\(error)")
            }
            changes.append((path, field, key.location))
        }
        return .set(changes)
    }

    private mutating func keyboard(_ value: YAMLValue) throws(ScenarioError) -> Step.Action {
        if case .scalar = value.node {
            guard try value.string("keyboard") == "hide" else { throw value.error("keyboard must be hide, or {show: true, ...}") }
            return .keyboardHide
        }
        let entries = try value.mapping("keyboard", allowed: ScenarioSyntax.keyboard)
        guard let show = entries["show"] else { throw value.error("keyboard needs show: true or false") }
        guard try show.bool("show") else {
            guard entries.count == 1 else { throw value.error("keyboard: {show: false} takes no other keys") }
            return .keyboardHide
        }
        return .keyboardShow(
            height: try entries["height"].map { value throws(ScenarioError) in try value.length("height") },
            duration: try entries["duration"].map { value throws(ScenarioError) in try value.seconds("duration").seconds }
                ?? KeyboardService.animationDuration,
            curve: try entries["curve"].map { value throws(ScenarioError) in try value.choice("curve", as: NamedCurve.self) }
                ?? .keyboard)
    }

    private mutating func motion(_ value: YAMLValue) throws(ScenarioError) -> Step.Action {
        guard case .dictionary(var fields)? = try value.fieldValue("motion") else {
            throw value.error("motion must be a mapping {rotationRate: {x, y, z}, for?, hz?}, found \(value.typeName)")
        }
        let entries = try value.mapping("motion")
        let duration = fields.removeValue(forKey: "for")
        let rate = fields.removeValue(forKey: "hz")
        let sample: MotionSample
        do {
            sample = try MotionSample(fields: fields)
        } catch {
            throw ScenarioError("motion: \(error)", at: value.location(ofField: error.path))
        }
        guard duration != nil || rate == nil else { throw value.error("hz needs for: (the stream's length in seconds)") }
        guard duration != nil, let forValue = entries.first(where: { $0.key == "for" })?.value else {
            return .inject(.motion(sample))
        }
        let seconds = try forValue.seconds("for")
        let hzValue = entries.first { $0.key == "hz" }?.value
        let rates = ScenarioLimits.motionRate
        let hz =
            try hzValue.map { value throws(ScenarioError) in try value.number("hz", minimum: Double(rates.lowerBound)) } ?? 60
        guard hz <= Double(rates.upperBound) else {
            throw (hzValue ?? value).error("hz must be at most \(rates.upperBound), found \(hz)")
        }
        let count = (seconds.seconds * hz).rounded(.down)
        guard count >= 1 else { throw forValue.error("for: \(seconds) s at \(hz) Hz holds no sample") }
        guard Double(motionSamples) + count <= Double(ScenarioLimits.motionSamples) else {
            throw forValue.error(
                "for: \(seconds) s at \(hz.shortDescription) Hz is \(count.shortDescription) samples; "
                    + "the motion streams of a scenario hold at most \(ScenarioLimits.motionSamples) samples")
        }
        motionSamples += Int(count)
        try moveClock(to: clock + seconds, at: forValue)
        return .motionStream(sample, count: Int(count), duration: seconds)
    }
}

/// A value made the first time it is read, and kept.
final class Lazy<Value> {
    private var made: Value?
    private let make: () -> Value

    init(_ make: @escaping () -> Value) {
        self.make = make
    }

    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
