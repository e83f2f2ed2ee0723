import RehearseCore

/// One run in progress: the simulation, what it delivered that reports need, and what failed.
final class ScenarioExecution {
    let simulation: Simulation
    /// The events that event expectations may count (those of the names they name), from the
    /// start of the current window on: a long run keeps no more than its checks need.
    private var delivered: [DeliveredEvent] = []
    /// The last few events, whatever their names, for a failure's report.
    private var recent: [DeliveredEvent] = []
    let meter: BudgetMeter
    /// Why the run stopped early (its work budget or its pictures' were spent); nothing more runs.
    var stopReason: String?
    /// The nodes drawn in the run's pictures so far.
    var pictureNodes = 0
    /// The bytes of golden pictures read in the run so far.
    var referenceBytes = 0
    private(set) var failures: [Failure] = []
    private(set) var snapshots: [(name: String, snapshot: SceneSnapshot)] = []
    private(set) var filmstrip: [SceneSnapshot] = []
    private(set) var plots: [PlotSeries] = []
    private let stopTime: VirtualTime?
    private var rendersSnapshots = false
    var pictureOptions = ScenarioRunner.PictureOptions()
    let references: PictureReferences?
    /// What the run says beside its outcome (golden pictures recorded).
    var notes: [String] = []
    /// Whether the audit has kept its most findings (``maximumFindings``).
    var findingsFull = false
    var pictureMismatches: [PictureMismatch] = []
    var stepPictures: [StepPicture] = []
    /// With `audits`, what broke the accessibility rules (``auditStep(_:)``), and the breaches
    /// after the last step audited, by rule and node.
    var accessibilityFindings: [AccessibilityFinding] = []
    var auditBreaches: Set<[String]> = []
    /// The breaches, by rule and node, that a deviation of the file covered after some step.
    var deviatedBreaches: Set<[String]> = []
    /// The file's deviations from the accessibility rules (``AccessibilityDeviation``).
    let deviations: [AccessibilityDeviation]
    /// Whether each failure keeps the scene at its moment.
    var picturesFailures = false
    var stepPicturesFull = false
    /// The frames of the gesture step being run, when the report shows them.
    var gestureFrames: GestureFrameRecorder?
    /// The gesture frames of the run so far, and whether the next gesture steps show none
    /// (``ScenarioRunner/Rendering/maximumGestureFramesPerRun`` was reached).
    var gestureFrameCount = 0
    var gestureFramesFull = false
    /// Where the window of event expectations starts in `delivered`: adjacent `expect-event` and
    /// `expect-no-event` steps share one window, which the next other step closes.
    private var eventWindowStart = 0
    private var eventWindowEnd: Int?
    /// The step being performed: a broken invariant is reported at the step that broke it.
    private(set) var currentLocation: SourceLocation

    init(
        simulation: Simulation, scenario: Scenario, trace: ((DeliveredEvent) -> Void)?, stopTime: VirtualTime?, budget: WorkBudget
    ) {
        self.simulation = simulation
        self.stopTime = stopTime
        deviations = scenario.accessibilityDeviations
        meter = BudgetMeter(simulation, budget: budget)
        currentLocation = SourceLocation(file: scenario.file, line: 1, column: 1)
        references = PictureReferences(scenarioFile: scenario.file)
        let counted = Set(
            scenario.steps.compactMap { step -> String? in
                switch step.action {
                case .expectEvent(let expectation), .expectNoEvent(let expectation): expectation.name
                case .inject, .injectQueried, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect,
                    .set,
                    .animate, .activate, .snapshot, .touchStream, .expectPicture, .expectVisible, .scrollUntilVisible, .settle,
                    .waitUntil,
                    .expectAccessible:
                    nil
                }
            })
        simulation.bus.subscribe(.all, owner: "scenario") { [unowned self] event in
            if counted.contains(event.event.name) { delivered.append(event) }
            if recent.count == ScenarioRunner.recentEventCount { recent.removeFirst() }
            recent.append(event)
            trace?(event)
            if case .invariantFailed(let failure) = event.event {
                record(
                    "invariant '\(failure.name)' (\(failure.owner))", expected: failure.expected, actual: failure.actual,
                    at: currentLocation)
            }
        }
    }

    /// Whether the run has reached its stop time, or spent its budget.
    var hasStopped: Bool { stopReason != nil || (stopTime.map { simulation.now >= $0 } ?? false) }

