import Foundation
import RehearseCore
import RehearseScenario

/// One simulation as a client drives it, in no transport's terms: `org.rehearse.Simulator1`'s
/// methods on typed arguments (refused with a ``SessionError``), its properties, the clock's
/// pacing, recording, and the events delivered since they were last taken. The D-Bus service
/// decodes calls, calls these and encodes the replies; the live viewer (a ``SessionCompanion``)
/// drives the default session through the same methods.
public final class SimulatorSession {
    /// The most events that may wait on the clock (`InjectAt`, motion streams, plugins' work).
    public static let maximumPendingEvents = ScenarioLimits.pendingEvents
    /// The longest `Advance`, in seconds: a scenario file's longest run.
    public static let maximumAdvance = ScenarioLimits.runSeconds
    /// How many scheduled items an `Advance` runs before it lets the service send what they
    /// delivered and look at its stop request.
    public static let advanceSlice = 100

    public let registry: PluginRegistry
    public let mode: ClockMode
    /// The set-up the simulation was built from (its steps are not run).
    public private(set) var setup: Scenario
    /// The simulation now: `Reset`, `LoadScenario` and `Configure` replace it.
    public private(set) var simulation: Simulation
    private var pacer = RealtimePacer(from: .zero)
    /// Whether the clock is held (the viewer's pause): due work waits in realtime and virtual mode.
    public private(set) var isPaused = false
    /// Delivered events not yet taken by ``takeDeliveredEvents()``.
    private var delivered: [DeliveredEvent] = []
    /// The fingers of the gestures put on the clock and not yet ended (``scheduleGesture(_:_:)``).
    var heldFingers = FingerReservations()
    /// What the session was given, as a scenario file, when it is recorded (``startRecording(as:)``).
    private var recorder: ScenarioRecorder?
    private var recordingName: String?

    /// Builds the simulation from `setup` (its steps are not run).
    public init(setup: Scenario, registry: PluginRegistry, mode: ClockMode) throws {
        self.setup = setup
        self.registry = registry
        self.mode = mode
        simulation = try setup.makeSimulation(registry: registry, mode: mode)
        record()
    }

    private func record() {
        simulation.bus.subscribe(.all, owner: "dbus") { [unowned self] event in delivered.append(event) }
    }

    /// The events delivered since the last call, in order.
    public func takeDeliveredEvents() -> [DeliveredEvent] {
        defer { delivered.removeAll(keepingCapacity: true) }
        return delivered
    }

    // MARK: The clock

    /// Starts pacing a realtime clock from now, at the current speed.
    public func startPacing() {
        pacer = RealtimePacer(from: simulation.now, rate: pacer.rate)
    }

    /// Simulated seconds per wall-clock second in realtime mode (``RealtimePacer/rates``).
    public var speed: Double { pacer.rate }

    /// Paces the realtime clock at `speed` from now on.
    public func setSpeed(_ speed: Double) {
        pacer = RealtimePacer(from: simulation.now, rate: speed)
    }

    /// Holds the clock: nothing due runs until ``play()`` (``stepFrame()`` moves it a frame).
    public func pause() {
        isPaused = true
    }

    /// Lets the clock run again from where it was held.
    public func play() {
        guard isPaused else { return }
        isPaused = false
        startPacing()
    }

    /// Holds the clock (if it ran) and runs it on to the device's next display frame.
    public func stepFrame() {
        isPaused = true
        simulation.run(until: simulation.nextFrameTime)
    }

    /// `Reset`: the simulation as its set-up builds it (the viewer's restart).
    public func restart() throws {
        try reset()
    }

    /// Runs what is due: in realtime mode up to the wall clock, in virtual mode the next due item,
    /// at most ``advanceSlice`` items either way; manual mode waits for `Advance`, a paused clock
    /// for ``play()``.
    public func runDueWork() {
        guard !isPaused else { return }
        switch mode {
        case .realtime: _ = simulation.timeline.run(until: pacer.virtualTime(at: .now), atMost: Self.advanceSlice)
        case .virtual:
            if let next = simulation.timeline.nextDueTime { _ = simulation.timeline.run(until: next, atMost: Self.advanceSlice) }
        case .manual: break
        }
    }

    /// How long the service may wait for messages before work is due: until the next due item in
    /// realtime mode, not at all while virtual time has work, otherwise `idle`.
    public func waitMilliseconds(idle: Int32) -> Int32 {
        guard !isPaused else { return idle }
        switch mode {
        case .manual: return idle
        case .virtual: return simulation.timeline.nextDueTime == nil ? idle : 0
        case .realtime:
            guard let next = simulation.timeline.nextDueTime else { return idle }
            let wait = ContinuousClock.now.duration(to: pacer.instant(for: next))
            let milliseconds = Double(wait.components.seconds) * 1000 + Double(wait.components.attoseconds) / 1e15
            return Int32(min(max(milliseconds.rounded(.up), 0), Double(idle)))
        }
    }

