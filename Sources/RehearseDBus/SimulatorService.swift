import CDBus
import Foundation
import RehearseCore
import RehearseScenario
import RehearseSession

/// `org.rehearse.Simulator1` on a bus: the simulation's methods, its `Event` signal for every
/// delivered event, and its properties. Everything runs on the thread that calls ``run(until:)``,
/// the simulation included, so libdbus is only ever touched from one thread (checked in debug
/// builds: ``OwnerThread``).
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
    public static let maximumPeers = 64
    /// How long a peer may take to authenticate before it is disconnected.
    public static let authenticationTimeout = Duration.seconds(5)
    /// ``Options/idlePeerTimeout``'s default.
    public static let defaultIdlePeerTimeout = Duration.seconds(60)
    /// The most bytes that may wait to be sent to one peer; a peer that falls further behind (it
    /// stopped reading) is disconnected, as dbus-daemon does past its per-connection limits.
    public static let maximumPeerBacklog = 8 << 20
    /// The most bytes that may wait to be sent to the bus daemon before the simulation pauses for
    /// it to catch up (the daemon is not dropped: the service waits for it instead).
    static let maximumBusBacklog = 8 << 20
    /// The longest the loop (and a session's thread) waits for messages, so a stop request is seen
    /// within it: the same as the viewer's own loop.
    static let idleMilliseconds = CompanionLoop.idleMilliseconds
    /// The most calls that may wait for the default session (behind a long `Advance`, say); past
    /// it a call is refused at once with `org.rehearse.Error.Limit`, as a created session's are.
    static let maximumQueuedCalls = SessionWorker.maximumQueuedCalls

    /// A connection made straight to the service (`--listen`).
    final class Peer {
        let connection: OpaquePointer
        /// For log lines: peers are numbered in the order they connected.
        let number: Int
        let connectedAt: ContinuousClock.Instant
        /// When it last sent a message (or connected).
        var lastActive: ContinuousClock.Instant
        /// The signals it asked for.
        var matchRules = PeerMatchRules()

        init(connection: OpaquePointer, number: Int) {
            self.connection = connection
            self.number = number
            connectedAt = .now
            lastActive = connectedAt
        }
    }

    /// The bus connection; nil when the service serves only peers.
    let connection: BusConnection?
    let loop = WatchLoop()
    var threadOwner = OwnerThread()
    /// The peer-to-peer server (`--listen`) and the peers connected to it.
    var server: OpaquePointer?
    /// The peers served: messages go only to these.
    var peers: [Peer] = []
    /// Peers taken out of service whose connections are closed at the next safe point: never
    /// while a message of theirs is being handled (``closeRetiredPeers()``).
    var retired: [Peer] = []
    var peersConnected = 0
    private var helloCount = 0
    let options: Options
    let registry: PluginRegistry
    /// The default session and the ones clients created.
    var sessions: SessionTable
    /// Where every session's recordings go (`--record`), if anywhere.
    let recordings: RecordingFolder?
    /// Builds the sessions clients ask for, off this thread.
    let sessionFactory: SessionFactory
    /// The connection the message being handled came on (the bus or a peer).
    var source: OpaquePointer?
    /// Whether a connection's messages are being dispatched now. Handlers never dispatch (long
    /// work runs outside them), and nothing closes a connection while this is true.
    var isDispatching = false
    /// Calls to the default session, each with a reference to it and to its connection, answered
    /// in order by ``answerDefaultSessionCalls()``.
    private var defaultSessionCalls: [(call: OpaquePointer, connection: OpaquePointer)] = []
    /// Whether ``answerDefaultSessionCalls()`` runs: a long call serves the other connections
    /// between its slices, and their calls to the default session join the queue.
    private var answeringDefaultSession = false
    /// The bus client whose call to the default session is being answered, and whether it left
    /// the bus meanwhile (its long work then stops, as a peer's does when it goes).
    var defaultSessionCaller: (name: String, left: Bool)?
    /// The fingers the default session's callers put down, cancelled when a caller leaves.
    var defaultSessionFingers = DefaultSessionFingers()
    let serials = MessageSerials()
    /// What the sessions' threads read: stop, and whether the bus daemon is behind.
    let state = ServiceState()
    /// Written by the sessions' threads when they have something to send.
    let wake = WakeSignal()
    /// Until when the loop polls without sleeping (see ``peerSpin``).
    private var spinDeadline: ContinuousClock.Instant?
    /// Whether the service should stop, as ``run(until:)`` was given it; long work asks it too.
    private var shouldStop: () -> Bool = { false }
    /// What serves the default session beside D-Bus (the live viewer), if anything.
    private let companion: (any SessionCompanion)?

    /// How long the loop stays awake after a peer's message: a peer driving the simulation call
    /// by call sends its next call within this, and catching it awake saves a wake-up of the
    /// service on every call (Benchmarks/README.md, "D-Bus"). Not on one CPU, where spinning would
    /// keep the peer itself from running.
    private static let peerSpin: Duration? = ProcessInfo.processInfo.activeProcessorCount > 1 ? .microseconds(50) : nil

    /// Connects to `bus` (nil: serve only the peers at `options.listenAddress`, or only the
    /// companion), builds the simulation from `setup` (its steps are not run), serves the object
    /// and takes the name; `companion` serves the default session too.
    public init(bus: BusAddress?, options: Options, registry: PluginRegistry, setup: Scenario,
                companion: (any SessionCompanion)? = nil) throws {
        guard bus != nil || options.listenAddress != nil || companion != nil else {
            throw BusFailure("nothing to serve: no bus and no address to listen at")
        }
        self.companion = companion
        connection = try bus.map { address throws(BusFailure) in try BusConnection(address) }
        self.options = options
        self.registry = registry
        let session = try SimulatorSession(setup: setup, registry: registry, mode: options.mode)
        recordings = options.recordFolder.map(RecordingFolder.init)
        sessionFactory = SessionFactory(wake: wake)
        sessions = SessionTable(defaultObject: SimulatorObject(path: SimulatorInterface.path, session: session, readOnly: options.readOnly,
                                                               recordings: recordings, recordingName: "default"))
        sessions.defaultObject.host = self
        if let connection {
            guard serveObjects(on: connection.raw) else { throw BusFailure("cannot serve objects on the connection") }
            // Sessions end when the client that created them leaves the bus.
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'")
            try connection.requestName(options.name, replace: options.replace)
        }
        if let address = options.listenAddress { try listen(at: address) }
    }

    deinit {
        shutDown()
    }

    /// Ends the sessions' threads, answers the calls still waiting, closes every peer and the
    /// server (libdbus removes its socket file); safe to call twice.
    private func shutDown() {
        state.stopRequested.store(true, ordering: .relaxed)
        sessionFactory.finish()
        finishSessionCreations()
        for entry in sessions.entries { closeWorker(at: entry.worker.path) }
        answerDefaultSessionCalls()
        retire(peers)
        closeRetiredPeers()
        if let server {
            dbus_server_disconnect(server)
            dbus_server_unref(server)
            self.server = nil
        }
    }

    /// A line on standard error: what the service did to a misbehaving peer.
    func log(_ line: String) {
        FileHandle.standardError.write(Data("rehearse serve: \(line)\n".utf8))
    }

    /// Answers method calls on every path of `connection` and polls it in the loop.
    func serveObjects(on connection: OpaquePointer) -> Bool {
        loop.watch(connection: connection)
        var vtable = DBusObjectPathVTable(
            unregister_function: nil, message_function: handleMessage,
            dbus_internal_pad1: nil, dbus_internal_pad2: nil, dbus_internal_pad3: nil, dbus_internal_pad4: nil)
        return "/".withCString { path in
            dbus_connection_register_fallback(connection, path, &vtable, Unmanaged.passUnretained(self).toOpaque())
        } != 0
    }

    /// Delivers what `connection` has read; false once it is gone.
    func dispatch(_ connection: OpaquePointer) -> Bool {
        threadOwner.check()
        precondition(!isDispatching, "a handler must not dispatch: long work runs outside the handlers")
        isDispatching = true
        defer { isDispatching = false }
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(connection)
        }
        return dbus_connection_get_is_connected(connection) != 0
    }

    /// Serves until `shouldStop` returns true (checked at least every 50 ms, and between the
    /// slices of long work), then releases the name and closes the peers and the server.
    /// Throws if the bus connection goes away.
    public func run(until shouldStop: @escaping () -> Bool) throws(BusFailure) {
        threadOwner.claim()
        self.shouldStop = shouldStop
        defer {
            shutDown()
            do {
                try sessions.defaultObject.finishRecording()
            } catch {
                log("the default session's recording was not written: \(error.message)")
            }
        }
        let defaultSession = sessions.defaultObject.session
        defaultSession.startPacing()
        companion?.start { [wake] in wake.notify() }
        while !shouldStop() {
            let idle = companion?.waitMilliseconds(idle: Self.idleMilliseconds) ?? Self.idleMilliseconds
            loop.poll(milliseconds: defaultSession.waitMilliseconds(idle: idle), spinningUntil: spinDeadline,
                      alsoReading: [wake.descriptor])
            wake.clear()
            if let connection, !dispatch(connection.raw) { throw BusFailure("lost the connection to the bus") }
            servePeers()
            finishSessionCreations()
            answerDefaultSessionCalls()
            defaultSessionFingers.cancelOrphans(in: defaultSession.simulation)
            // While the daemon has not taken what was sent, new work waits: memory stays bounded.
            let busBehind = isBusBacklogFull
            state.setBusBacklogFull(busBehind)
            if !busBehind { defaultSession.runDueWork() }
            companion?.serve(defaultSession)
            sendDeliveredEvents()
            sendSessionsOutput()
            if let changed = sessions.defaultObject.takePropertiesChanged() { broadcast(changed) }
            // Nothing here waits for a peer: libdbus writes what it can as it sends, the loop's
            // write watches write the rest, and a peer that falls behind is dropped.
            retire(peers.filter(isFallingBehind))
            closeRetiredPeers()
        }
    }

    /// Between the slices of long work on the default session (asked by the peer or client on
    /// `caller`): sends what was delivered, reads, writes and accepts what sockets have (so
    /// newcomers authenticate), dispatches every connection (calls to created sessions go to
    /// their threads, calls to the default session join its queue), drops peers that fall
    /// behind; false to stop (the service stops, or the caller is gone: a peer dropped, a bus
    /// client that left the bus).
    private func continueLongWork(for caller: OpaquePointer) -> Bool {
        sendDeliveredEvents()
        sendSessionsOutput()
        loop.poll(milliseconds: 0)
        if let connection { _ = dispatch(connection.raw) }
        servePeers()
        finishSessionCreations()
        while isBusBacklogFull, !shouldStop() { loop.poll(milliseconds: 10, writingOnly: true) }
        return !shouldStop() && isServed(caller) && defaultSessionCaller?.left != true
    }

    /// Whether the service was asked to stop (``run(until:)``'s condition).
    var isStopping: Bool { shouldStop() }

    /// Whether more than ``maximumBusBacklog`` bytes wait to be written to the bus daemon.
    private var isBusBacklogFull: Bool {
        guard let connection else { return false }
        return dbus_connection_get_outgoing_size(connection.raw) > Self.maximumBusBacklog
    }

    /// Whether `connection` is the bus or a peer still served (not retired).
    func isServed(_ connection: OpaquePointer) -> Bool {
        connection == self.connection?.raw || peers.contains { $0.connection == connection }
    }

    // MARK: Messages

    fileprivate func handle(_ message: OpaquePointer, from source: OpaquePointer) -> DBusHandlerResult {
        threadOwner.check()
        let outerSource = self.source
        self.source = source
        let peer = peers.first { $0.connection == source }
        peer?.lastActive = .now
        defer {
            self.source = outerSource
            sendDeliveredEvents()
            if let spin = Self.peerSpin, peer != nil { spinDeadline = .now + spin }
        }
        if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL, peer == nil { closeSessionsOfDepartedClient(message) }
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? "/"
        let caller = peer.map { SessionTable.Owner.peer($0.connection) } ?? dbus_message_get_sender(message).map { .bus(String(cString: $0)) }
        if let entry = sessions.entry(at: path) {
            if !entry.shared, entry.owner != caller {
                send(.failure(MethodFailure(SimulatorError.accessDenied, "\(path) belongs to another client")), to: message, on: source)
            } else if !entry.worker.submit(message, from: source) {
                send(.failure(MethodFailure(SimulatorError.limit, "\(SessionWorker.maximumQueuedCalls) calls already wait for \(path)")),
                     to: message, on: source)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        if interface == "org.freedesktop.DBus", peer != nil {
            // Clients that expect a bus (gdbus --address, jeepney, rehearse inject and monitor) greet
            // a peer too and ask for signals: give them a name, and keep their match rules (a peer
            // gets the signals its rules take, of the default session and of its own sessions).
            switch (member, signature) {
            case ("Hello", ""):
                helloCount += 1
                var name = MessageWriter()
                name.append(":peer.\(helloCount)")
                send(.reply(name), to: message, on: source)
                return DBUS_HANDLER_RESULT_HANDLED
            case ("AddMatch", "s"), ("RemoveMatch", "s"):
                send(changeMatchRules(of: peer, adding: member == "AddMatch", message), to: message, on: source)
                return DBUS_HANDLER_RESULT_HANDLED
            default:
                break
            }
        }
        if let reply = Introspection.reply(to: message, at: path, objectPaths: sessions.paths(visibleTo: caller),
                                           events: path == SimulatorInterface.path ? sessions.defaultObject.session.simulation.eventVocabulary : nil) {
            send(.reply(reply), to: message, on: source)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard path == SimulatorInterface.path else {
            guard path.hasPrefix(SessionTable.sessionsPath + "/") else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            send(.failure(MethodFailure(SimulatorError.unknownObject, "no session at \(path): it was closed, or its client left")),
                 to: message, on: source)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if interface == nil || interface == SimulatorInterface.interface, let method = SimulatorMethod(rawValue: member), !method.usesSimulation {
            guard let answer = sessions.defaultObject.answer(message, betweenSlices: { true }) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            send(answer, to: message, on: source)  // nothing yet for `.later`: the host answers
        } else {
            queueDefaultSessionCall(message, from: source)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// `AddMatch` or `RemoveMatch` from `peer`.
    private func changeMatchRules(of peer: Peer?, adding: Bool, _ message: OpaquePointer) -> SimulatorObject.Answer {
        var reader = MessageReader(message)
        guard let peer, let rule = try? reader.string(maximumBytes: PeerMatchRules.maximumRuleBytes) else {
            return .failure(MethodFailure("org.freedesktop.DBus.Error.MatchRuleInvalid",
                                          "a match rule is at most \(PeerMatchRules.maximumRuleBytes) bytes of text"))
        }
        do {
            if adding { try peer.matchRules.add(rule) } else { try peer.matchRules.remove(rule) }
            return .reply(MessageWriter())
        } catch {
            return .failure(error)
        }
    }

    /// Keeps `message`, a call to the default session, and a reference to its connection for
    /// ``answerDefaultSessionCalls()``; refuses it when ``maximumQueuedCalls`` already wait.
    private func queueDefaultSessionCall(_ message: OpaquePointer, from source: OpaquePointer) {
        guard defaultSessionCalls.count < Self.maximumQueuedCalls else {
            send(.failure(MethodFailure(SimulatorError.limit, "\(Self.maximumQueuedCalls) calls already wait for \(SimulatorInterface.path)")),
                 to: message, on: source)
            return
        }
        dbus_message_ref(message)
        dbus_connection_ref(source)
        defaultSessionCalls.append((message, source))
    }

    /// Answers the calls to the default session, in the order they came, outside any dispatch:
    /// a long one (an `Advance` of many slices) dispatches every connection between its slices,
    /// the bus included, so nobody waits for it but the calls queued behind it. Calls of
    /// connections no longer served are dropped; once the service stops, calls are refused.
    private func answerDefaultSessionCalls() {
        guard !answeringDefaultSession else { return }
        answeringDefaultSession = true
        defer { answeringDefaultSession = false }
        while !defaultSessionCalls.isEmpty {
            let (call, connection) = defaultSessionCalls.removeFirst()
            defer {
                dbus_message_unref(call)
                dbus_connection_unref(connection)
            }
            guard isServed(connection) else { continue }
            guard !state.stopRequested.load(ordering: .relaxed) else {
                send(.failure(MethodFailure(SimulatorError.unknownObject, "the service is stopping")), to: call, on: connection)
                continue
            }
            // Fingers of callers that left go before anyone's next call: it may need the room.
            defaultSessionFingers.cancelOrphans(in: sessions.defaultObject.session.simulation)
            source = connection
            defaultSessionCaller = dbus_message_get_sender(call).map { (String(cString: $0), false) }
            let owner = caller(of: call), session = sessions.defaultObject.session, before = session.simulation.touchesDown
            let answer = sessions.defaultObject.answer(call) { continueLongWork(for: connection) }
                ?? .failure(MethodFailure(SimulatorError.unknownMethod, "\(SimulatorInterface.path) has no such method"))
            if let owner {
                defaultSessionFingers.note(owner, downBefore: before, in: session.simulation)
                // A caller that left during its own long call leaves what it put down meanwhile.
                if !isServed(connection) || defaultSessionCaller?.left == true { defaultSessionFingers.left(owner) }
            }
            defaultSessionCaller = nil
            source = nil
            // The events the call delivered go out before its reply: a client that reads events
            // after the reply has them all.
            sendDeliveredEvents()
            send(answer, to: call, on: connection)
        }
    }

    /// Sends `answer` to the caller of `call`, on the connection the call came on, unless that
    /// connection is no longer served.
    private func send(_ answer: SimulatorObject.Answer, to call: OpaquePointer, on source: OpaquePointer) {
        guard isServed(source), let message = answer.message(answering: call, serial: serials.take()) else { return }
        dbus_connection_send(source, message, nil)
        dbus_message_unref(message)
    }
}

/// libdbus's message callback: hands the message to the service passed as user data.
private let handleMessage: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = {
    connection, message, userData in
    guard let connection, let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return Unmanaged<SimulatorService>.fromOpaque(userData).takeUnretainedValue().handle(message, from: connection)
}
