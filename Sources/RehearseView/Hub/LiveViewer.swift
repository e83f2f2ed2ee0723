import RehearseCore
import RehearseScenario
import RehearseSession
import RehearseSupport

/// The live viewer's side on the service's thread: takes the pages' commands to the default
/// session's simulation (so D-Bus clients see them as any other event), and sends the pages a
/// frame (the scene drawn from presentation values, the clock, plugin state and new events)
/// whenever something changed, at most ``framesPerSecond`` while anything moves, none while idle.
public final class LiveViewer: SessionCompanion {
    /// The most frames a page gets in a second.
    public static let framesPerSecond = 60
    /// The most new events one frame carries; more are counted, not sent.
    static let maximumEventsPerFrame = 200

    let hub: ViewerHub
    private let readOnly: Bool
    let timeline: RunTimelineWorker?
    private let frameInterval = Duration.seconds(1) / LiveViewer.framesPerSecond
    /// The simulation whose events are being collected (a restart replaces it).
    private weak var watched: Simulation?
    private var newEvents: [String] = []
    private var droppedEvents = 0
    /// Something changed since the last frame that a page should see at once (a command, a
    /// newcomer), or that may wait for the next frame time (events, movement).
    private var changedNow = true
    private var changedSinceFrame = true
    private var lastFrame: ContinuousClock.Instant?
    /// Whether the pages are shown the loaded run (a page scrubbed) rather than the live simulation.
    private var reviewing = false
    /// The loaded run's scene at the time a page scrubbed to, once simulated.
    private var review: SceneSnapshot?
    /// The fingers the pages have down.
    private let fingers = PageFingers()
    /// The wall clock frames are paced by.
    private let now: () -> ContinuousClock.Instant

    /// A viewer of the default session; `readOnly` refuses every command (pages only watch), and
    /// a `scenario` (its file's run) gives the pages a timeline to scrub. Nothing of the run is
    /// simulated here: its events are marked, and its scenes simulated, on threads of their own.
    public convenience init(readOnly: Bool, scenario: Scenario?, registry: PluginRegistry) {
        self.init(readOnly: readOnly, scenario: scenario, registry: registry, now: { .now })
    }

    /// A viewer whose frames are paced by the wall clock `now` (a test's own).
    init(readOnly: Bool, scenario: Scenario?, registry: PluginRegistry, now: @escaping () -> ContinuousClock.Instant) {
        self.readOnly = readOnly
        self.now = now
        let hub = ViewerHub()
        self.hub = hub
        timeline = scenario.map {
            RunTimelineWorker(timeline: RunTimeline(scenario: $0, registry: registry), waking: { hub.wake() })
        }
    }

    /// Whether the pages are shown a scene of the loaded run.
    var isShowingRun: Bool { review != nil }

    /// What a page is told first.
    var hello: String {
        FieldValue.dictionary([
            "type": "hello", "readOnly": .bool(readOnly), "framesPerSecond": .int(Int64(Self.framesPerSecond)),
            "timeline": timeline.map { $0.timeline.fields(markers: $0.markers) } ?? .dictionary([:]),
        ]).jsonText
    }

    // MARK: SessionCompanion

    public func start(waking wake: @escaping @Sendable () -> Void) {
        hub.setWake(wake)
    }

    public func serve(_ session: SimulatorSession) {
        watch(session.simulation)
        if hub.greetNewcomers(with: { hello }) { changedNow = true }
        if let timeline {
            if let markers = timeline.takeMarkers() {
                hub.broadcast(
                    FieldValue.dictionary(["type": "timeline", "timeline": timeline.timeline.fields(markers: markers)]).jsonText)
            }
            if let scene = timeline.takeScene(), reviewing {
                review = scene.snapshot
                changedNow = true
            }
        }
        for client in hub.takeDeparted() { fingers.cancel(client: client, in: session.simulation) }
        for (client, command) in hub.takeCommands() {
            do {
                try apply(command, from: client, to: session)
                changedNow = true
            } catch {
                hub.send(ViewerHub.errorMessage("\(error)"), to: client)
            }
            watch(session.simulation)  // a restart made a new one
        }
        guard hub.hasClients else { return }
        let simulation = session.simulation
        let moving = simulation.animator.runningCount > 0 || simulation.keyboard.isMoving
        let frameDue = lastFrame.map { now() - $0 >= frameInterval } ?? true
        guard changedNow || ((changedSinceFrame || moving) && frameDue) else { return }
        hub.broadcast(frame(of: session))
    }

