/// The keys of every mapping a scenario file has, in one place: the loader refuses any other key
/// and `rehearse schema` lists exactly these, so the file format and its schema cannot drift apart.
enum ScenarioSyntax {
    static let topLevel = [
        "name", "device", "scene", "plugins", "animations", "invariants", "explore", "accessibility", "settle", "steps",
    ]
    /// A mapping in the `plugins:` list: a plugin with its configuration, or a command plugin
    /// (docs/remote-plugins.md) with what starts it.
    static let pluginItem = ["id", "configuration", "command", "deadline", "directory", "reads"]
    /// The keys an inline device must have (``Device/init(fields:)`` reads the optional ones too).
    static let requiredDevice = ["width", "height", "hz", "keyboard"]
    static let orientations = ["portrait", "landscape"]
    static let insets = ["top", "left", "bottom", "right"]
    static let scene = ["nodes", "constraints"]
    static let constraints = ["metrics", "sets", "active"]
    static let constraint = ["format", "options"]
    static let invariant = ["name", "when", "check", "finite"]
    static let explore = ["length", "runs", "actions"]
    /// The `accessibility:` section, and one of its deviations (``AccessibilityDeviation``).
    static let accessibility = ["deviations"]
    static let deviation = ["rule", "node", "reason"]
    /// The key that gives each explored action kind its values, for the kinds that take any.
    static let type = ["into", "text"]
    static let tapPoint = ["x", "y"]
    static let network = ["online"]
    static let emit = ["name", "fields", "at"]
    static let eventExpectation = ["name", "fields", "count"]
    static let noEventExpectation = ["name", "fields"]
    static let count = ["between"]
    static let approximate = ["approx", "within"]
    static let expectPicture = ["name", "tolerance"]
    static let keyboard = ["show", "height", "duration", "curve"]
    /// A motion sample's fields (``MotionSample``) and a stream's `for` and `hz`.
    static let motion = ["rotationRate", "attitude", "gravity", "userAcceleration", "for", "hz"]
    static let animate = ["target", "property", "to", "duration", "curve", "delay", "options"]
    static let animateOptions = ["beginFromCurrentState", "allowUserInteraction"]
    static let curveForms = ["bezier", "spring", "pop"]
    static let spring = ["mass", "stiffness", "damping", "velocity"]
    static let pop = ["bounciness", "speed"]
    static let drag = ["from", "to", "duration", "hold"]
    static let swipe = ["from", "direction", "distance"]
    static let longPress = ["at", "target", "duration"]
    static let pinch = ["center", "scale", "duration"]
    /// The gesture steps aimed at a node (`on:`, and `at:` a point of it) rather than screen points.
    static let dragOn = ["on", "at", "by", "duration", "hold"]
    static let swipeOn = ["on", "at", "direction", "distance"]
    static let fling = ["on", "at", "velocity"]
    static let pinchOn = ["on", "at", "scale", "duration"]
    static let longPressOn = ["on", "at", "duration"]
    static let scrollUntilVisible = ["node", "in", "direction", "max"]
    static let settle = ["timeout"]
    static let waitUntil = ["until", "timeout"]
    /// The one value of the top-level `settle:`.
    static let autoSettle = "auto"
    /// One finger event of a `touches:` stream.
    static let touch = ["id", "phase", "point", "time"]
}
