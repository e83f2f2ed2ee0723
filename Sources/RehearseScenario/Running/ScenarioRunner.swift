import RehearseCore

/// Runs loaded scenarios on a fresh ``Simulation`` each and checks their expectations.
public struct ScenarioRunner: Sendable {
    /// The plugins scenarios may install.
    public let registry: PluginRegistry
    /// Whether results carry the JSON Lines trace of every delivered event.
    public var recordsTrace = false
    /// Pictures and plots to take during runs, if any.
    public var rendering: Rendering?
    /// Stop the run at this simulated time (for rendering the scene at a moment).
    public var stopTime: VirtualTime?
    /// The most work one run may do; a run that needs more is stopped and reported invalid.
    public var budget = WorkBudget()
    /// How `expect-picture` steps treat their golden pictures.
    public var pictures = PictureOptions()

    /// How `expect-picture` steps treat their golden pictures.
    public struct PictureOptions: Sendable {
        /// Record the references that are missing or differ instead of failing (`--update-pictures`).
        public var update = false
        /// How far frames may be from a reference's, in points, where a step does not say.
        public var tolerance = PictureComparison.defaultTolerance

        public init(update: Bool = false, tolerance: Double = PictureComparison.defaultTolerance) {
            self.update = update
            self.tolerance = tolerance
        }
    }

    /// What to picture while running.
    public struct Rendering: Sendable {
        /// The most frames a filmstrip shows (2 or more), or 0 for no filmstrip.
        public var filmstripFrames = 24
        /// Paths to sample on every display frame (of at most ``maximumPlotSamples`` evenly spread).
        public var plotPaths: [String] = []
        /// Whether to picture the scene after the steps (the HTML report's timeline): every step, or
        /// evenly spread steps and the last when there are more than ``maximumStepPictures``; and
        /// at each failure, the moment it was found (``Failure/scene``).
        public var picturesEachStep = false
        /// The most steps pictured in one run for ``picturesEachStep``.
        public static let maximumStepPictures = 200
        /// With ``picturesEachStep``, the paths that `expect` steps check and that hold numbers are
        /// plotted too (the report's plots), the first this many of them.
        public static let maximumExpectedPlots = 8

        /// The most samples a plotted path takes in one run: every display frame of a short run, evenly
        /// spread frames of a long one.
        public static let maximumPlotSamples = 10_000
        /// The most nodes the pictures of one run may draw, summed over its snapshots, `expect-picture`
        /// steps and filmstrip frames: a thousand snapshots of a 250-node scene. Past it the run stops with an error (each
        /// node drawn costs memory until the pictures are written, and disk after).
        public static let maximumPictureNodes = 250_000

        public init(filmstripFrames: Int = 24, plotPaths: [String] = [], picturesEachStep: Bool = false) {
            self.filmstripFrames = filmstripFrames == 0 ? 0 : max(filmstripFrames, 2)
            self.plotPaths = plotPaths
            self.picturesEachStep = picturesEachStep
        }
    }
    /// How many recent events a failure shows.
    public static let recentEventCount = 5

    public init(registry: PluginRegistry, recordsTrace: Bool = false) {
        self.registry = registry
        self.recordsTrace = recordsTrace
    }

    /// The paths `scenario`'s `expect` steps check that hold numbers in `simulation` as set up, in
    /// step order, each once, less `plotted`, at most ``Rendering/maximumExpectedPlots``.
    private static func expectedNumbers(of scenario: Scenario, in simulation: Simulation, besides plotted: [String]) -> [String] {
        var paths: [String] = []
        for step in scenario.steps {
            guard case .expect(let expectations) = step.action else { continue }
            for path in expectations.map(\.path) where !plotted.contains(path) && !paths.contains(path) {
                guard paths.count < Rendering.maximumExpectedPlots else { return paths }
                if case .some(.some(let value)) = try? simulation.value(at: path), value.number != nil { paths.append(path) }
            }
        }
        return paths
    }