    /// Runs the simulation to `time` (or its stop time, if that comes first) within the budget;
    /// returns whether the clock got to `time`.
    @discardableResult
    func advance(to time: VirtualTime) -> Bool {
        guard stopReason == nil else { return false }
        do {
            try meter.run(until: limited(time))
        } catch {
            stopReason = "\(error)"
        }
        return stopReason == nil && simulation.now >= time
    }

    /// Runs the next piece of work due by `time` (or the clock to `time` when none is), within
    /// the budget and the stop time; returns whether the run may go on.
    private func step(until time: VirtualTime) -> Bool {
        guard stopReason == nil else { return false }
        do {
            try meter.step(until: limited(time))
        } catch {
            stopReason = "\(error)"
        }
        return !hasStopped
    }

    /// Settles (``Simulation/settle(within:advancing:)``) within `timeout`; what still moves then
    /// fails the step at `location`, the first few of them named.
    func settle(within timeout: VirtualTime, at location: SourceLocation, _ subject: String = "settle") {
        let moving = simulation.settle(within: timeout) { [unowned self] time in advance(to: time) }
        guard !moving.isEmpty, !hasStopped else { return }
        record(subject, expected: "nothing moving within \(timeout) s", actual: MovingThing.list(moving), at: location)
    }

    /// The picture of the scene now, or nil (and the run stopped) once the run's pictures would
    /// draw more than ``ScenarioRunner/Rendering/maximumPictureNodes``.
    func picture() -> SceneSnapshot? {
        guard stopReason == nil else { return nil }
        let snapshot = SceneSnapshot(simulation)
        pictureNodes += snapshot.items.count + 1
        guard pictureNodes <= ScenarioRunner.Rendering.maximumPictureNodes else {
            stopReason =
                "the pictures of this run would draw more than \(ScenarioRunner.Rendering.maximumPictureNodes) nodes "
                + "(snapshots, expect-picture steps and filmstrip frames times the nodes on screen), the most one run draws; "
                + "take fewer pictures"
            return nil
        }
        return snapshot
    }

    /// Samples the plot paths on every display frame and the filmstrip at even intervals up to
    /// `end`. The samplers only read, so the trace is the same with or without them.
    func startRendering(_ rendering: ScenarioRunner.Rendering, until end: VirtualTime) {
        rendersSnapshots = true
        if rendering.filmstripFrames > 0 {
            let interval = VirtualTime(nanoseconds: max(end.nanoseconds / Int64(rendering.filmstripFrames - 1), 1))
            sample(every: interval, until: end) { [unowned self] in
                if let picture = picture() { filmstrip.append(picture) }
            }
        }
        guard !rendering.plotPaths.isEmpty else { return }
        plots = rendering.plotPaths.map { PlotSeries(path: $0, samples: []) }
        let frame = simulation.displayLink.time(ofFrame: 1)
        let spread = VirtualTime(nanoseconds: end.nanoseconds / Int64(ScenarioRunner.Rendering.maximumPlotSamples))
        let readers = plots.map { simulation.reader(for: ValuePath($0.path)) }  // resolved once, read every frame
        sample(every: max(frame, spread), until: end) { [unowned self] in
            for index in plots.indices {
                let value = (try? simulation.value(of: readers[index]))??.number
                plots[index].samples.append((simulation.now, value))
            }
        }
    }

    /// Calls `take` every `interval` from `start` (now) to `end`, while `going` holds.
    func sample(
        every interval: VirtualTime, until end: VirtualTime, from start: VirtualTime? = nil,
        while going: @escaping () -> Bool = { true }, _ take: @escaping () -> Void
    ) {
        let time = start ?? simulation.now
        simulation.timeline.schedule(at: time, owner: "renderer", background: true) { [unowned self] in
            guard going() else { return }
            take()
            if time + interval <= end { sample(every: interval, until: end, from: time + interval, while: going, take) }
        }
    }

