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

        public init() {}
    }

    /// The bus connection; nil when the service serves only peers.
    private let connection: BusConnection?
    private let loop = WatchLoop()
    /// The peer-to-peer server (`--listen`) and the peers connected to it.
    private var server: OpaquePointer?
    private var peers: [OpaquePointer] = []
    private var helloCount = 0
    private let options: Options
    private let registry: PluginRegistry
    private var setup: Scenario
    private(set) var simulation: Simulation
    private var pacer = RealtimePacer(from: .zero)
    private var announced: [String: FieldValue] = [:]
    /// The connection the message being handled came on (the bus or a peer): replies go there.
    private var source: OpaquePointer?
    /// Delivered events whose `Event` signals are not yet sent: those a method call causes are
    /// built and sent after its reply, so the caller's answer waits for neither.
    private var heldEvents: [DeliveredEvent] = []
    private var serials = MessageSerials()
    /// Until when the loop polls without sleeping (see ``peerSpin``).
    private var spinDeadline: ContinuousClock.Instant?

    /// How long the loop stays awake after a peer's message: a peer driving the simulation call
    /// by call sends its next call within this, and catching it awake saves a wake-up of the
    /// service on every call (Benchmarks/README.md, "D-Bus"). Not on one CPU, where spinning would
    /// keep the peer itself from running.
    private static let peerSpin: Duration? = ProcessInfo.processInfo.activeProcessorCount > 1 ? .microseconds(50) : nil

    /// Connects to `bus` (nil: serve only the peers at `options.listenAddress`), builds the
    /// simulation from `setup` (its steps are not run), serves the object and takes the name.
    public init(bus: BusAddress?, options: Options, registry: PluginRegistry, setup: Scenario) throws {
        guard bus != nil || options.listenAddress != nil else {
            throw BusFailure("nothing to serve: no bus and no address to listen at")
        }
        connection = try bus.map { address throws(BusFailure) in try BusConnection(address) }
        self.options = options
        self.registry = registry
        self.setup = setup
        simulation = try setup.makeSimulation(registry: registry, mode: options.mode)
        if let connection {
            guard serveObjects(on: connection.raw) else { throw BusFailure("cannot serve objects on the connection") }
            try connection.requestName(options.name, replace: options.replace)
        }
        if let address = options.listenAddress { try listen(at: address) }
        attachSignals()
        announced = properties()
    }

    deinit {
        for peer in peers {
            dbus_connection_close(peer)
            dbus_connection_unref(peer)
        }
        if let server {
            dbus_server_disconnect(server)
            dbus_server_unref(server)
        }
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

    fileprivate func accept(_ peer: OpaquePointer) {
        dbus_connection_ref(peer)
        dbus_connection_set_exit_on_disconnect(peer, 0)
        guard serveObjects(on: peer) else {
            dbus_connection_close(peer)
            dbus_connection_unref(peer)
            return
        }
        peers.append(peer)
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
        for peer in peers { dbus_connection_send(peer, message, nil) }
        if let connection { dbus_connection_send(connection.raw, message, nil) }
        dbus_message_unref(message)
    }

    /// Builds and broadcasts the `Event` signals held so far, in delivery order.
    private func sendHeldSignals() {
        for delivered in heldEvents {
            var signal = OutgoingMessage.signal(path: SimulatorInterface.path, interface: SimulatorInterface.interface, member: "Event")
            signal.body.append(delivered.sequence)
            signal.body.append(delivered.time.seconds)
            signal.body.append(delivered.event.name)
            signal.body.append(delivered.event.fields)
            broadcast(signal)
        }
        heldEvents.removeAll(keepingCapacity: true)
    }

    /// Sends `message` back where the message being handled came from, then releases it.
    private func answer(with message: OpaquePointer) {
        if let source { dbus_connection_send(source, message, nil) }
        dbus_message_unref(message)
    }

    /// Serves until `shouldStop` returns true (checked at least every 50 ms), then releases the
    /// name. Throws if the bus connection goes away.
    public func run(until shouldStop: () -> Bool) throws(BusFailure) {
        pacer = RealtimePacer(from: simulation.now)
        while !shouldStop() {
            loop.poll(milliseconds: waitMilliseconds(), spinningUntil: spinDeadline)
            if let connection, !dispatch(connection.raw) { throw BusFailure("lost the connection to the bus") }
            // Dispatching may run handlers that read `peers`: find the gone ones first.
            let gone = peers.filter { !dispatch($0) }
            peers.removeAll { gone.contains($0) }
            for peer in gone {
                dbus_connection_close(peer)
                dbus_connection_unref(peer)
            }
            switch options.mode {
            case .realtime: simulation.run(until: pacer.virtualTime(at: .now))
            case .virtual: if let next = simulation.timeline.nextDueTime { simulation.run(until: next) }
            case .manual: break
            }
            sendHeldSignals()
            announceChangedProperties()
            peers.forEach(dbus_connection_flush)
            if let connection { dbus_connection_flush(connection.raw) }
        }
        connection?.releaseName(options.name)
    }

    /// How long the loop may wait for messages: until the next due item in realtime mode, not at
    /// all while virtual time has work, otherwise 50 ms (to notice a stop request).
    private func waitMilliseconds() -> Int32 {
        switch options.mode {
        case .manual: return 50
        case .virtual: return simulation.timeline.nextDueTime == nil ? 50 : 0
        case .realtime:
            guard let next = simulation.timeline.nextDueTime else { return 50 }
            let wait = ContinuousClock.now.duration(to: pacer.instant(for: next))
            let milliseconds = Double(wait.components.seconds) * 1000 + Double(wait.components.attoseconds) / 1e15
            return Int32(min(max(milliseconds.rounded(.up), 0), 50))
        }
    }

    // MARK: Signals and properties

    private func attachSignals() {
        simulation.bus.subscribe(.all, owner: "dbus") { [unowned self] delivered in heldEvents.append(delivered) }
    }

    private func properties() -> [String: FieldValue] {
        [
            "Time": .double(simulation.now.seconds),
            "Mode": .string(simulation.mode.rawValue),
            "KeyboardVisible": .bool(simulation.keyboard.isVisible),
            "FirstResponder": .string(simulation.scene.firstResponder ?? ""),
            "Orientation": .string(simulation.scene.orientation.rawValue),
            "EventCount": .int(Int64(simulation.bus.lastSequence)),
        ]
    }

    /// The properties whose changes are announced (Time and EventCount change all the time).
    private static let announcedProperties: Set<String> = ["Mode", "KeyboardVisible", "FirstResponder", "Orientation"]

    private func announceChangedProperties() {
        let current = properties()
        let changed = current.filter { Self.announcedProperties.contains($0.key) && announced[$0.key] != $0.value }
        announced = current
        guard !changed.isEmpty else { return }
        var signal = OutgoingMessage.signal(path: SimulatorInterface.path, interface: "org.freedesktop.DBus.Properties",
                                            member: "PropertiesChanged")
        signal.body.append(SimulatorInterface.interface)
        signal.body.append(changed)
        signal.body.container(DBusType.array, "s") { _ in }
        broadcast(signal)
    }

    private func rebuild(from newSetup: Scenario) throws {
        let fresh = try newSetup.makeSimulation(registry: registry, mode: options.mode)
        setup = newSetup
        simulation = fresh
        pacer = RealtimePacer(from: .zero)
        attachSignals()
    }

    // MARK: Messages

    fileprivate func handle(_ message: OpaquePointer, from source: OpaquePointer) -> DBusHandlerResult {
        self.source = source
        let fromPeer = peers.contains(source)
        defer {
            sendHeldSignals()
            if let spin = Self.peerSpin, fromPeer { spinDeadline = .now + spin }
        }
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? "/"
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
                reply(to: message) { [helloCount] in $0.append(":peer.\(helloCount)") }
                return DBUS_HANDLER_RESULT_HANDLED
            case ("AddMatch", "s"), ("RemoveMatch", "s"):
                reply(to: message)
                return DBUS_HANDLER_RESULT_HANDLED
            default:
                break
            }
        }
        if member == "Introspect", interface == nil || interface == "org.freedesktop.DBus.Introspectable" {
            guard let xml = Introspection.xml(for: path, events: simulation.eventVocabulary) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            reply(to: message) { $0.append(xml) }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard path == SimulatorInterface.path else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        do {
            switch interface {
            case "org.freedesktop.DBus.Properties"?:
                try handleProperties(member, signature, message)
            case nil, SimulatorInterface.interface?:
                guard let method = Method(rawValue: member) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                guard signature == method.signature else {
                    throw MethodFailure(SimulatorError.invalidArgs,
                                        "\(member) takes (\(method.signature)), not (\(signature))")
                }
                if options.readOnly, method.changesState {
                    throw MethodFailure(SimulatorError.notPermitted, "the service is read-only: \(member) changes state")
                }
                try handle(method, message)
            default:
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
        } catch let failure as MethodFailure {
            sendError(failure, to: message)
        } catch {
            sendError(MethodFailure(SimulatorError.invalidField, "\(error)"), to: message)
        }
        // PropertiesChanged goes out once per loop round, after every message read in it.
        return DBUS_HANDLER_RESULT_HANDLED
    }

    private func reply(to message: OpaquePointer, _ fill: (inout MessageWriter) -> Void = { _ in }) {
        var reply = OutgoingMessage.reply(to: message)
        fill(&reply.body)
        guard let made = reply.make(serial: serials.take()) else { return }
        answer(with: made)
    }

    private func sendError(_ failure: MethodFailure, to message: OpaquePointer) {
        guard let reply = dbus_message_new_error(message, failure.name, failure.message) else { return }
        answer(with: reply)
    }

    private func handleProperties(_ member: String, _ signature: String, _ message: OpaquePointer) throws {
        var reader = MessageReader(message)
        switch (member, signature) {
        case ("Get", "ss"):
            let interface = try readArgument { try reader.string() }, name = try readArgument { try reader.string() }
            guard interface == SimulatorInterface.interface else {
                throw MethodFailure(SimulatorError.unknownInterface, "no interface \(interface)")
            }
            guard let value = properties()[name] else { throw MethodFailure(SimulatorError.unknownProperty, "no property \(name)") }
            reply(to: message) { writer in
                if name == "EventCount", case .int(let count) = value {
                    writer.container(DBusType.variant, "t") { $0.append(UInt64(count)) }
                } else {
                    writer.appendVariant(value)
                }
            }
        case ("GetAll", "s"):
            let interface = try readArgument { try reader.string() }
            guard interface == SimulatorInterface.interface else {
                throw MethodFailure(SimulatorError.unknownInterface, "no interface \(interface)")
            }
            reply(to: message) { $0.append(properties()) }
        case ("Set", "ssv"):
            throw MethodFailure(SimulatorError.propertyReadOnly, "the simulator's properties are read-only")
        default:
            throw MethodFailure(SimulatorError.invalidArgs, "Properties.\(member) does not take (\(signature))")
        }
    }

    /// Reads an argument, turning a reading problem into the matching error reply.
    private func readArgument<Value>(_ read: () throws -> Value) throws(MethodFailure) -> Value {
        do {
            return try read()
        } catch MessageReader.Problem.signature(let reason) {
            throw MethodFailure(SimulatorError.invalidArgs, reason)
        } catch MessageReader.Problem.value(let reason) {
            throw MethodFailure(SimulatorError.invalidField, reason)
        } catch {
            throw MethodFailure(SimulatorError.invalidArgs, "\(error)")
        }
    }

    private func handle(_ method: Method, _ message: OpaquePointer) throws {
        var reader = MessageReader(message)
        switch method {
        case .inject:
            let name = try readArgument { try reader.string() }
            let fields = try readArgument { try reader.fields() }
            let sequence = try inject(name, fields, at: nil)
            reply(to: message) { $0.append(sequence) }
        case .injectAt:
            let seconds = try readArgument { try reader.double() }
            let name = try readArgument { try reader.string() }
            let fields = try readArgument { try reader.fields() }
            guard seconds >= 0, let time = VirtualTime.seconds(seconds) else {
                throw MethodFailure(SimulatorError.invalidField, "time must be a number of seconds, 0 or more")
            }
            let sequence = try inject(name, fields, at: time)
            reply(to: message) { $0.append(sequence) }
        case .injectStrings:
            let name = try readArgument { try reader.string() }
            let pairs = try readArgument { try reader.stringPairs() }
            let fields: Fields
            do { fields = try FieldText.fields(pairs) } catch { throw MethodFailure(SimulatorError.invalidField, "\(error)") }
            let sequence = try inject(name, fields, at: nil)
            reply(to: message) { $0.append(sequence) }
        case .advance:
            let seconds = try readArgument { try reader.double() }
            guard options.mode != .realtime else {
                throw MethodFailure(SimulatorError.wrongMode, "Advance needs manual or virtual mode; the clock is realtime")
            }
            guard seconds >= 0, seconds <= 1e6, let duration = VirtualTime.seconds(seconds) else {
                throw MethodFailure(SimulatorError.invalidField, "seconds must be from 0 to 1000000, found \(seconds)")
            }
            simulation.advance(by: duration)
            reply(to: message) { $0.append(simulation.now.seconds) }
        case .loadScenario:
            let yaml = try readArgument { try reader.string() }
            let scenario: Scenario
            do {
                scenario = try ScenarioLoader(registry: registry).load(data: Data(yaml.utf8), file: "scenario")
            } catch {
                throw MethodFailure(SimulatorError.invalidScenario, error.description)
            }
            try rebuild(from: scenario)
            reply(to: message)
        case .reset:
            try rebuild(from: setup)
            reply(to: message)
        case .get:
            let path = try readArgument { try reader.string() }
            let value: FieldValue?
            do { value = try simulation.value(at: path) } catch {
                throw MethodFailure(SimulatorError.unknownPath, error.description)
            }
            reply(to: message) { $0.appendVariant(value ?? .string("")) }
        case .snapshot:
            reply(to: message) { $0.append(SceneJSON.snapshot(of: simulation)) }
        case .listPlugins:
            let installed = Set(simulation.pluginIDs)
            reply(to: message) { writer in
                writer.container(DBusType.array, "(ssb)") { array in
                    for descriptor in registry.descriptors {
                        array.container(DBusType.struct, nil) { entry in
                            entry.append(descriptor.id)
                            entry.append(descriptor.summary)
                            entry.append(installed.contains(descriptor.id))
                        }
                    }
                }
            }
        case .configure:
            let plugin = try readArgument { try reader.string() }
            let settings = try readArgument { try reader.fields() }
            guard registry[plugin] != nil else {
                let known = registry.descriptors.map(\.id).joined(separator: ", ")
                throw MethodFailure(SimulatorError.unknownPlugin, "no plugin '\(plugin)' (plugins: \(known))")
            }
            var configured = setup
            if let index = configured.plugins.firstIndex(where: { $0.id == plugin }) {
                configured.plugins[index].overrides = settings
            } else {
                configured.plugins.append((plugin, settings))
            }
            do { try rebuild(from: configured) } catch { throw MethodFailure(SimulatorError.invalidField, "\(plugin): \(error)") }
            reply(to: message)
        }
        try readArgument { try reader.finish() }
    }

    /// Builds the event, checks it and injects it now (or schedules it): its sequence number, or
    /// 0 when it was swallowed or is still to come.
    private func inject(_ name: String, _ fields: Fields, at time: VirtualTime?) throws -> UInt64 {
        let event: Event
        do {
            event = try Event(name: name, fields: fields)
        } catch {
            throw MethodFailure(SimulatorError.invalidField, "\(name): \(error)")
        }
        do {
            if let time {
                try simulation.inject(event, at: time)
                return 0
            }
            return try simulation.inject(event) ?? 0
        } catch .unknownEvent(let name, _) {
            throw MethodFailure(SimulatorError.unknownEvent, "unknown event '\(name)'; ListPlugins and `rehearse events` give the vocabulary")
        } catch {
            throw MethodFailure(SimulatorError.invalidField, "\(name): \(error)")
        }
    }
}

/// The methods of `org.rehearse.Simulator1`, with their input signatures.
private enum Method: String {
    case inject = "Inject", injectAt = "InjectAt", injectStrings = "InjectStrings", advance = "Advance"
    case loadScenario = "LoadScenario", reset = "Reset", get = "Get", snapshot = "Snapshot"
    case listPlugins = "ListPlugins", configure = "Configure"

    var signature: String {
        switch self {
        case .inject: "sa{sv}"
        case .injectAt: "dsa{sv}"
        case .injectStrings: "sa{ss}"
        case .advance: "d"
        case .loadScenario, .get: "s"
        case .reset, .snapshot, .listPlugins: ""
        case .configure: "sa{sv}"
        }
    }

    var changesState: Bool {
        switch self {
        case .get, .snapshot, .listPlugins: false
        default: true
        }
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