    /// Loads and runs the file at `path`.
    public func run(file path: String) -> ScenarioResult {
        run(file: path, delivered: nil)
    }

    /// Runs a loaded scenario.
    public func run(_ scenario: Scenario) -> ScenarioResult {
        run(scenario, delivered: nil)
    }

    /// Loads and runs the file at `path`; `delivered`, if given, is handed each event as it is
    /// delivered (to stream the trace: nothing of it is kept in the result then).
    public func run(file path: String, delivered: ((DeliveredEvent) -> Void)?) -> ScenarioResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result: ScenarioResult
        do {
            result = try run(ScenarioLoader(registry: registry).load(file: path), delivered: delivered)
        } catch {
            result = ScenarioResult(file: path, name: path, outcome: .invalid(error))
        }
        result.wallTime = clock.now - start
        return result
    }

    /// Runs a loaded scenario; `delivered`, if given, is handed each event as it is delivered.
    public func run(_ scenario: Scenario, delivered: ((DeliveredEvent) -> Void)?) -> ScenarioResult {
        var result = ScenarioResult(file: scenario.file, name: scenario.name, outcome: .passed)
        func invalid(_ message: String) -> ScenarioResult {
            result.outcome = .invalid(ScenarioError(message, at: SourceLocation(file: scenario.file, line: 1, column: 1)))
            return result
        }
        let simulation: Simulation
        do {
            simulation = try scenario.makeSimulation(registry: registry)
        } catch {
            return invalid("cannot set the scenario up: \(error)")
        }
        // A plotted path another scenario of the run has but this one does not is left out here.
        var rendering = rendering
        rendering?.plotPaths.removeAll { path in
            do throws(PathError) {
                _ = try simulation.value(at: path)
                return false
            } catch {
                result.notes.append("--plot \(path) is not plotted here: \(error.reason)")
                return true
            }
        }
        if let plotted = rendering?.plotPaths, rendering?.picturesEachStep == true {
            rendering?.plotPaths += Self.expectedNumbers(of: scenario, in: simulation, besides: plotted)
        }
        let end = stopTime.map { min($0, scenario.duration) } ?? scenario.duration
        var traceLines: [String] = []
        let sink = delivered ?? (recordsTrace ? { traceLines.append($0.traceLine) } : nil)
        let execution = Execution(simulation: simulation, scenario: scenario, trace: sink, stopTime: stopTime, budget: budget)
        execution.pictureOptions = pictures
        execution.picturesFailures = rendering?.picturesEachStep == true
        if let rendering { execution.startRendering(rendering, until: end) }
        simulation.checkInvariants()  // the set-up itself, before any step delivers an event
        let pictured = rendering?.picturesEachStep == true ? max(scenario.steps.count, 1) : 0
        let stride = (pictured + Rendering.maximumStepPictures - 1) / Rendering.maximumStepPictures
        for (index, step) in scenario.steps.enumerated() where !execution.hasStopped {
            execution.perform(step)
            if pictured > 0, index % stride == 0 || index == scenario.steps.count - 1 { execution.pictureStep(step) }
        }
        if let stopTime, simulation.now < stopTime { execution.advance(to: stopTime) }
        if let reason = execution.stopReason {
            result.outcome = .invalid(ScenarioError(reason, at: execution.currentLocation))
            return result
        }
        result.simulatedTime = simulation.now
        result.trace = traceLines
        result.snapshots = execution.snapshots
        result.notes += execution.notes
        result.stepPictures = execution.stepPictures
        result.pictureMismatches = execution.pictureMismatches
        // A run that takes no time still gets its one frame.
        result.filmstrip = execution.filmstrip.isEmpty && (rendering?.filmstripFrames ?? 0) > 0 ? [SceneSnapshot(simulation)] : execution.filmstrip
        result.plots = execution.plots
        result.finalSnapshot = SceneSnapshot(simulation)
        if !execution.failures.isEmpty { result.outcome = .failed(execution.failures) }
        return result
    }
}

