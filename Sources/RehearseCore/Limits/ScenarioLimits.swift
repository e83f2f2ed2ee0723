/// Every limit on what a scenario file may ask for, in one table. The loader's checks and their
/// messages, the scene, the devices, the invariants, the explore reader, recordings and the JSON
/// Schema (`rehearse schema`) all read these, so no two of them can disagree on a limit (SchemaTests
/// checks the loader and the schema at each limit and just past it); Scenarios/README.md's "Limits"
/// table lists them for people.
public enum ScenarioLimits {
    // MARK: The file

    /// The largest scenario file, in bytes (1 MiB).
    public static let fileBytes = 1 << 20
    /// The deepest nesting (flow brackets, or indentation in columns / 2), aliases expanded.
    public static let nestingDepth = 64
    /// The most nodes the YAML tree may have with every alias expanded.
    public static let expandedNodes = 1_000_000
    /// The most bytes of scalar text the YAML tree may hold with every alias expanded (16 MiB).
    public static let expandedTextBytes = 16 << 20

    // MARK: Steps and time

    /// The most steps a file has.
    public static let steps = 10_000
    /// The longest simulated run, in seconds, and the longest single duration anywhere (a wait, an
    /// `at`, a stream, a plugin's duration, an explore sequence's waits added up): about 11.6 days.
    public static let runSeconds = 1_000_000.0
    /// The longest timeout a `settle` or `wait-until` may give, in seconds (the default is
    /// ``Simulation/defaultWaitSeconds``): ten minutes simulated, 600,000 display frames at the
    /// fastest display, within a run's work budget.
    public static let waitSeconds = 600.0
    /// The most motion samples over all the streams of a file.
    public static let motionSamples = 100_000
    /// The rates a motion stream may have, in Hz.
    public static let motionRate = 1...1_000
    /// The largest count an `expect-event` step may give (`count`, `between`).
    public static let eventCount = 1_000_000_000
    /// The lengths a file name made from a user-given name may have (snapshots, recordings).
    public static let fileNameLength = 1...100
    /// POP's `bounciness` and `speed`, as POP clamps them.
    public static let popParameter = 0.0...20.0

    // MARK: Touch

    /// The most touch events the touch steps of a file (`drag`, `swipe`, `long-press`, `pinch`,
    /// `touches`) write, over all of them: a drag writes one a display frame.
    public static let touchEvents = 100_000
    /// The finger ids a `touches:` stream may use.
    public static let touchIDs = 0...999
    /// The most drags a `scroll-until-visible` may be given (`max`): each is a drag and the wait
    /// for its scroll view to come to rest, so this bounds what one step may cost.
    public static let scrollDrags = 1_000
    /// The largest `scale` a `pinch` may reach (it must be more than 0), and an injected or
    /// emitted `gesture.pinch`'s.
    public static let pinchScale = 100.0
    /// The fastest an injected or emitted `gesture.pinch`'s scale may change, per second either
    /// way (its `velocity`): the largest scale reached in one frame of the fastest display, 100,000.
    public static let pinchVelocity = pinchScale * Double(deviceRefreshRate.upperBound)
    /// The zoom scales a node may be given (`zoomScale`, `minimumZoomScale`, `maximumZoomScale`):
    /// UIKit sets no bound, but a scale of 0 divides the zoom view's size by zero, and at 1e308
    /// its content size is infinite; from a thousandth to a thousand times keeps a 10,000-point
    /// view's content within 1e7 points and above 10.
    public static let zoomScale = 0.001...1_000.0
    /// The largest `decelerationRate` a scroll view may be given as a number (it must be more than
    /// 0): the fraction of its velocity a fling keeps each millisecond. At 0.9999 the fastest fling
    /// (``gestureVelocity``) comes to rest within about 205 s; nearer 1 a fling went on for days
    /// (0.9999999999999999: 3.6e14 s, the display link ticking all the while).
    public static let decelerationRate = 0.9999
    /// The fastest a gesture may say its finger moves, in points per second on either axis (an
    /// injected or emitted `gesture.pan`'s `velocity`): the longest screen side crossed in one
    /// frame of the fastest display, 10,000,000. A scroll view flung much faster is carried past
    /// every number (1e308 left its offset infinite).
    public static let gestureVelocity = deviceLength * Double(deviceRefreshRate.upperBound)

    // MARK: The scene and the device

    /// The longest text a node holds, in Unicode scalars (as the schema's `maxLength` counts): set
    /// (a scene's `text:`, a `set:` step, a plugin's `set`) or typed (a `type:` step, an injected,
    /// emitted or viewer-typed `text` event, each checked against the field's text with it
    /// appended). Ten thousand is a long form field or a page of prose, past what a phone's text
    /// field holds in practice; it bounds what every `text` event may cost (the text read by
    /// invariants, frames and pictures), which grew without end: 700 injects of 60 KB into one field.
    public static let textLength = 10_000

