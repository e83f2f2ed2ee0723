import CDBus
import Foundation
import RehearseDBusWire
import RehearseScenario

/// The service's thread's connections: the bus, if any, and the peers connected straight to the
/// service (`--listen`), polled together in one ``WatchLoop``. It accepts and authenticates peers
/// within their caps, drops the ones that misbehave, fans signals out and hands every message to
/// its ``router``. Only the thread that serves touches it (checked in every build:
/// ``ServiceThread``).
final class PeerServer {
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
        /// Its socket, or -1.
        let socket: Int32
        /// Whether what is sent to it in one round of the loop may go out in one write (``BatchedWrite``).
        let takesBatchedWrites: Bool
        /// Bytes seen waiting to be read while it authenticated (two at most a look, until it has
        /// spoken): whether it sent anything past the credentials byte that begins SASL
        /// (``hasSpoken``).
        var bytesHeard = 0

        init(connection: OpaquePointer, number: Int) {
            self.connection = connection
            self.number = number
            connectedAt = .now
            lastActive = connectedAt
            var socket: Int32 = -1
            self.socket = dbus_connection_get_socket(connection, &socket) != 0 ? socket : -1
            takesBatchedWrites = BatchedWrite.canWrite(to: self.socket)
        }

        /// Whether it sent more than the credentials byte (a NUL) that begins its handshake: a
        /// client in the middle of SASL, not a socket that connected and said nothing.
        var hasSpoken: Bool { bytesHeard > 1 }
    }

    /// ``SimulatorService/maximumPeers``.
    static let maximumPeers = 64
    /// ``SimulatorService/maximumAuthenticatingPeers``.
    static let maximumAuthenticatingPeers = 16
    /// ``SimulatorService/authenticationTimeout``.
    static let authenticationTimeout = Duration.seconds(5)
    /// ``SimulatorService/maximumPeerBacklog``.
    static let maximumPeerBacklog = 8 << 20
    /// The most bytes that may wait to be sent to the bus daemon before the simulation pauses for
    /// it to catch up (the daemon is not dropped: the service waits for it instead).
    static let maximumBusBacklog = 8 << 20

    /// How long the loop stays awake after a peer's message: a peer driving the simulation call
    /// by call sends its next call within this, and catching it awake saves a wake-up of the
    /// service on every call (Benchmarks/README.md, "D-Bus"). Not on one CPU, where spinning would
    /// keep the peer itself from running, and only while spinning pays (``SpinBackoff``).
    private static let peerSpin: Duration? = ProcessInfo.processInfo.activeProcessorCount > 1 ? .microseconds(100) : nil

    /// The bus connection; nil when the service serves only peers.
    let bus: BusConnection?
    /// Where every message goes; set once, before the first poll.
    weak var router: (any MessageRouter)?
    let loop = WatchLoop()
    var serviceThread = ServiceThread()
    /// The peer-to-peer server (`--listen`), if the service listens.
    var server: OpaquePointer?
    /// The peers served: messages go only to these.
    var peers: [Peer] = []
    /// Peers taken out of service whose connections are closed at the next safe point: never
    /// while a message of theirs is being handled (``closeRetiredPeers()``).
    var retired: [Peer] = []
    var peersConnected = 0
    /// When every peer place is taken, a newcomer takes the place of a peer idle for longer.
    let idlePeerTimeout: Duration
    /// Whether a connection's messages are being dispatched now. Handlers never dispatch (long
    /// work runs outside them), and nothing closes a connection while this is true.
    private(set) var isDispatching = false
    /// How many peers said `Hello`, to name the next one.
    var helloCount = 0
    /// Until when the loop polls without sleeping (see ``peerSpin``).
    private var spinDeadline: ContinuousClock.Instant?
    /// Whether to spin after the next peer's message.
    private var spinBackoff = SpinBackoff()
    /// The broadcast signals for the bus held until the loop next waits (``BusHold``).
    var busHold = BusHold()
    /// While ``batchingWrites(_:)`` runs: what is sent to each peer that takes batched writes, in order.
    var writeBatch: [(peer: Peer, messages: [BatchedWrite.Item])]?
    /// While ``batchingWrites(_:)`` runs: what is sent on the bus, in order, written after the peers'.
    var busBatch: [BatchedWrite.Item]?
    /// The bus connection's socket, if what is sent on it may go out in one write a round
    /// (``BatchedWrite``: a unix socket); -1 otherwise.
    let busSocket: Int32
    /// Whether a write to the bus was cut short and not finished: its stream is broken, and the
    /// service leaves the bus (``dispatchBus()`` fails).
    var busBroken = false

    /// Connects to `bus`, if given; peers are served once ``listen(at:)`` is called.
    init(bus: BusAddress?, idlePeerTimeout: Duration) throws(BusFailure) {
        let connection = try bus.map { address throws(BusFailure) in try BusConnection(address) }
        var socket: Int32 = -1
        if let connection, dbus_connection_get_socket(connection.raw, &socket) == 0 || !BatchedWrite.canWrite(to: socket) {
            socket = -1
        }
        self.bus = connection
        busSocket = socket
        self.idlePeerTimeout = idlePeerTimeout
        loop.willRead = { [unowned self] descriptor in hear(descriptor) }
    }

    /// Makes the calling thread the one that serves.
    func claimThread() {
        serviceThread.claim()
    }

    /// Closes every peer and the server (libdbus removes its socket file); safe to call twice.
    func close() {
        releaseHeldBusSignals()
        retire(peers)
        closeRetiredPeers()
        if let server {
            dbus_server_disconnect(server)
            dbus_server_unref(server)
            self.server = nil
        }
    }

    /// A line on standard error: what the service did to a misbehaving peer, or could not do. What
    /// it names came from peers (a plugin's paths, a recording's name): control characters are
    /// escaped (``TerminalText``), so no peer forges a line or drives the terminal.
    static func log(_ line: String) {
        FileHandle.standardError.write(Data("rehearse serve: \(TerminalText.escape(line))\n".utf8))
    }

    /// Answers method calls on every path of `connection`, takes the replies to the calls the
    /// service makes (to plugins), and polls it in the loop.
    func serveObjects(on connection: OpaquePointer) -> Bool {
        loop.watch(connection: connection)
        var vtable = DBusObjectPathVTable(
            unregister_function: nil, message_function: handleMessage,
            dbus_internal_pad1: nil, dbus_internal_pad2: nil, dbus_internal_pad3: nil, dbus_internal_pad4: nil)
        let server = Unmanaged.passUnretained(self).toOpaque()
        return "/".withCString { path in dbus_connection_register_fallback(connection, path, &vtable, server) } != 0
            && dbus_connection_add_filter(connection, replyFilter, server, nil) != 0
    }

    /// Sends `message`, a call to a plugin, to `client`: on the bus (the message names it), or to
    /// that very peer while it is served (not to a later peer whose connection has the address
    /// its connection had); releases it.
    func send(_ message: OpaquePointer, to client: PluginCalls.Callee) {
        let connection =
            switch client {
            case .bus: bus?.raw
            case .peer(let number): peers.first { $0.number == number }?.connection
            }
        if let connection { send(message, on: connection) } else { dbus_message_unref(message) }
    }

    /// Waits up to `milliseconds` for any connection (awake for a moment after a peer's message),
    /// or for one of `others` to be readable, and lets libdbus read, write and accept what is ready.
    /// The signals held for the bus (``BusHold``) are written first, unless it is to spin for a
    /// peer's next message: then they stay held while it spins, and once the spin catches nothing
    /// they are written and it returns without sleeping (the next poll may sleep).
    func poll(milliseconds: Int32, alsoReading others: [Int32] = []) {
        serviceThread.check()
        let now = ContinuousClock.now
        let spins = milliseconds != 0 && spinDeadline.map { now < $0 } == true
        if !spins || busHold.isDue(at: now) { releaseHeldBusSignals() }
        let spin = loop.poll(
            milliseconds: milliseconds, spinningUntil: spinDeadline, sleeping: busHold.isEmpty, alsoReading: others)
        switch spin {
        case .caught: spinBackoff.spun(caught: true)
        case .missed: spinBackoff.spun(caught: false)
        case .none: break
        }
        if spin != .caught { releaseHeldBusSignals() }
    }

    /// Delivers what `connection` has read; false once it is gone.
    func dispatch(_ connection: OpaquePointer) -> Bool {
        serviceThread.check()
        precondition(!isDispatching, "a handler must not dispatch: long work runs outside the handlers")
        isDispatching = true
        defer { isDispatching = false }
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(connection)
        }
        return dbus_connection_get_is_connected(connection) != 0
    }

    /// Delivers what the bus connection has read; false once it is gone, or broken (true without a bus).
    func dispatchBus() -> Bool {
        guard let bus else { return true }
        // What libdbus answers itself as it dispatches goes after what is held.
        if dbus_connection_get_dispatch_status(bus.raw) == DBUS_DISPATCH_DATA_REMAINS { releaseHeldBusSignals() }
        return dispatch(bus.raw) && !busBroken
    }

    /// Whether more than ``maximumBusBacklog`` bytes wait to be written to the bus daemon.
    var isBusBacklogFull: Bool {
        guard let bus else { return false }
        return dbus_connection_get_outgoing_size(bus.raw) > Self.maximumBusBacklog
    }

    /// Writes to the bus daemon, reading nothing, while it is behind, until `stop` says to stop.
    func waitForBus(unless stop: () -> Bool) {
        while isBusBacklogFull, !stop() { loop.poll(milliseconds: 10, writingOnly: true) }
    }

    /// Whether `connection` is the bus or a peer still served (not retired).
    func isServed(_ connection: OpaquePointer) -> Bool {
        connection == bus?.raw || isPeer(connection)
    }

    /// Whether `connection` is a peer's still served.
    func isPeer(_ connection: OpaquePointer) -> Bool {
        peer(on: connection) != nil
    }

    /// The peer served on `connection`, if any.
    func peer(on connection: OpaquePointer) -> Peer? {
        peers.first { $0.connection == connection }
    }

    /// Sends `message` on `connection` unless that is no longer served, and releases it.
    func send(_ message: OpaquePointer, on connection: OpaquePointer) {
        serviceThread.check()
        if let peer = peer(on: connection) {
            send(message, to: peer)
        } else if connection == bus?.raw {
            sendOnBus(message)
        }
        dbus_message_unref(message)
    }

    fileprivate func handleReply(_ reply: OpaquePointer, from connection: OpaquePointer) -> DBusHandlerResult {
        serviceThread.check()
        let peer = peers.first { $0.connection == connection }
        return router?.routeReply(reply, from: connection, peer: peer) == true
            ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    fileprivate func handle(_ message: OpaquePointer, from connection: OpaquePointer) -> DBusHandlerResult {
        serviceThread.check()
        let peer = peers.first { $0.connection == connection }
        peer?.lastActive = .now
        defer {
            if let spin = Self.peerSpin, peer != nil, spinBackoff.shouldSpin() { spinDeadline = .now + spin }
        }
        return router?.route(message, from: connection, peer: peer) ?? DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

/// libdbus's filter, which sees every message before the object paths do: hands replies (which
/// have no path) to the router.
private let replyFilter: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = {
    connection, message, userData in
    guard let connection, let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let type = dbus_message_get_type(message)
    guard type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR else {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    return Unmanaged<PeerServer>.fromOpaque(userData).takeUnretainedValue().handleReply(message, from: connection)
}

/// libdbus's message callback: hands the message to the server passed as user data.
private let handleMessage: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = {
    connection, message, userData in
    guard let connection, let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return Unmanaged<PeerServer>.fromOpaque(userData).takeUnretainedValue().handle(message, from: connection)
}