    func perform(_ step: Step) {
        currentLocation = step.location
        switch step.action {
        case .expectEvent, .expectNoEvent:
            eventWindowEnd = delivered.count
        case .inject, .injectQueried, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect, .set,
            .animate, .activate, .snapshot, .touchStream, .expectPicture, .expectVisible, .scrollUntilVisible, .settle,
            .waitUntil,
            .expectAccessible:
            if let end = eventWindowEnd {
                // The window is closed: what came before it is never counted again.
                delivered.removeFirst(end)
                eventWindowStart = 0
            }
            eventWindowEnd = nil
        }
        defer { if stopReason == nil, let exceeded = meter.exceeded { stopReason = "\(exceeded)" } }
        switch step.action {
        case .inject(let event):
            do { try simulation.inject(event) } catch { fail(step, "\(event.name) could not be injected", "\(error)") }
        case .injectQueried(let queried):
            guard let target = node(queried.query, for: step) else { break }
            let event = queried.event(target: target)
            do { try simulation.inject(event) } catch { fail(step, "\(event.name) could not be injected", "\(error)") }
        case .schedule(let event, let time):
            do { try simulation.inject(event, at: time) } catch { fail(step, "\(event.name) could not be injected", "\(error)") }
        case .motionStream(let sample, let count, let duration):
            // Sample k at start + k × duration / count: whole nanoseconds with no drift.
            let start = simulation.now
            for index in 0..<count {
                // Full width: duration × index can pass Int64 though the quotient never does.
                let offset = Int64(count).dividingFullWidth(duration.nanoseconds.multipliedFullWidth(by: Int64(index))).quotient
                try? simulation.inject(.motion(sample), at: start + VirtualTime(nanoseconds: offset))
            }
            advance(to: start + duration)
        case .touchStream(let stream):
            let start = simulation.now
            inject(stream, at: step)
            advance(to: start + stream.duration)
        case .wait(let duration):
            advance(to: simulation.now + duration)
        case .advance(let time):
            // Only `rehearse run --settle` can have taken the clock past a time the file gives.
            guard time >= simulation.now else {
                return fail(
                    step, "at \(time) s",
                    "the clock had reached \(simulation.now) s, settling after the steps before "
                        + "(--settle); use wait: (seconds from the step before) instead")
            }
            advance(to: time)
        case .settle(let timeout):
            settle(within: timeout, at: step.location)
        case .waitUntil(let condition, let timeout):
            let held = simulation.wait(until: { simulation.holds(condition) }, within: timeout) { [unowned self] deadline in
                self.step(until: deadline)
            }
            guard !held, !hasStopped else { return }
            let (actual, expected) = simulation.sides(of: condition)
            record("wait-until \(condition)", expected: "\(expected) within \(timeout) s", actual: actual, at: step.location)
        case .keyboardShow(let height, let duration, let curve):
            simulation.keyboard.show(height: height, duration: duration, curve: curve)
        case .keyboardHide:
            simulation.keyboard.hide()
        case .expect(let expectations):
            for expectation in expectations { check(expectation) }
        case .expectEvent(let expectation), .expectNoEvent(let expectation):
            check(expectation, at: step)
        case .set(let changes):
            for change in changes {
                do { try simulation.setValue(change.value, at: change.path) } catch {
                    fail(step, "set \(change.path)", "\(error)")
                }
            }
            simulation.checkInvariants()
        case .animate(let animation):
            do {
                try simulation.animator.animate(animation.parameters, owner: "scenario") {
                    try simulation.setValue(animation.value, at: animation.path)
                }
            } catch {
                fail(step, "animate \(animation.path)", "\(error)")
            }
        case .activate(let names):
            do { try simulation.layout?.activate(names) } catch {
                fail(step, "activate \(names.joined(separator: ", "))", "\(error)")
            }
            simulation.checkInvariants()
        case .snapshot(let name):
            if rendersSnapshots, let picture = picture() { snapshots.append((name, picture)) }
        case .expectPicture(let name, let tolerance):
            if let picture = picture() {
                check(picture, against: name, tolerance: tolerance ?? pictureOptions.tolerance, at: step)
            }
        case .expectVisible(let query, let visible):
            guard let node = node(query, for: step) else { return }
            let visibility = simulation.visibility(of: node)
            guard visibility.isVisible != visible else { return }
            record(
                node, expected: visible ? "visible" : "not visible",
                actual: visibility.problem.map { "\(node): \($0)" } ?? "visible (\(visibility.visiblePart))", at: step.location)
        case .scrollUntilVisible(let scroll):
            scrollUntilVisible(scroll, at: step)
        case .expectAccessible(let rules):
            let breaches = AccessibilityAudit.breaches(in: simulation, read: &meter.queriedNodes).filter {
                rules.contains($0.rule) && deviation(from: $0) == nil
            }
            for breach in breaches.prefix(Self.reportedBreaches) {
                record(
                    "\(breach.node) [\(breach.rule.rawValue)]", expected: breach.rule.summary, actual: breach.message,
                    at: step.location)
            }
            let rest = breaches.dropFirst(Self.reportedBreaches)
            if !rest.isEmpty {
                let broken = rules.filter { rule in rest.contains { $0.rule == rule } }.map(\.rawValue).joined(separator: ", ")
                record(
                    "\(rest.count) more breaches of \(broken)", expected: "no node breaks them",
                    actual: "the first \(Self.reportedBreaches) breaches are said one by one", at: step.location)
            }
        }
    }

