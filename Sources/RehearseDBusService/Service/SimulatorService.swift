import CDBus
import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseScenario
import RehearseSession

/// `org.rehearse.Simulator1` on a bus: the simulation's methods, its `Event` signal for every
/// delivered event, and its properties, for the bus and the peers of its ``PeerServer``. The service
/// is the router: it decides which session each message is for, checks who may call it, hands it
/// to the session's thread or answers it here (the default session), and sends back what the
/// sessions produced. Everything runs on the thread that calls ``run(until:)``, the default
/// session included, so libdbus is only ever touched from one thread (checked in every build:
/// ``ServiceThread``).
public final class SimulatorService {
    /// How the service behaves.
    public struct Options: Sendable {
        public var name = SimulatorInterface.defaultName
        /// Take the name from another owner that allows it.
        public var replace = false
        /// Refuse every method that changes state.
        public var readOnly = false
        public var mode = ClockMode.realtime
        /// Also serve peers that connect directly, without a bus daemon, at this D-Bus address.
        public var listenAddress: String?
        /// Record every session into this folder (it must exist): `default.yaml` and
        /// `session-N.yaml` when they end, and `Record(name)` writes `name.yaml` at once.
        public var recordFolder: URL?
        /// When every peer place is taken, a newcomer takes the place of the peer that has sent
        /// nothing for the longest, if that is longer than this.
        public var idlePeerTimeout = SimulatorService.defaultIdlePeerTimeout

        public init() {}
    }

    /// The most peers served at once; past it a newcomer takes an idle peer's place
    /// (``Options/idlePeerTimeout``) or is closed at once.
    public static let maximumPeers = PeerServer.maximumPeers
    /// The most peers that may be authenticating at once; a newcomer past it takes the place of
    /// the one that came first among those that sent nothing past their first byte (and is
    /// closed when there is none), so sockets that connect and say nothing keep no prompt client
    /// out and drop no client in the middle of its handshake.
    public static let maximumAuthenticatingPeers = PeerServer.maximumAuthenticatingPeers
    /// How long a peer may take to authenticate before it is disconnected.
    public static let authenticationTimeout = PeerServer.authenticationTimeout
    /// ``Options/idlePeerTimeout``'s default.
    public static let defaultIdlePeerTimeout = Duration.seconds(60)
    /// The most bytes that may wait to be sent to one peer; a peer that falls further behind (it
    /// stopped reading) is disconnected, as dbus-daemon does past its per-connection limits.
    public static let maximumPeerBacklog = PeerServer.maximumPeerBacklog
    /// The longest the loop (and a session's thread) waits for messages, so a stop request is seen
    /// within it: the same as the viewer's own loop.
    static let idleMilliseconds = CompanionLoop.idleMilliseconds
    /// The most calls that may wait for the default session (behind a long `Advance`, say); past
    /// it a call is refused at once with `org.rehearse.Error.Limit`, as a created session's are.
    static let maximumQueuedCalls = SessionWorker.maximumQueuedCalls

    /// The bus connection and the peers: every message comes from it, and goes out through it.
    let server: PeerServer
    var serviceThread = ServiceThread()
    let options: Options
    let registry: PluginRegistry
    /// The default session and the ones clients created.
    var sessions: SessionTable
    /// Where every session's recordings go (`--record`), if anywhere.
    let recordings: RecordingFolder?
    /// Builds the sessions clients ask for, off this thread.
    let sessionFactory: SessionFactory
    /// The connection the message being handled came on (the bus or a peer).
    var callConnection: OpaquePointer?
    /// Calls to the default session, each with a reference to it and to its connection, answered
    /// in order by ``answerDefaultSessionCalls()``.
    var defaultSessionCalls: [(call: OpaquePointer, connection: OpaquePointer)] = []
    /// Whether ``answerDefaultSessionCalls()`` runs: a long call serves the other connections
    /// between its slices, and their calls to the default session join the queue.
    var answeringDefaultSession = false
    /// Who made the call to the default session being answered: its further calls wait their
    /// turn, those that only read too.
    var defaultSessionCallOwner: SessionTable.Owner?
    /// The bus client whose call to the default session is being answered, and whether it left
    /// the bus meanwhile (its long work then stops, as a peer's does when it goes).
    var defaultSessionCaller: (name: String, left: Bool)?
    /// The fingers the default session's callers put down, cancelled when a caller leaves.
    var defaultSessionFingers = DefaultSessionFingers()
    let serials = MessageSerials()
    /// The headers of replies to peers, one for each signature replied with (as many as the
    /// interface's methods have).
    var peerReplyHeaders: [String: MessageHeader] = [:]
    /// What the sessions' threads read: stop, and whether the bus daemon is behind.
    let state = ServiceState()
    /// Written by the sessions' threads when they have something to send.
    let wake = WakeSignal()
    /// The calls sessions made to their plugins and wait for.
    let pluginCalls = PluginCalls()
    /// Whether the service should stop, as ``run(until:)`` was given it; long work asks it too.
    private var shouldStop: () -> Bool = { false }
    /// What serves the default session beside D-Bus (the live viewer), if anything.
    private let companion: (any SessionCompanion)?