/// One run in progress: the simulation, what it delivered that reports need, and what failed.
private final class Execution {
    let simulation: Simulation
    /// The events that event expectations may count (those of the names they name), from the
    /// start of the current window on: a long run keeps no more than its checks need.
    private var delivered: [DeliveredEvent] = []
    /// The last few events, whatever their names, for a failure's report.
    private var recent: [DeliveredEvent] = []
    private let meter: BudgetMeter
    /// Why the run stopped early (its work budget or its pictures' were spent); nothing more runs.
    private(set) var stopReason: String?
    /// The nodes drawn in the run's pictures so far.
    private var pictureNodes = 0
    /// The bytes of golden pictures read in the run so far.
    private var referenceBytes = 0
    private(set) var failures: [Failure] = []
    private(set) var snapshots: [(name: String, snapshot: SceneSnapshot)] = []
    private(set) var filmstrip: [SceneSnapshot] = []
    private(set) var plots: [PlotSeries] = []
    private let stopTime: VirtualTime?
    private var rendersSnapshots = false
    var pictureOptions = ScenarioRunner.PictureOptions()
    private let references: PictureReferences?
    /// What the run says beside its outcome (golden pictures recorded).
    private(set) var notes: [String] = []
    private(set) var pictureMismatches: [PictureMismatch] = []
    private(set) var stepPictures: [StepPicture] = []
    /// Whether each failure keeps the scene at its moment.
    var picturesFailures = false
    private var stepPicturesFull = false
    /// Where the window of event expectations starts in `delivered`: adjacent `expect-event` and
    /// `expect-no-event` steps share one window, which the next other step closes.
    private var eventWindowStart = 0
    private var eventWindowEnd: Int?
    /// The step being performed: a broken invariant is reported at the step that broke it.
    private(set) var currentLocation: SourceLocation

    init(simulation: Simulation, scenario: Scenario, trace: ((DeliveredEvent) -> Void)?, stopTime: VirtualTime?, budget: WorkBudget) {
        self.simulation = simulation
        self.stopTime = stopTime
        meter = BudgetMeter(simulation, budget: budget)
        currentLocation = SourceLocation(file: scenario.file, line: 1, column: 1)
        references = PictureReferences(scenarioFile: scenario.file)
        let counted = Set(scenario.steps.compactMap { step -> String? in
            switch step.action {
            case .expectEvent(let expectation), .expectNoEvent(let expectation): expectation.name
            case .inject, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect, .set, .animate,
                 .activate, .snapshot, .touchStream, .expectPicture: nil
            }
        })
        simulation.bus.subscribe(.all, owner: "scenario") { [unowned self] event in
            if counted.contains(event.event.name) { delivered.append(event) }
            if recent.count == ScenarioRunner.recentEventCount { recent.removeFirst() }
            recent.append(event)
            trace?(event)
            if case .invariantFailed(let failure) = event.event {
                record("invariant '\(failure.name)' (\(failure.owner))", expected: failure.expected, actual: failure.actual,
                       at: currentLocation)
            }
        }
    }

    /// Whether the run has reached its stop time, or spent its budget.
    var hasStopped: Bool { stopReason != nil || (stopTime.map { simulation.now >= $0 } ?? false) }

    /// Runs the simulation to `time` (or its stop time, if that comes first) within the budget.
    func advance(to time: VirtualTime) {
        guard stopReason == nil else { return }
        do {
            try meter.run(until: limited(time))
        } catch {
            stopReason = "\(error)"
        }
    }