    /// Whether `text` followed by `appended` holds at most ``textLength`` Unicode scalars. No
    /// counting while their UTF-8 is that short (a scalar is at least a byte), so a field typed
    /// into character by character does not cost a count of its whole text each time.
    public static func textFits(_ text: String, appending appended: String = "") -> Bool {
        if text.utf8.count + appended.utf8.count <= textLength { return true }
        return text.unicodeScalars.count + appended.unicodeScalars.count <= textLength
    }

    /// Refuses a node's text (or accessibility label) past ``textLength``, naming the field at `path`.
    public static func checkText(_ text: String, path: String) throws(FieldError) {
        guard textFits(text) else {
            throw FieldError(
                path: path,
                problem: .invalidValue(
                    "must be at most \(textLength) Unicode scalars (ScenarioLimits.textLength), found \(text.unicodeScalars.count)"
                ))
        }
    }

    /// The most nodes a scene holds, the root included.
    public static let nodes = 10_000
    /// The largest `index` a node query may give (0 is the first match in reading order): one
    /// less than the most nodes a scene holds, so no index the scene could satisfy is refused.
    public static let queryIndex = nodes - 1
    /// The deepest a node may sit below the root.
    public static let sceneDepth = 100
    /// The longest screen side, keyboard height, status bar height or inset, in points: ten times
    /// the largest tablet's screen, so that every length and every sum of them stays a drawable
    /// number (a picture's coordinates, a count of markers along a side).
    public static let deviceLength = 10_000.0
    /// The pixel scales a device may have.
    public static let deviceScale = 1...4
    /// The display refresh rates a device may have, in Hz.
    public static let deviceRefreshRate = 1...1_000

    // MARK: Accessibility

    /// The most deviations from the accessibility rules a file documents (`accessibility:
    /// {deviations}`): one for each rule and node, and no shipped scene needs more than a few.
    public static let accessibilityDeviations = 100
    /// The lengths a deviation's reason may have, in Unicode scalars: it says what the original
    /// app does and where that is written; a blank one is refused.
    public static let deviationReasonLength = 1...1_000

    // MARK: Invariants

    /// The most invariants one simulation checks (scenario and plugins together).
    public static let invariants = 1_000
    /// The longest invariant name.
    public static let invariantNameLength = 100
    /// The longest condition text (`check:`, `when:`).
    public static let conditionLength = 1_000
    /// The most paths one `finite` rule lists.
    public static let finitePaths = 100

    // MARK: Exploration

    /// The longest explored sequence.
    public static let exploreLength = 1_000
    /// The most sequences of one exploration.
    public static let exploreRuns = 10_000_000
    /// The heaviest weight an action kind may have.
    public static let exploreWeight = 1_000.0
    /// How many items a kind's values list (nodes, texts, events) may have.
    public static let exploreValues = 1...100

    // MARK: Remote plugins

    /// The most effects one answer of a remote plugin may carry.
    public static let remoteEffects = 1_024
    /// The range of a remote plugin's `deadline:`, seconds per answer.
    public static let remoteDeadline = 0.001...60.0
    /// A remote plugin's deadline when none is given, in seconds.
    public static let remoteDefaultDeadline = 1.0
    /// The most calls (`Deliver`, `Wake`) one remote plugin answers at one instant of virtual time:
    /// more is a plugin that emits what it hears or wakes itself after 0 s forever, which would
    /// hold the run at that instant, its work budget unchecked, as long as the plugin answers.
    public static let remoteCallsAtOneInstant = 10_000
    /// The most scene paths one remote plugin reads (its registration's `reads` and its
    /// scenario entry's together): each is read before every call it gets.
    public static let remoteReads = 64
    /// The longest path a scenario's `reads:` gives a remote plugin, in Unicode scalars (one the
    /// plugin declares as it registers is at most 200 bytes): each is sent with every call.
    public static let remoteReadPathLength = 200
    /// The seconds a started plugin has to connect and register.
    public static let remoteStartSeconds = 10.0
    /// The most command plugins one scenario starts.
    public static let commandPlugins = 8
    /// The most arguments of a plugin's command.
    public static let commandArguments = 64
    /// The most events one event may cause, delivered and waiting, before time moves (run to
    /// completion): past it an emit is refused, so a plugin answering each event with more of
    /// them cannot hold its simulation forever nor fill memory.
    public static let cascadeEvents = 100_000
    /// The most items that may wait on the clock for an injection or a remote plugin's
    /// `schedule` effect.
    public static let pendingEvents = 100_000
}
