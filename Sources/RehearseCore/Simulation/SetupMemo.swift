/// What a set-up built that the next build of the same set-up starts from instead of building it
/// again. An exploration's worker keeps one and gives it to every simulation it sets up
/// (``Simulation/setupMemo``): a scenario's set-up is deterministic, so each build sees what the
/// first saw, and a plugin that keeps what its set-up costs (the login animator's solved layout)
/// under its id takes a copy the next time, the same to the last bit. A plugin that keeps nothing
/// (a command plugin, whose program starts afresh) is set up afresh every time. One thread uses a
/// memo at a time: a worker's own.
///
/// Where every plugin of a set-up keeps what its install built as the whole set-up left it
/// (``keepInstall(as:_:)``), the memo keeps the scene that set-up left too, and the next builds
/// start from it (``startedFromInstalledScene``): no node is added, and each plugin takes what it
/// kept (``installed(_:as:)``) and changes nothing of the scene, which is already as it left it.
public final class SetupMemo {
    private var kept: [String: Any] = [:]
    /// While a first build installs its plugins: how each that said so gives what it built, as the
    /// whole set-up leaves it.
    private var installs: [String: () -> Any] = [:]
    /// What each plugin's install built, as the first build's set-up left it, by plugin id.
    private var installed: [String: Any] = [:]
    /// The scene as the first build's set-up left it, and its vocabulary, once every plugin of it
    /// kept its install.
    private var installedValues: Simulation.InstalledValues?

    /// Whether the build under way started from the scene the first build's set-up left, its
    /// plugins installed: a plugin then takes what its install built (``installed(_:as:)``) and
    /// changes nothing of the scene. False for a first build, and for a set-up one of whose plugins
    /// keeps nothing of its install.
    public private(set) var startedFromInstalledScene = false
    /// The plugins whose configuration's durations were checked (``Plugin/checkDurations(_:in:)``):
    /// by id, with no key made for each build.
    var durationsChecked: Set<String> = []

    public init() {}

    /// What was kept under `key` (a plugin's id), if it is a `Value`.
    public func kept<Value>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        kept[key] as? Value
    }

    /// Keeps `value` under `key` for the next build.
    public func keep(_ value: some Any, as key: String) {
        kept[key] = value
    }

    /// Says that the plugin `id` has built at its install everything a build started from the
    /// scene the set-up left needs, and keeps, once the set-up is built (every plugin installed),
    /// what `state` then gives: what the plugin built, as the whole set-up left it (the login
    /// animator's layout, which the gateway lays out again as it embeds its child). A plugin's
    /// install that calls it (or finds ``installed(_:as:)``) must change the scene only by what it
    /// does on the way (nodes added, removed or laid out; nothing scheduled, published or animated).
    public func keepInstall(as id: String, _ state: @escaping () -> Any) {
        installs[id] = state
    }

    /// What the plugin `id`'s install built, as the first build's set-up left it, if the build under
    /// way started from the scene that set-up left (``startedFromInstalledScene``); `nil` otherwise,
    /// and then the install builds it.
    public func installed<Value>(_ id: String, as type: Value.Type = Value.self) -> Value? {
        startedFromInstalledScene ? installed[id] as? Value : nil
    }

    /// A new simulation of `device` (the set-up's, as every build's) for the build under way:
    /// started from the scene the first build's set-up left and the vocabulary its plugins
    /// declared, if the memo kept them (``startedFromInstalledScene`` then says so), else with an
    /// empty scene.
    public func makeSimulation(device: Device, animationModel: AnimationModel, mode: ClockMode) -> Simulation {
        installs = [:]
        startedFromInstalledScene = installedValues != nil
        return Simulation(device: device, animationModel: animationModel, mode: mode, installed: installedValues)
    }

    /// Ends the build under way of `simulation`, whose set-up is built with the plugins `ids`
    /// installed: keeps its scene, its vocabulary and what each plugin's install built, for the
    /// next builds to start from, if `sceneKept` (the scene has no constraint layout of the
    /// scenario's own, which is made again every time), none is kept yet and every one of those
    /// plugins kept its install.
    public func finishBuild(of simulation: Simulation, plugins ids: [String], sceneKept: Bool) {
        defer { installs = [:] }
        guard sceneKept, installedValues == nil, ids.allSatisfy({ installs[$0] != nil }) else { return }
        installed = installs.mapValues { $0() }
        installedValues = simulation.installedValues()
    }
}