    /// The picture of the scene now, or nil (and the run stopped) once the run's pictures would
    /// draw more than ``ScenarioRunner/Rendering/maximumPictureNodes``.
    private func picture() -> SceneSnapshot? {
        guard stopReason == nil else { return nil }
        let snapshot = SceneSnapshot(simulation)
        pictureNodes += snapshot.items.count + 1
        guard pictureNodes <= ScenarioRunner.Rendering.maximumPictureNodes else {
            stopReason = "the pictures of this run would draw more than \(ScenarioRunner.Rendering.maximumPictureNodes) nodes "
                + "(snapshots, expect-picture steps and filmstrip frames times the nodes on screen), the most one run draws; "
                + "take fewer pictures"
            return nil
        }
        return snapshot
    }

    /// Pictures the scene as `step` left it, unless the run's pictures would draw more than
    /// ``ScenarioRunner/Rendering/maximumPictureNodes``: then the timeline stops there (with a note),
    /// and the run goes on.
    func pictureStep(_ step: Step) {
        if let picture = reportPicture(at: step.location) {
            stepPictures.append(StepPicture(location: step.location, action: step.action, picture: picture))
        }
    }

    /// The scene now for the report, unless the run's pictures would draw more than
    /// ``ScenarioRunner/Rendering/maximumPictureNodes``: then the report's pictures stop there
    /// (with a note), and the run goes on.
    private func reportPicture(at location: SourceLocation) -> SceneSnapshot? {
        guard !stepPicturesFull else { return nil }
        let picture = SceneSnapshot(simulation)
        guard pictureNodes + picture.items.count + 1 <= ScenarioRunner.Rendering.maximumPictureNodes else {
            stepPicturesFull = true
            notes.append("the report's pictures stop at \(location): they would draw more than "
                         + "\(ScenarioRunner.Rendering.maximumPictureNodes) nodes")
            return nil
        }
        pictureNodes += picture.items.count + 1
        return picture
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
        sample(every: max(frame, spread), until: end) { [unowned self] in
            for index in plots.indices {
                let value = (try? simulation.value(at: plots[index].path))??.number
                plots[index].samples.append((simulation.now, value))
            }
        }
    }

    private func sample(every interval: VirtualTime, until end: VirtualTime, from start: VirtualTime? = nil,
                        _ take: @escaping () -> Void) {
        let time = start ?? simulation.now
        simulation.timeline.schedule(at: time, owner: "renderer") { [unowned self] in
            take()
            if time + interval <= end { sample(every: interval, until: end, from: time + interval, take) }
        }
    }

    func perform(_ step: Step) {
        currentLocation = step.location
        switch step.action {
        case .expectEvent, .expectNoEvent:
            eventWindowEnd = delivered.count
        case .inject, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect, .set, .animate,
             .activate, .snapshot, .touchStream, .expectPicture:
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
            // A long press at a target is at the target's centre now.
            let origin = stream.target.flatMap { simulation.scene.frameInScreen($0) }.map { Point(x: $0.midX, y: $0.midY) } ?? .zero
            let events = stream.events.map { timed in
                Event(timed.phase, Touch(id: timed.touch.id, point: Point(x: timed.touch.point.x + origin.x, y: timed.touch.point.y + origin.y)))
            }
            do {
                for event in events { try simulation.check(event) }
                for (timed, event) in zip(stream.events, events) { try simulation.inject(event, at: start + timed.offset) }
            } catch {
                fail(step, "the touches could not be injected", "\(error)")
            }
            advance(to: start + stream.duration)
        case .wait(let duration):
            advance(to: simulation.now + duration)
        case .advance(let time):
            advance(to: time)
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
                do { try simulation.setValue(change.value, at: change.path) } catch { fail(step, "set \(change.path)", "\(error)") }
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
            do { try simulation.layout?.activate(names) } catch { fail(step, "activate \(names.joined(separator: ", "))", "\(error)") }
            simulation.checkInvariants()
        case .snapshot(let name):
            if rendersSnapshots, let picture = picture() { snapshots.append((name, picture)) }
        case .expectPicture(let name, let tolerance):
            if let picture = picture() { check(picture, against: name, tolerance: tolerance ?? pictureOptions.tolerance, at: step) }
        }
    }

