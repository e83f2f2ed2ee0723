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
    /// Whether to settle after every step that starts motion, in every file, as `settle: auto`
    /// does for one (`rehearse run --settle`).
    public var settlesAfterSteps = false
    /// What starts the programs of the files' command plugins (docs/remote-plugins.md).
    public var commandStarter: (any PluginCommandStarter)?
    /// Whether to check the scene against the accessibility rules after every step
    /// (``ScenarioResult/accessibilityFindings``, `rehearse audit`).
    public var audits = false

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
        /// With ``picturesEachStep``, a gesture step pictured is also shown as its frames
        /// (``GestureFrame``), at most one this often in simulated time (the first and last always).
        public static let gestureFrameInterval = VirtualTime(nanoseconds: 50_000_000)
        /// The most frames one gesture step shows: a longer step's are spread wider than
        /// ``gestureFrameInterval`` (2 s of a gesture at the interval).
        public static let maximumGestureFramesPerStep = 40
        /// The most gesture frames one run (one page of the report) shows, within
        /// ``maximumPictureNodes``; past it, the next gesture steps show none (with a note).
        public static let maximumGestureFramesPerRun = 400
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
            result = try run(
                ScenarioLoader(registry: registry, commandStarter: commandStarter).load(file: path), delivered: delivered)
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
        let execution = ScenarioExecution(
            simulation: simulation, scenario: scenario, trace: sink, stopTime: stopTime, budget: budget)
        execution.pictureOptions = pictures
        execution.picturesFailures = rendering?.picturesEachStep == true
        if let rendering { execution.startRendering(rendering, until: end) }
        simulation.checkInvariants()  // the set-up itself, before any step delivers an event
        let pictured = rendering?.picturesEachStep == true ? max(scenario.steps.count, 1) : 0
        let stride = (pictured + Rendering.maximumStepPictures - 1) / Rendering.maximumStepPictures
        for (index, step) in scenario.steps.enumerated() where !execution.hasStopped {
            let picturesStep = pictured > 0 && (index % stride == 0 || index == scenario.steps.count - 1)
            if picturesStep { execution.recordGestureFrames(of: step) }
            execution.perform(step)
            let frames = execution.finishGestureFrames(at: step.location)
            if settlesAfterSteps || scenario.settlesAfterSteps, step.action.startsMotion, !execution.hasStopped {
                let option = scenario.settlesAfterSteps ? "settle: auto" : "--settle"
                execution.settle(within: StepParser.defaultWait, at: step.location, "the settle after this step (\(option))")
            }
            if picturesStep { execution.pictureStep(step, frames: frames) }
            if audits, !execution.hasStopped { execution.auditStep(step) }
        }
        if let stopTime, simulation.now < stopTime { execution.advance(to: stopTime) }
        if let reason = execution.stopReason {
            result.outcome = .stopped(ScenarioError(reason, at: execution.currentLocation))
            return result
        }
        result.simulatedTime = simulation.now
        result.trace = traceLines
        result.snapshots = execution.snapshots
        result.notes += execution.notes
        result.stepPictures = execution.stepPictures
        result.accessibilityFindings = execution.accessibilityFindings
        if audits { result.staleDeviations = execution.staleDeviations }
        result.pictureMismatches = execution.pictureMismatches
        // A run that takes no time still gets its one frame.
        result.filmstrip =
            execution.filmstrip.isEmpty && (rendering?.filmstripFrames ?? 0) > 0
            ? [SceneSnapshot(simulation)] : execution.filmstrip
        result.plots = execution.plots
        result.finalSnapshot = SceneSnapshot(simulation)
        if !execution.failures.isEmpty { result.outcome = .failed(execution.failures) }
        return result
    }
}
