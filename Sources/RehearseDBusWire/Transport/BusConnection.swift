import CDBus
import Foundation

/// One private libdbus connection, used from one thread only (the service's thread): libdbus sends
/// queued from other threads were found not to be delivered, and flushes from them deadlocked
/// (docs/ARCHITECTURE.md, "Threads and who owns what"), so nothing here is shared.
package final class BusConnection {
    package let raw: OpaquePointer

    /// Joins the bus at `address`. With `registeringWithin`, a bus at an address gives its
    /// registration (authentication, then `Hello`) at most that many milliseconds: libdbus's own
    /// waits without end for a daemon that accepted the connection and never answers (stopped).
    package init(_ address: BusAddress, registeringWithin milliseconds: Int32? = nil) throws(BusFailure) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let connection: OpaquePointer?
        switch address {
        case .session: connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .system: connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .address(let text):
            connection = text.withCString { dbus_connection_open_private($0, &error) }
            if let connection {
                let problem =
                    milliseconds.map { Self.register(connection, within: $0) }
                    ?? (dbus_bus_register(connection, &error) == 0 ? Self.describe(error) : nil)
                if let problem {
                    dbus_connection_close(connection)
                    dbus_connection_unref(connection)
                    throw BusFailure("cannot register on the bus at \(text): \(problem)")
                }
            }
        }
        guard let connection else { throw BusFailure("cannot connect to the bus: \(Self.describe(error))") }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
    }

    /// Closing gives up the connection's names: the daemon releases a name when its owner goes,
    /// with no call to wait for (a blocking `ReleaseName` and a flush on a jammed connection once
    /// kept SIGTERM waiting for a minute and more).
    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// Registers `connection` with its daemon as `dbus_bus_register` does (`Hello`, its unique
    /// name), reading and writing for at most `milliseconds`; nil, or what went wrong.
    private static func register(_ connection: OpaquePointer, within milliseconds: Int32) -> String? {
        guard
            let hello = dbus_message_new_method_call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
        else { return "out of memory" }
        defer { dbus_message_unref(hello) }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, hello, &serial) != 0 else { return "out of memory" }
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                guard dbus_message_get_reply_serial(message) == serial else { continue }
                var reader = MessageReader(message)
                let text = (try? reader.string()) ?? ""
                guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_RETURN else {
                    return "Hello failed: \(text) (\(dbus_message_get_error_name(message).map { String(cString: $0) } ?? ""))"
                }
                guard dbus_bus_set_unique_name(connection, text) != 0 else { return "out of memory" }
                return nil
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                return "its daemon did not answer within \(milliseconds) ms (is it stopped?)"
            }
            guard dbus_connection_read_write(connection, Int32((left / .milliseconds(1)).rounded(.up))) != 0 else {
                return "the daemon closed the connection"
            }
        }
    }

    package static func describe(_ error: DBusError) -> String {
        guard errorIsSet(error) else { return "unknown error" }
        let name = error.name.map { String(cString: $0) } ?? ""
        let message = error.message.map { String(cString: $0) } ?? ""
        return "\(message) (\(name))"
    }

    /// Takes the well-known `name`; with `replace`, from its current owner if that one allows it.
    package func requestName(_ name: String, replace: Bool) throws(BusFailure) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let flags =
            UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE) | UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT)
            | (replace ? UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) : 0)
        let result = name.withCString { dbus_bus_request_name(raw, $0, flags, &error) }
        guard result >= 0 else { throw BusFailure("cannot request the name \(name): \(Self.describe(error))") }
        guard result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER else {
            throw BusFailure("the name \(name) is taken by another connection (use --replace to take it over)")
        }
    }

    /// Asks the bus for the signals that match `rule` (blocks for the daemon's answer).
    package func addMatch(_ rule: String) throws(BusFailure) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        rule.withCString { dbus_bus_add_match(raw, $0, &error) }
        guard !errorIsSet(error) else { throw BusFailure("cannot watch the bus (\(rule)): \(Self.describe(error))") }
    }
}

/// `dbus_error_is_set` is a function; wrapped for a `let` error.
private func errorIsSet(_ error: DBusError) -> Bool {
    var copy = error
    return dbus_error_is_set(&copy) != 0
}