    // MARK: Methods

    /// `Inject` and `InjectAt`: the event's sequence number, or 0 when it was swallowed or is still to come.
    public func inject(_ name: String, _ fields: Fields, at time: VirtualTime? = nil) throws(SessionError) -> UInt64 {
        let event: Event
        let fields = try found(fields, for: name)
        do {
            event = try Event(name: name, fields: fields)
        } catch {
            throw SessionError(.invalidField, "\(name): \(error)")
        }
        do {
            guard let time else { return try simulation.inject(event) ?? 0 }
            guard simulation.timeline.pendingCount < Self.maximumPendingEvents else {
                throw SessionError(
                    .limit,
                    "\(Self.maximumPendingEvents) events already wait on the clock; "
                        + "advance it or inject fewer ahead of time")
            }
            try simulation.inject(event, at: time)
            return 0
        } catch let failure as SessionError {
            throw failure
        } catch let refusal as InjectionError {
            switch refusal {
            case .unknownEvent:
                throw SessionError(.unknownEvent, "\(refusal); ListPlugins and `rehearse events` give the vocabulary")
            case .textTooLong: throw SessionError(.limit, "\(name): \(refusal)")
            case .unknownNode, .notATextInput, .invalidTime, .invalidFields, .invalidTouch, .cascadeLimit:
                throw SessionError(.invalidField, "\(name): \(refusal)")
            }
        } catch {
            throw SessionError(.invalidField, "\(name): \(error)")
        }
    }

    /// `fields` with a `target` given as a node query (a mapping, ``NodeQuery``) replaced by the id
    /// of the node it finds in the scene now; other fields as they are.
    private func found(_ fields: Fields, for name: String) throws(SessionError) -> Fields {
        guard case .dictionary(let given)? = fields["target"] else { return fields }
        let query: NodeQuery
        do { query = try NodeQuery(fields: given) } catch { throw SessionError(.invalidField, "\(name): target: \(error)") }
        var fields = fields
        fields["target"] = .string(try resolve(query, for: name))
        return fields
    }

    /// `InjectAt`'s time checked: finite seconds, 0 or more.
    public static func injectionTime(_ seconds: Double) throws(SessionError) -> VirtualTime {
        guard seconds >= 0, seconds <= maximumAdvance, let time = VirtualTime.seconds(seconds) else {
            throw SessionError(.invalidField, "time must be from 0 to \(Int(maximumAdvance)) seconds, found \(seconds)")
        }
        return time
    }

    /// `InjectStrings`: values read as the command line reads them.
    public func injectStrings(_ name: String, _ pairs: [(key: String, value: String)]) throws(SessionError) -> UInt64 {
        let fields: Fields
        do { fields = try FieldText.fields(pairs) } catch { throw SessionError(.invalidField, "\(name): \(error)") }
        return try inject(name, fields)
    }

    /// `Advance`: moves a manual or virtual clock on by `seconds`, in slices of at most
    /// ``advanceSlice`` items; after each, `betweenSlices` may send what was delivered and returns
    /// false to stop (the service is stopping). Returns the time reached.
    public func advance(by seconds: Double, betweenSlices: () -> Bool) throws(SessionError) -> Double {
        try requireMovableClock("Advance")
        guard seconds >= 0, seconds <= Self.maximumAdvance, let duration = VirtualTime.seconds(seconds) else {
            throw SessionError(.invalidField, "seconds must be from 0 to \(Int(Self.maximumAdvance)), found \(seconds)")
        }
        return run(until: simulation.now + duration, betweenSlices: betweenSlices)
    }

    /// Refuses `method` on a realtime clock, which only the wall clock moves.
    func requireMovableClock(_ method: String) throws(SessionError) {
        guard mode != .realtime else {
            throw SessionError(.wrongMode, "\(method) needs manual or virtual mode; the clock is realtime")
        }
    }

    /// Runs the clock on to `target` in slices of ``advanceSlice`` pieces of work, calling
    /// `betweenSlices` after each (false stops it there). Returns the time reached.
    func run(until target: VirtualTime, betweenSlices: () -> Bool) -> Double {
        while !simulation.timeline.run(until: target, atMost: Self.advanceSlice) {
            guard betweenSlices() else { break }
        }
        return simulation.now.seconds
    }