    /// Injects a touch step's fingers at their times from now: its screen points, or its gesture
    /// placed on its node as it is now. A gesture that cannot be placed (its node not visible, a
    /// finger off the screen) or touches the simulation refuses fail the step.
    func inject(_ stream: TouchStreamStep, at step: Step) {
        do {
            var touches = stream.events
            if let aim = stream.aim {
                guard let node = node(aim.node, for: step) else { return }
                touches = try simulation.place(aim.gesture, fingers: aim.fingers, on: GestureAnchor(node: node, at: aim.at))
            }
            try simulation.inject(touches)
            noteGestureTouches(touches)
        } catch {
            fail(step, stream.aim.map { "\($0.gesture.name) on \($0.node)" } ?? "the touches could not be injected", "\(error)")
        }
    }

    /// The node `query` finds in the scene now, or nil with the step failed, saying why (the nearest
    /// nodes, or the several that match). Only the first ``rankedMisses`` misses of a run rank the
    /// nearest nodes: each costs a comparison with every node, and a file's 10,000 steps could ask.
    /// The nodes each query reads count against the budget (``WorkBudget/maximumQueriedNodes``):
    /// past it the run stops, the step not done.
    func node(_ query: NodeQuery, for step: Step) -> String? {
        do {
            let id = try query.resolve(in: simulation.scene, ranking: misses < Self.rankedMisses, read: &meter.queriedNodes)
            if let exceeded = meter.exceeded {
                stopReason = "\(exceeded)"
                return nil
            }
            return id
        } catch {
            if error.problem == .noMatch { misses += 1 }
            fail(step, "find \(query)", "\(error)")
            return nil
        }
    }

    /// How many of the nodes that break its rules an `expect-accessible` step fails with, each a
    /// failure of its own; one more failure counts the rest. Each failure reads the scene (its
    /// texts' secrets redacted, its picture in a report), and a 10,000-node scene could break
    /// two rules at every node after each of a file's steps.
    static let reportedBreaches = 20
    /// How many queries of a run that find no node are told the nearest nodes.
    static let rankedMisses = 20
    /// The queries of this run so far that found no node.
    private var misses = 0

    /// `time`, or the stop time if that comes first.
    private func limited(_ time: VirtualTime) -> VirtualTime {
        stopTime.map { min($0, time) } ?? time
    }

    private func check(_ expectation: Expectation) {
        let actual: FieldValue?
        do {
            actual = try simulation.value(at: expectation.path)
        } catch {
            record(expectation.path, expected: expectation.matcher.description, actual: "\(error)", at: expectation.location)
            return
        }
        guard !expectation.matcher.matches(actual) else { return }
        record(
            expectation.path, expected: expectation.matcher.description, actual: actual?.jsonText ?? "null",
            at: expectation.location)
    }

    private func check(_ expectation: EventExpectation, at step: Step) {
        let window = delivered[eventWindowStart...]
        let count = window.filter(expectation.counts).count
        guard !expectation.count.contains(count) else { return }
        let subject =
            expectation.fields.isEmpty
            ? "event \(expectation.name)" : "event \(expectation.name) \(FieldValue.dictionary(expectation.fields).jsonText)"
        let expected =
            switch (expectation.count.lowerBound, expectation.count.upperBound) {
            case (0, 0): "none"
            case (1, Int.max): "at least one"
            case (let low, let high) where low == high: "exactly \(low)"
            case (let low, let high): "between \(low) and \(high)"
            }
        let seen = window.filter { $0.event.name == expectation.name }.count
        let actual = "\(count) matching" + (seen > count ? " (\(seen) named \(expectation.name), fields differ)" : "")
        record(subject, expected: expected, actual: actual, at: step.location)
    }

    func fail(_ step: Step, _ subject: String, _ problem: String) {
        record(subject, expected: "to succeed", actual: problem, at: step.location)
    }

    /// Records a failure; what was typed into a secure field is redacted from its texts, which
    /// quote the scenario (`expect: {password.text: hunter2}` fails with the typed password).
    func record(_ subject: String, expected: String, actual: String, at location: SourceLocation) {
        let (subject, expected, actual) = (
            simulation.redactingSecrets(in: subject), simulation.redactingSecrets(in: expected),
            simulation.redactingSecrets(in: actual)
        )
        failures.append(
            Failure(
                subject: subject, expected: expected, actual: actual, time: simulation.now,
                location: location, recentEvents: recent.map(\.traceLine),
                scene: picturesFailures ? reportPicture(at: location) : nil))
    }
}