    public func waitMilliseconds(idle: Int32) -> Int32 {
        // With no page to show it to, a change waits (the next page gets a frame when it comes).
        guard changedSinceFrame, hub.hasClients, let lastFrame else { return idle }
        let remaining = frameInterval - (now() - lastFrame)
        return min(idle, Int32(max((remaining.inSeconds * 1000).rounded(.up), 0)))
    }

    // MARK: Commands

    private func apply(_ command: ViewerCommand, from client: Int, to session: SimulatorSession) throws {
        // Scrubbing too: it changes what every page shows, and costs a simulation of the run.
        if readOnly { throw ViewerCommandError("this viewer is read-only (--read-only)") }
        let simulation = session.simulation
        func responder() throws -> String {
            guard let id = simulation.scene.firstResponder else {
                throw ViewerCommandError("no text field is focused: tap one first")
            }
            return id
        }
        switch command {
        case .tap(let point): try simulation.inject(.tap(Tap(point: point)))
        case .touch(let phase, let id, let point): try fingers.touch(phase, id: id, at: point, from: client, in: simulation)
        case .moves(let moves): try fingers.move(moves, from: client, in: simulation)
        case .text(let text): try simulation.inject(.text(TextInput(target: try responder(), text: text)))
        case .returnKey: try simulation.inject(.returnKey(NodeTarget(target: try responder())))
        case .motion(let rate): try simulation.inject(.motion(MotionSample(rotationRate: rate)))
        case .rotate(let orientation): try simulation.inject(.orientation(OrientationChange(value: orientation)))
        case .keyboard(let show): if show { simulation.keyboard.show() } else { simulation.keyboard.hide() }
        case .network(let online): try simulation.inject(.network(NetworkChange(online: online)))
        case .statusBarTap: try simulation.inject(.statusBarTap(StatusBarTap()))
        case .play: session.play()
        case .pause: session.pause()
        case .step: session.stepFrame()
        case .speed(let speed): session.setSpeed(speed)
        case .restart: try session.restart()
        case .scrub(let seconds):
            guard let timeline else { throw ViewerCommandError("no scenario was loaded: there is no run to scrub") }
            guard let time = VirtualTime.seconds(seconds) else { throw ViewerCommandError("scrub needs a time in the run") }
            reviewing = true
            timeline.scrub(to: time)
        case .live:
            reviewing = false
            review = nil
        }
    }

    // MARK: Frames

    /// Collects the events `simulation` delivers, once per simulation.
    private func watch(_ simulation: Simulation) {
        guard watched !== simulation else { return }
        watched = simulation
        fingers.removeAll()
        changedNow = true
        simulation.bus.subscribe(.all, owner: "viewer") { [weak self] delivered in
            guard let self else { return }
            if let (phase, touch) = delivered.event.touch, phase == .ended || phase == .cancelled { fingers.lifted(touch.id) }
            changedSinceFrame = true
            guard newEvents.count < Self.maximumEventsPerFrame else {
                droppedEvents += 1
                return
            }
            newEvents.append(delivered.traceLine)
        }
    }

    private func frame(of session: SimulatorSession) -> String {
        let simulation = session.simulation
        let snapshot = review ?? SceneSnapshot(simulation)
        var plugins: Fields = [:]
        for id in simulation.pluginIDs { plugins[id] = simulation.plugin(id).map { .dictionary($0.state) } }
        let message = FieldValue.dictionary([
            "type": "frame",
            "svg": .string(SVGRenderer.screen(snapshot)),
            "time": .double(simulation.now.seconds),
            "review": review.map { .double($0.time.seconds) } ?? .bool(false),
            "mode": .string(simulation.mode.rawValue),
            "paused": .bool(session.isPaused),
            "speed": .double(session.speed),
            "firstResponder": .string(simulation.scene.firstResponder ?? ""),
            "keyboard": .bool(simulation.keyboard.isVisible),
            "orientation": .string(simulation.scene.orientation.rawValue),
            "width": .double(snapshot.screen.width),
            "height": .double(snapshot.screen.height),
            "state": .dictionary(plugins),
            "events": .array(newEvents.map(FieldValue.string)),
            "droppedEvents": .int(Int64(droppedEvents)),
        ]).jsonText
        newEvents.removeAll(keepingCapacity: true)
        droppedEvents = 0
        changedNow = false
        changedSinceFrame = false
        lastFrame = now()
        return message
    }
}