    /// Connects to `bus` (nil: serve only the peers at `options.listenAddress`, or only the
    /// companion), builds the simulation from `setup` (its steps are not run), serves the object
    /// and takes the name; `companion` serves the default session too.
    public init(
        bus: BusAddress?, options: Options, registry: PluginRegistry, setup: Scenario,
        companion: (any SessionCompanion)? = nil
    ) throws {
        guard bus != nil || options.listenAddress != nil || companion != nil else {
            throw BusFailure("nothing to serve: no bus and no address to listen at")
        }
        self.companion = companion
        server = try PeerServer(bus: bus, idlePeerTimeout: options.idlePeerTimeout)
        self.options = options
        self.registry = registry
        let session = try SimulatorSession(setup: setup, registry: registry, mode: options.mode)
        recordings = options.recordFolder.map(RecordingFolder.init)
        sessionFactory = SessionFactory(wake: wake)
        sessions = SessionTable(
            defaultObject: SimulatorObject(
                path: SimulatorInterface.path, session: session, readOnly: options.readOnly,
                recordings: recordings, recordingName: "default"))
        sessions.defaultObject.host = self
        server.router = self
        if let connection = server.bus {
            guard server.serveObjects(on: connection.raw) else { throw BusFailure("cannot serve objects on the connection") }
            // Sessions end when the client that created them leaves the bus.
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'")
            try connection.requestName(options.name, replace: options.replace)
        }
        if let address = options.listenAddress { try server.listen(at: address) }
    }

    deinit {
        shutDown()
    }

    /// Ends the sessions' threads, answers the calls still waiting, closes the server
    /// (``PeerServer/close()``); safe to call twice.
    private func shutDown() {
        state.stopRequested.store(true, ordering: .relaxed)
        pluginCalls.stop()  // no session waits for a plugin while the service stops
        sessionFactory.finish()
        finishSessionCreations()
        for entry in sessions.entries { closeWorker(at: entry.worker.path) }
        answerDefaultSessionCalls()
        server.close()
    }

    /// The address peers connect at (`--listen`), as the server has it: with the socket it chose
    /// for `unix:tmpdir=` and its GUID; nil when the service listens for no peers.
    public var peerAddress: String? {
        server.address
    }

    /// Serves until `shouldStop` returns true (checked at least every 50 ms, and between the
    /// slices of long work), then releases the name and closes the peers and the server.
    /// Throws if the bus connection goes away.
    public func run(until shouldStop: @escaping () -> Bool) throws(BusFailure) {
        serviceThread.claim()
        server.claimThread()
        self.shouldStop = shouldStop
        defer {
            shutDown()
            do {
                try sessions.defaultObject.finishRecording()
            } catch {
                PeerServer.log("the default session's recording was not written: \(error.message)")
            }
        }
        let defaultSession = sessions.defaultObject.session
        defaultSession.startPacing()
        companion?.start { [wake] in wake.notify() }
        while !shouldStop() {
            let idle = companion?.waitMilliseconds(idle: Self.idleMilliseconds) ?? Self.idleMilliseconds
            server.poll(
                milliseconds: defaultSession.waitMilliseconds(idle: idle),
                alsoReading: [wake.descriptor] + (companion?.readDescriptors ?? []))
            wake.clear()
            guard server.dispatchBus() else { throw BusFailure("lost the connection to the bus") }
            server.servePeers()
            finishSessionCreations()
            answerDefaultSessionCalls()
            defaultSessionFingers.cancelOrphans(in: defaultSession.simulation)
            // While the daemon has not taken what was sent, new work waits: memory stays bounded.
            let busBehind = server.isBusBacklogFull
            state.setBusBacklogFull(busBehind)
            if !busBehind { defaultSession.runDueWork() }
            companion?.serve(defaultSession)
            server.batchingWrites {
                sendDeliveredEvents()
                sendSessionsOutput()
                if let changed = sessions.defaultObject.takePropertiesChanged() { broadcast(changed) }
            }
            // Nothing here waits for a peer: libdbus writes what it can as it sends, the loop's
            // write watches write the rest, and a peer that falls behind is dropped.
            server.closeDroppedPeers()
        }
    }

    /// Between the slices of long work on the default session (asked by the peer or client on
    /// `caller`): sends what was delivered, reads, writes and accepts what sockets have (so
    /// newcomers authenticate), dispatches every connection (calls to created sessions go to
    /// their threads, calls to the default session join its queue), drops peers that fall
    /// behind; false to stop (the service stops, or the caller is gone: a peer dropped, a bus
    /// client that left the bus).
    func continueLongWork(for caller: OpaquePointer) -> Bool {
        server.batchingWrites {
            sendDeliveredEvents()
            sendSessionsOutput()
        }
        server.poll(milliseconds: 0)
        _ = server.dispatchBus()
        server.servePeers()
        finishSessionCreations()
        server.waitForBus(unless: shouldStop)
        return !shouldStop() && server.isServed(caller) && defaultSessionCaller?.left != true
    }

    /// Whether the service was asked to stop (``run(until:)``'s condition).
    var isStopping: Bool { shouldStop() }
}
