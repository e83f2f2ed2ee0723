import CDBus
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire

/// A small libdbus client of `org.rehearse.Simulator1`, for `rehearse inject` and
/// `rehearse monitor`: it calls `Inject` and follows the `Event` signal, of the default session or
/// of a session of its own.
public final class SimulatorClient {
    /// An error reply: its D-Bus name and message.
    public struct CallError: Error, CustomStringConvertible, Sendable {
        public let name: String
        public let message: String
        public var description: String { "\(name): \(message)" }
    }

    private let connection: BusConnection
    private let destination: String
    private let serials = MessageSerials()
    /// The object called and followed: the default session until ``createSession(_:)``.
    public private(set) var path = SimulatorInterface.path

    public init(bus: BusAddress, destination: String = SimulatorInterface.defaultName) throws(BusFailure) {
        connection = try BusConnection(bus)
        self.destination = destination
    }

    /// A new call of `member` on ``path`` with arguments `fill`; the caller releases it.
    private func makeCall(_ member: String, on path: String? = nil, _ fill: (inout MessageWriter) -> Void) -> OpaquePointer? {
        var call = OutgoingMessage.methodCall(
            destination: destination, path: path ?? self.path,
            interface: SimulatorInterface.interface, member: member)
        fill(&call.body)
        return call.make(serial: serials.take())
    }

    /// A new `Inject(name, fields)` call message; the caller releases it.
    private func injectCall(_ name: String, _ fields: Fields) -> OpaquePointer? {
        makeCall("Inject") { body in
            body.append(name)
            body.append(fields)
        }
    }

    /// Sends `call` (and releases it), waits for the reply and reads it with `read`.
    private func callAndWait<Value>(_ call: OpaquePointer?, _ read: (inout MessageReader) throws -> Value) throws -> Value {
        guard let call else { throw BusFailure("cannot build the call") }
        defer { dbus_message_unref(call) }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection.raw, call, 5000, &error) else {
            throw CallError(
                name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                message: error.message.map { String(cString: $0) } ?? "no reply")
        }
        defer { dbus_message_unref(reply) }
        var reader = MessageReader(reply)
        return try read(&reader)
    }

    /// Calls `Inject(name, fields)` and returns the sequence number (0: swallowed).
    public func inject(_ name: String, fields: Fields) throws -> UInt64 {
        try callAndWait(injectCall(name, fields)) { try $0.uint64() }
    }

    /// Creates a session of this connection's own with `setup` (`CreateSession`'s keys) and calls
    /// and follows it from now on; it ends when this client does.
    public func createSession(_ setup: Fields) throws {
        let call = makeCall("CreateSession", on: SimulatorInterface.path) { $0.append(setup) }
        path = try callAndWait(call) { try $0.string() }
    }

    /// Calls `Inject(name, fields)` `count` times with up to `window` calls in flight, and returns
    /// the sequence numbers the replies carried, in order.
    public func injectPipelined(_ name: String, fields: Fields, count: Int, window: Int) throws -> [UInt64] {
        var sequences: [UInt64] = []
        sequences.reserveCapacity(count)
        var sent = 0
        var inFlight = 0
        while sequences.count < count {
            while sent < count, inFlight < window {
                guard let call = injectCall(name, fields) else { throw BusFailure("cannot build the call") }
                dbus_connection_send(connection.raw, call, nil)
                dbus_message_unref(call)
                sent += 1
                inFlight += 1
            }
            guard dbus_connection_read_write(connection.raw, 1000) != 0 else {
                throw BusFailure("lost the connection to the bus")
            }
            while let message = dbus_connection_pop_message(connection.raw) {
                defer { dbus_message_unref(message) }
                switch dbus_message_get_type(message) {
                case DBUS_MESSAGE_TYPE_METHOD_RETURN:
                    var reader = MessageReader(message)
                    sequences.append(try reader.uint64())
                    inFlight -= 1
                case DBUS_MESSAGE_TYPE_ERROR:
                    throw CallError(
                        name: dbus_message_get_error_name(message).map { String(cString: $0) } ?? "error",
                        message: "a pipelined call failed")
                default:
                    continue
                }
            }
        }
        return sequences
    }

    /// Follows `Event` signals (only `names` when given), calling `handle` with each and the
    /// sender it came from until `handle` returns false or `shouldStop` does (checked every
    /// 100 ms). On a bus, only the signals of the service's owner are taken (the name's unique
    /// owner when the monitor starts), unless `anySender`: any client may send a look-alike
    /// signal. A peer-to-peer service is the only sender there is. A signal that does not read
    /// as an `Event` is told to `skip` and passed over. `ready` is called once every signal sent
    /// from then on will be seen (the bus has the match rules).
    public func monitor(
        names: [String], anySender: Bool = false, shouldStop: () -> Bool, ready: () -> Void = {},
        skip: (String) -> Void = { _ in }, handle: (DeliveredEvent, String?) -> Bool
    ) throws {
        let owner = try anySender ? nil : serviceOwner()
        var base = "type='signal',interface='\(SimulatorInterface.interface)',member='Event',path='\(path)'"
        if let owner { base += ",sender='\(owner)'" }
        for rule in names.isEmpty ? [base] : names.map({ base + ",arg2='\($0)'" }) { try connection.addMatch(rule) }
        ready()
        while !shouldStop() {
            guard dbus_connection_read_write(connection.raw, 100) != 0 else { throw BusFailure("lost the connection to the bus") }
            while let message = dbus_connection_pop_message(connection.raw) {
                defer { dbus_message_unref(message) }
                guard dbus_message_is_signal(message, SimulatorInterface.interface, "Event") != 0,
                    dbus_message_has_path(message, path) != 0
                else { continue }
                // A bus daemon names every signal's sender; peer to peer, none is named: the
                // service is the only one there.
                let sender = dbus_message_get_sender(message).map { String(cString: $0) }
                guard owner == nil || sender == nil || sender == owner else { continue }
                var reader = MessageReader(message)
                let delivered: DeliveredEvent
                do {
                    let sequence = try reader.uint64()
                    let time = try reader.double()
                    let name = try reader.string()
                    guard names.isEmpty || names.contains(name) else { continue }
                    // Only printed: the name and fields as they came, whichever event it is.
                    let event = Event.custom(name: name, fields: try reader.fields())
                    delivered = DeliveredEvent(
                        sequence: sequence, time: VirtualTime.seconds(time) ?? .zero, event: event,
                        source: sender ?? "dbus")
                } catch {
                    skip("an Event signal from \(sender ?? "the peer") that does not read as one: \(error)")
                    continue
                }
                if !handle(delivered, sender) { return }
            }
        }
    }

    /// The unique name that owns the service's name on a bus; nil peer to peer, where no bus
    /// daemon answers `GetNameOwner` (the service itself answers it `UnknownMethod`).
    private func serviceOwner() throws -> String? {
        var call = OutgoingMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "GetNameOwner")
        call.body.append(destination)
        do {
            return try callAndWait(call.make(serial: serials.take())) { try $0.string() }
        } catch let error as CallError where error.name == SimulatorError.unknownMethod.rawValue {
            return nil
        }
    }
}
