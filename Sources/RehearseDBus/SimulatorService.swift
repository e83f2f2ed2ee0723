import CDBus
import Foundation
import RehearseCore
import RehearseScenario

/// `org.rehearse.Simulator1` on a bus: the simulation's methods, its `Event` signal for every
/// delivered event, and its properties. Everything runs on the thread that calls ``run(until:)``,
/// the simulation included, so libdbus is only ever touched from one thread.
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

        public init() {}
    }

    /// The most peers served at once; a connection past it is closed at once.
    public static let maximumPeers = 64
    /// How long a peer may take to authenticate before it is disconnected.
    public static let authenticationTimeout = Duration.seconds(5)
    /// The most bytes that may wait to be sent to one peer; a peer that falls further behind (it
    /// stopped reading) is disconnected, as dbus-daemon does past its per-connection limits.
    public static let maximumPeerBacklog = 8 << 20
    /// The most bytes that may wait to be sent to the bus daemon before the simulation pauses for
    /// it to catch up (the daemon is not dropped: the service waits for it instead).
    static let maximumBusBacklog = 8 << 20
    /// The longest the loop (and a session's thread) waits for messages, so a stop request is seen within it.
    static let idleMilliseconds: Int32 = 50

    /// A connection made straight to the service (`--listen`).
    struct Peer {
        let connection: OpaquePointer
        /// For log lines: peers are numbered in the order they connected.
        let number: Int
        let connectedAt: ContinuousClock.Instant
    }

    /// The bus connection; nil when the service serves only peers.
    private let connection: BusConnection?
    private let loop = WatchLoop()
    /// The peer-to-peer server (`--listen`) and the peers connected to it.
    private var server: OpaquePointer?
    var peers: [Peer] = []
    private var peersConnected = 0
    private var helloCount = 0
    let options: Options
    let registry: PluginRegistry
    /// The default session and the ones clients created.
    var sessions: SessionTable
    /// The connection the message being handled came on (the bus or a peer).
    var source: OpaquePointer?
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
    private let companion: (any ServiceCompanion)?

    /// How long the loop stays awake after a peer's message: a peer driving the simulation call
    /// by call sends its next call within this, and catching it awake saves a wake-up of the
    /// service on every call (Benchmarks/README.md, "D-Bus"). Not on one CPU, where spinning would
    /// keep the peer itself from running.
    private static let peerSpin: Duration? = ProcessInfo.processInfo.activeProcessorCount > 1 ? .microseconds(50) : nil

    /// Connects to `bus` (nil: serve only the peers at `options.listenAddress`, or only the
    /// companion), builds the simulation from `setup` (its steps are not run), serves the object
    /// and takes the name; `companion` serves the default session too.
    public init(bus: BusAddress?, options: Options, registry: PluginRegistry, setup: Scenario,
                companion: (any ServiceCompanion)? = nil) throws {
        guard bus != nil || options.listenAddress != nil || companion != nil else {
            throw BusFailure("nothing to serve: no bus and no address to listen at")
        }
        self.companion = companion
        connection = try bus.map { address throws(BusFailure) in try BusConnection(address) }
        self.options = options
        self.registry = registry
        let session = try SimulatorSession(setup: setup, registry: registry, mode: options.mode)
        sessions = SessionTable(defaultObject: SimulatorObject(path: SimulatorInterface.path, session: session, readOnly: options.readOnly,
                                                               recordings: options.recordFolder.map(RecordingFolder.init)))
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

    /// The address peers connect at (`--listen`), as the server has it: with the socket it chose
    /// for `unix:tmpdir=` and its GUID; nil when the service listens for no peers.
    public var peerAddress: String? {
        guard let server, let address = dbus_server_get_address(server) else { return nil }
        defer { dbus_free(address) }
        return String(cString: address)
    }

    /// Ends the sessions' threads, closes every peer and the server (libdbus removes its socket
    /// file); safe to call twice.
    private func shutDown() {
        state.stopRequested.store(true, ordering: .relaxed)
        for path in sessions.workers.map(\.path) { closeWorker(at: path) }
        for peer in peers { close(peer) }
        peers.removeAll()
        if let server {
            dbus_server_disconnect(server)
            dbus_server_unref(server)
            self.server = nil
        }
    }

    private func close(_ peer: Peer) {
        dbus_connection_close(peer.connection)
        dbus_connection_unref(peer.connection)
    }

    /// A line on standard error: what the service did to a misbehaving peer.
    func log(_ line: String) {
        FileHandle.standardError.write(Data("rehearse serve: \(line)\n".utf8))
    }

    /// Answers method calls on every path of `connection` and polls it in the loop.
    private func serveObjects(on connection: OpaquePointer) -> Bool {
        loop.watch(connection: connection)
        var vtable = DBusObjectPathVTable(
            unregister_function: nil, message_function: handleMessage,
            dbus_internal_pad1: nil, dbus_internal_pad2: nil, dbus_internal_pad3: nil, dbus_internal_pad4: nil)
        return "/".withCString { path in
            dbus_connection_register_fallback(connection, path, &vtable, Unmanaged.passUnretained(self).toOpaque())
        } != 0
    }

    /// Serves peers connecting straight to `address` (libdbus's DBusServer), so one driver need
    /// not pay the bus daemon's round trip.
    private func listen(at address: String) throws(BusFailure) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let server = address.withCString({ dbus_server_listen($0, &error) }) else {
            throw BusFailure("cannot listen at \(address): \(BusConnection.describe(error))")
        }
        self.server = server
        dbus_server_set_new_connection_function(server, acceptPeer, Unmanaged.passUnretained(self).toOpaque(), nil)
        loop.watch(server: server)
    }

    fileprivate func accept(_ connection: OpaquePointer) {
        dbus_connection_ref(connection)
        dbus_connection_set_exit_on_disconnect(connection, 0)
        peersConnected += 1
        let peer = Peer(connection: connection, number: peersConnected, connectedAt: .now)
        guard peers.count < Self.maximumPeers else {
            log("refused peer \(peer.number): \(Self.maximumPeers) peers are connected (the limit)")
            close(peer)
            return
        }
        guard serveObjects(on: connection) else {
            close(peer)
            return
        }
        peers.append(peer)
    }

    /// Dispatches what each peer sent and closes the peers that went away, took too long to
    /// authenticate, or let too much go unread.
    private func servePeers() {
        // Dispatching may run handlers that read `peers`: find the gone ones first.
        let now = ContinuousClock.now
        let dropped = peers.filter { peer in
            guard dispatch(peer.connection) else { return true }
            if dbus_connection_get_is_authenticated(peer.connection) == 0, now - peer.connectedAt > Self.authenticationTimeout {
                log("disconnected peer \(peer.number): not authenticated within \(Self.authenticationTimeout)")
                return true
            }
            return isFallingBehind(peer)
        }
        drop(dropped)
    }

    /// Whether more than ``maximumPeerBacklog`` bytes wait for `peer`, which is then logged.
    private func isFallingBehind(_ peer: Peer) -> Bool {
        let backlog = dbus_connection_get_outgoing_size(peer.connection)
        guard backlog > Self.maximumPeerBacklog else { return false }
        log("disconnected peer \(peer.number): \(backlog) bytes unread (the limit is \(Self.maximumPeerBacklog))")
        return true
    }

    private func drop(_ dropped: [Peer]) {
        guard !dropped.isEmpty else { return }
        peers.removeAll { peer in dropped.contains { $0.connection == peer.connection } }
        for peer in dropped { sessions.removeAll(ownedBy: .peer(peer.connection)).forEach(release) }
        dropped.forEach(close)
    }

    /// Delivers what `connection` has read; false once it is gone.
    private func dispatch(_ connection: OpaquePointer) -> Bool {
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(connection)
        }
        return dbus_connection_get_is_connected(connection) != 0
    }

    /// Sends `signal` to every peer and on the bus. Peers come first: a peer that was just
    /// answered is still awake to read it with the reply.
    private func broadcast(_ signal: OutgoingMessage) {
        guard let message = signal.make(serial: serials.take()) else { return }
        broadcast(made: message)
    }

    /// Which peers a signal goes to (on the bus, the daemon's match rules pick who gets it).
    enum PeerAudience {
        /// Every peer: the default session's signals.
        case all
        /// The peer that owns the session the signal is from.
        case only(OpaquePointer)
        /// No peer: a session owned by a client on the bus.
        case none
    }

    /// Sends the built signal `message` on the bus and to `peers`, then releases it.
    func broadcast(made message: OpaquePointer, to audience: PeerAudience = .all) {
        for peer in peers where Self.reaches(audience, peer) {
            dbus_connection_send(peer.connection, message, nil)
        }
        if let connection { dbus_connection_send(connection.raw, message, nil) }
        dbus_message_unref(message)
    }

    private static func reaches(_ audience: PeerAudience, _ peer: Peer) -> Bool {
        // A peer that has not authenticated cannot have asked for anything yet.
        guard dbus_connection_get_is_authenticated(peer.connection) != 0 else { return false }
        switch audience {
        case .all: return true
        case .only(let connection): return connection == peer.connection
        case .none: return false
        }
    }

    /// Broadcasts the `Event` signals of the events delivered since the last time, in order.
    private func sendDeliveredEvents() {
        sessions.defaultObject.takeEventSignals().forEach(broadcast)
    }

    /// Serves until `shouldStop` returns true (checked at least every 50 ms, and between the
    /// slices of long work), then releases the name and closes the peers and the server.
    /// Throws if the bus connection goes away.
    public func run(until shouldStop: @escaping () -> Bool) throws(BusFailure) {
        self.shouldStop = shouldStop
        defer {
            connection?.releaseName(options.name)
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
            // While the daemon has not taken what was sent, new work waits: memory stays bounded.
            let busBehind = isBusBacklogFull
            state.busBacklogFull.store(busBehind, ordering: .relaxed)
            if !busBehind { defaultSession.runDueWork() }
            companion?.serve(defaultSession)
            sendDeliveredEvents()
            sendSessionsOutput()
            if let changed = sessions.defaultObject.takePropertiesChanged() { broadcast(changed) }
            // Nothing here waits for a peer: libdbus writes what it can as it sends, the loop's
            // write watches write the rest, and a peer that falls behind is dropped.
            drop(peers.filter(isFallingBehind))
        }
    }

    /// Between the slices of a long `Advance`: sends what was delivered, writes what sockets take
    /// without waiting or reading anything new, drops peers that fall behind; false to stop.
    private func continueLongWork() -> Bool {
        sendDeliveredEvents()
        sendSessionsOutput()
        loop.poll(milliseconds: 0, writingOnly: true)
        drop(peers.filter(isFallingBehind))
        while isBusBacklogFull, !shouldStop() { loop.poll(milliseconds: 10, writingOnly: true) }
        return !shouldStop()
    }

    /// Whether more than ``maximumBusBacklog`` bytes wait to be written to the bus daemon.
    private var isBusBacklogFull: Bool {
        guard let connection else { return false }
        return dbus_connection_get_outgoing_size(connection.raw) > Self.maximumBusBacklog
    }

    // MARK: Messages

    fileprivate func handle(_ message: OpaquePointer, from source: OpaquePointer) -> DBusHandlerResult {
        self.source = source
        let fromPeer = peers.contains { $0.connection == source }
        defer {
            sendDeliveredEvents()
            if let spin = Self.peerSpin, fromPeer { spinDeadline = .now + spin }
        }
        if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL, !fromPeer { closeSessionsOfDepartedClient(message) }
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? "/"
        if let worker = sessions.worker(at: path) {
            if !worker.submit(message, from: source) {
                send(.failure(MethodFailure(SimulatorError.limit, "\(SessionWorker.maximumQueuedCalls) calls already wait for \(path)")),
                     to: message, on: source)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        if interface == "org.freedesktop.DBus", fromPeer {
            // Clients that expect a bus (gdbus --address, jeepney, rehearse inject and monitor) greet
            // a peer too and ask for signals: give them a name, and accept their match rules (a peer
            // gets every signal; filtering is the client's).
            switch (member, signature) {
            case ("Hello", ""):
                helloCount += 1
                var name = MessageWriter()
                name.append(":peer.\(helloCount)")
                send(.reply(name), to: message, on: source)
                return DBUS_HANDLER_RESULT_HANDLED
            case ("AddMatch", "s"), ("RemoveMatch", "s"):
                send(.reply(MessageWriter()), to: message, on: source)
                return DBUS_HANDLER_RESULT_HANDLED
            default:
                break
            }
        }
        if member == "Introspect", interface == nil || interface == "org.freedesktop.DBus.Introspectable" {
            let events = path == SimulatorInterface.path ? sessions.defaultObject.session.simulation.eventVocabulary : nil
            guard let xml = Introspection.xml(for: path, objectPaths: sessions.paths, events: events) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            var reply = MessageWriter()
            reply.append(xml)
            send(.reply(reply), to: message, on: source)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard path == SimulatorInterface.path else {
            guard path.hasPrefix(SessionTable.sessionsPath + "/") else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            send(.failure(MethodFailure(SimulatorError.unknownObject, "no session at \(path): it was closed, or its client left")),
                 to: message, on: source)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard let answer = sessions.defaultObject.answer(message, betweenSlices: continueLongWork) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        send(answer, to: message, on: source)
        // PropertiesChanged goes out once per loop round, after every message read in it.
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Sends `answer` to the caller of `call`, on the connection the call came on.
    private func send(_ answer: SimulatorObject.Answer, to call: OpaquePointer, on source: OpaquePointer) {
        guard let message = answer.message(answering: call, serial: serials.take()) else { return }
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

/// libdbus's new-peer callback: hands the connection to the service passed as user data.
private let acceptPeer: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    _, peer, userData in
    guard let peer, let userData else { return }
    Unmanaged<SimulatorService>.fromOpaque(userData).takeUnretainedValue().accept(peer)
}