    /// `LoadScenario`: a new simulation from the scenario's set-up.
    public func loadScenario(_ yaml: String) throws(SessionError) {
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader(registry: registry).load(data: Data(yaml.utf8), file: "scenario")
        } catch {
            throw SessionError(.invalidScenario, error.description)
        }
        try rebuild(from: scenario, failure: .invalidScenario)
    }

    /// `Reset`: the simulation as its set-up builds it.
    public func reset() throws(SessionError) {
        try rebuild(from: setup, failure: .invalidScenario)
    }

    /// `Configure`: the set-up with `plugin` installed and `settings` over its defaults, rebuilt.
    public func configure(_ plugin: String, _ settings: Fields) throws(SessionError) {
        guard registry[plugin] != nil else {
            let known = registry.descriptors.map(\.id).joined(separator: ", ")
            throw SessionError(.unknownPlugin, "no plugin '\(plugin)' (plugins: \(known))")
        }
        var configured = setup
        if let index = configured.plugins.firstIndex(where: { $0.id == plugin }) {
            configured.plugins[index].overrides = settings
        } else {
            configured.plugins.append((plugin, settings))
        }
        try rebuild(from: configured, failure: .invalidField, naming: plugin)
    }

    /// Refuses a remote plugin's registration under `id` when the session has a plugin by that
    /// id or the program knows one (changing nothing).
    public func checkRegistration(of id: String) throws(SessionError) {
        guard registry[id] == nil, !setup.plugins.contains(where: { $0.id == id }) else {
            throw SessionError(
                .invalidField, "a plugin '\(id)' is in this session or this program already: register under another id")
        }
    }

    /// `RegisterPlugin`: the set-up with the remote plugin `descriptor` installed with its
    /// defaults, rebuilt, as `Configure` rebuilds it. The registration was answered already, so a
    /// plugin that cannot be installed (an unknown subscription, its `Install` failed) leaves the
    /// set-up as it was and is said on the bus as a fault is: `plugin.failed {plugin, error}`.
    public func register(_ descriptor: PluginDescriptor) throws(SessionError) {
        do {
            try checkRegistration(of: descriptor.id)
            var registered = setup
            registered.plugins.append((descriptor.id, [:]))
            registered.remotePlugins.append(RemotePluginEntry(command: nil, descriptor: descriptor))
            try rebuild(from: registered, failure: .invalidField, naming: descriptor.id)
        } catch {
            simulation.bus.publish(.pluginFailed(PluginFailure(plugin: descriptor.id, error: error.message)), source: "bus")
            throw error
        }
    }

    private func rebuild(from newSetup: Scenario, failure: SessionError.Kind, naming subject: String? = nil) throws(SessionError)
    {
        do {
            simulation = try newSetup.makeSimulation(registry: registry, mode: mode)
        } catch {
            throw SessionError(failure, subject.map { "\($0): \(error)" } ?? "\(error)")
        }
        setup = newSetup
        pacer = RealtimePacer(from: .zero, rate: pacer.rate)
        heldFingers = FingerReservations()
        record()
        if let recordingName { recorder = ScenarioRecorder(simulation, setup: setup, name: recordingName) }
    }

    // MARK: Recording

    /// Records what the session is given from now, as a scenario file named `name`; a recording
    /// starts over whenever the set-up changes (`LoadScenario`, `Configure`, `Reset`).
    public func startRecording(as name: String) {
        recordingName = name
        recorder = ScenarioRecorder(simulation, setup: setup, name: name)
    }

    /// The recording so far as a scenario file, ending at the simulated time now; nil when the
    /// session is not recorded.
    public func recording() throws(SessionError) -> String? {
        do {
            return try recorder?.text(endingAt: simulation.now)
        } catch {
            throw SessionError(.invalidScenario, "the set-up cannot be written back: \(error)")
        }
    }

    /// `Get`: the value at `path` ("" for an absent one).
    public func value(at path: String) throws(SessionError) -> FieldValue {
        do {
            return try simulation.value(at: path) ?? .string("")
        } catch {
            throw SessionError(.unknownPath, error.description)
        }
    }

    /// `Snapshot`: the scene as JSON.
    public func snapshot() -> String { SceneJSON.snapshot(of: simulation) }

    /// `ListPlugins`: every registered plugin, and whether it is installed.
    public func plugins() -> [(id: String, summary: String, installed: Bool)] {
        let installed = Set(simulation.pluginIDs)
        return registry.descriptors.map { ($0.id, $0.summary, installed.contains($0.id)) }
    }

    // MARK: Properties

    /// The value of each property (``SessionProperty``).
    public var properties: [SessionProperty: FieldValue] {
        Dictionary(uniqueKeysWithValues: SessionProperty.allCases.map { ($0, $0.value(in: simulation)) })
    }
}