    /// Compares `picture` with the golden picture `name`; with `--update-pictures`, records it
    /// where the reference is missing, unreadable or different, and says so.
    private func check(_ picture: SceneSnapshot, against name: String, tolerance: Double, at step: Step) {
        let subject = "picture '\(name)'"
        guard let references else {
            return fail(step, subject, "no folder for golden pictures: the scenario's file name (less .yaml) must be "
                        + "\(PlainFileName.rule), as it names the folder \(PictureReferences.folderName)/<file name>")
        }
        let drawing = PictureDrawing(picture)
        let differences: [String]
        var reference: PictureDrawing?
        let reading = references.read(name, counting: &referenceBytes)
        guard referenceBytes <= PictureReferences.maximumBytesPerRun else {
            stopReason = "the golden pictures of this run would read more than \(PictureReferences.maximumBytesPerRun >> 20) MiB of "
                + "references, the most one run reads; name fewer or smaller pictures"
            return
        }
        switch reading {
        case .missing:
            differences = ["no reference recorded at \(references.relativePath(of: name)) (beside the scenario); "
                           + "record it with rehearse run --update-pictures \(currentLocation.file)"]
        case .unreadable(let problem):
            differences = [problem]
        case .drawing(let recorded):
            reference = recorded
            differences = PictureComparison(tolerance: tolerance).differences(from: recorded, to: drawing)
        }
        guard !differences.isEmpty else { return }
        guard pictureOptions.update else {
            pictureMismatches.append(PictureMismatch(name: name, reference: reference, actual: picture, tolerance: tolerance))
            return record(subject, expected: "the drawing of \(references.relativePath(of: name))", actual: differences.joined(separator: "; "),
                          at: step.location)
        }
        do {
            let path = try references.write(name, drawing: drawing, svg: SVGRenderer.document(picture))
            if case .missing = reading {
                notes.append("picture '\(name)' recorded at \(path)")
            } else {
                notes.append("picture '\(name)' updated at \(path): \(differences.joined(separator: "; "))")
            }
        } catch {
            fail(step, subject, "\(error)")
        }
    }

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
        record(expectation.path, expected: expectation.matcher.description, actual: actual?.jsonText ?? "null",
               at: expectation.location)
    }

    private func check(_ expectation: EventExpectation, at step: Step) {
        let window = delivered[eventWindowStart...]
        let count = window.filter(expectation.counts).count
        guard !expectation.count.contains(count) else { return }
        let subject = expectation.fields.isEmpty
            ? "event \(expectation.name)" : "event \(expectation.name) \(FieldValue.dictionary(expectation.fields).jsonText)"
        let expected = switch (expectation.count.lowerBound, expectation.count.upperBound) {
        case (0, 0): "none"
        case (1, Int.max): "at least one"
        case let (low, high) where low == high: "exactly \(low)"
        case let (low, high): "between \(low) and \(high)"
        }
        let seen = window.filter { $0.event.name == expectation.name }.count
        let actual = "\(count) matching" + (seen > count ? " (\(seen) named \(expectation.name), fields differ)" : "")
        record(subject, expected: expected, actual: actual, at: step.location)
    }

    private func fail(_ step: Step, _ subject: String, _ problem: String) {
        record(subject, expected: "to succeed", actual: problem, at: step.location)
    }

    /// Records a failure; what was typed into a secure field is redacted from its texts, which
    /// quote the scenario (`expect: {password.text: hunter2}` fails with the typed password).
    private func record(_ subject: String, expected: String, actual: String, at location: SourceLocation) {
        let (subject, expected, actual) = (simulation.redactingSecrets(in: subject), simulation.redactingSecrets(in: expected),
                                           simulation.redactingSecrets(in: actual))
        failures.append(Failure(subject: subject, expected: expected, actual: actual, time: simulation.now,
                                location: location, recentEvents: recent.map(\.traceLine),
                                scene: picturesFailures ? reportPicture(at: location) : nil))
    }
}
