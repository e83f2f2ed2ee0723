import RehearseCore

/// What running one scenario file gave.
public struct ScenarioResult: Sendable {
    /// The file, as given.
    public var file: String
    /// The scenario's name (the file name when it could not be loaded).
    public var name: String
    public var outcome: Outcome
    /// The simulated time the run reached.
    public var simulatedTime: VirtualTime = .zero
    /// Wall-clock time spent loading and running.
    public var wallTime: Duration = .zero
    /// The JSON Lines trace, when asked for.
    public var trace: [String] = []
    /// The `snapshot` steps' pictures, when rendering was asked for.
    public var snapshots: [(name: String, snapshot: SceneSnapshot)] = []
    /// Pictures of the scene across the run, when rendering was asked for.
    public var filmstrip: [SceneSnapshot] = []
    /// The sampled plot paths, when asked for.
    public var plots: [PlotSeries] = []
    /// The scene when the run stopped.
    public var finalSnapshot: SceneSnapshot?
    /// What the run left out and why, for the user (a plotted path this scenario does not have).
    public var notes: [String] = []
    /// The golden pictures that did not match, for the diff pictures.
    public var pictureMismatches: [PictureMismatch] = []
    /// The scene after each step, when asked for (the HTML report's timeline).
    public var stepPictures: [StepPicture] = []
    /// With ``ScenarioRunner/audits``, each node's breach of an accessibility rule, at the step
    /// after which it first appeared (again after a step that ended it).
    public var accessibilityFindings: [AccessibilityFinding] = []
    /// With ``ScenarioRunner/audits``, the file's deviations that matched no finding of the run.
    public var staleDeviations: [AccessibilityDeviation] = []

    /// How a scenario ended.
    public enum Outcome: Sendable {
        case passed
        /// Every expectation that did not hold, in step order.
        case failed([Failure])
        /// The file could not be loaded; nothing ran.
        case invalid(ScenarioError)
        /// The run stopped at a budget (its work's or its pictures'), at the step the error names:
        /// it ran up to there.
        case stopped(ScenarioError)
    }

    public init(file: String, name: String, outcome: Outcome) {
        self.file = file
        self.name = name
        self.outcome = outcome
    }
}

/// The scene as one step left it.
public struct StepPicture: Sendable {
    /// The step.
    public var location: SourceLocation
    public var action: Step.Action
    public var picture: SceneSnapshot
    /// A gesture step's frames across it (``GestureFrame``); none for any other step.
    public var frames: [GestureFrame] = []
}

/// An expectation that did not hold.
public struct Failure: Sendable {
    /// What was checked: a path, or `event NAME`.
    public var subject: String
    public var expected: String
    public var actual: String
    /// The simulated time of the check.
    public var time: VirtualTime
    /// The step (or expectation) that failed.
    public var location: SourceLocation
    /// The last few events delivered before the check, as trace lines.
    public var recentEvents: [String]
    /// The scene at the moment of the check, when the run pictures for a report.
    public var scene: SceneSnapshot?
}

extension StepPicture {
    /// What the step did, in a few words (``Step/Action/summary``).
    public var summary: String { action.summary }
}
