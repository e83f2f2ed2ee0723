import CDBus
import CProcess
import Glibc
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSupport

/// The libdbus side of one started plugin's peer-to-peer connection, owned by whoever holds the
/// ``PluginConnection``'s lock: reading its registration, making calls and waiting for answers.
final class PluginPeerLink {
    static let hostPath = "/org/rehearse/Simulator"
    static let hostInterface = "org.rehearse.PluginHost1"
    /// The largest message a plugin may send.
    static let maximumMessageBytes = 1 << 20

    private let connection: OpaquePointer
    private let process: PluginProcess
    /// The id the scenario gave the plugin.
    let id: String
    private let deadline: Duration
    private let serials = MessageSerials()
    /// The name each `Hello` on the connection gets.
    private let uniqueName = PluginHostStandardMethods.uniqueName()
    private var registered = false
    private var fault: RemotePluginError?
    /// Keeps the program on the CPU of the thread that calls it.
    private var placement: PluginPlacement

    /// Takes `connection` (a reference the caller gave up) from `process`'s program.
    init(connection: OpaquePointer, process: PluginProcess, id: String, deadline: Duration) {
        self.connection = connection
        self.process = process
        self.id = id
        self.deadline = deadline
        // Moved only while unreaped: a program ended as `rehearse` exits (SIGTERM) is reaped while a
        // simulation thread may still be about to call it, and its id may then be anyone's.
        placement = PluginPlacement(pid: process.pid, startedWith: process.startingCPUs) { [process] _, cpu in
            process.unlessReaped { rehearse_place_on_cpu($0, cpu) } ?? ESRCH
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        dbus_connection_set_max_message_size(connection, Int(Self.maximumMessageBytes))
        dbus_connection_set_max_received_size(connection, Int(Self.maximumMessageBytes))
    }

    deinit {
        close()
        dbus_connection_unref(connection)
    }

    /// Closes the connection (a program that ends when it goes needs no signal); every later call
    /// throws. The program is ended by whoever started it.
    func close() {
        if fault == nil { fault = RemotePluginError("the run that started the plugin is over") }
        if dbus_connection_get_is_connected(connection) != 0 { dbus_connection_close(connection) }
    }

    // MARK: Registration

    /// Waits until `deadline` for the plugin's `RegisterPlugin`, answers it, and returns what it declared.
    func awaitRegistration(until deadline: ContinuousClock.Instant) throws(PluginStartError) -> RemotePluginDeclaration {
        while ContinuousClock.now < deadline {
            guard dbus_connection_get_is_connected(connection) != 0 else {
                // A program that closed its connection is usually ending: let it, until the
                // deadline, so that what it still writes (busctl prints after it closes) is not
                // lost and the message says how it ended.
                while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                throw PluginStartError(
                    "plugin '\(id)' closed its connection before it registered (the program \(process.ending))")
            }
            if let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                guard isRegistration(message) else {
                    answerStray(message)
                    continue
                }
                do {
                    let declaration = try PluginRegistration.read(message, expectedID: id)
                    registered = true
                    reply(to: message, .success(MessageWriter()))
                    flush(until: deadline)
                    return declaration
                } catch {
                    reply(to: message, .failure(error))
                    flush(until: deadline)
                    throw PluginStartError("plugin '\(id)' registered wrongly: \(error.message)")
                }
            }
            guard process.isRunning else {
                throw PluginStartError("plugin '\(id)' ended before it registered (the program \(process.ending))")
            }
            let left = deadline - ContinuousClock.now
            _ = dbus_connection_read_write(connection, Int32(max(1, min(50, left.milliseconds))))
        }
        throw PluginStartError("plugin '\(id)' did not register within \(Int(ScenarioLimits.remoteStartSeconds)) s")
    }

    private func isRegistration(_ message: OpaquePointer) -> Bool {
        dbus_message_is_method_call(message, Self.hostInterface, "RegisterPlugin") != 0
            && dbus_message_has_path(message, Self.hostPath) != 0
    }

    /// Answers a call other than the registration awaited: a stock client's `Hello`, `Peer` and
    /// `Introspect` calls (``PluginHostStandardMethods``), and with an error a second registration
    /// or an unknown method; drops anything else, and the calls that come while
    /// ``maximumMessageBytes`` of answers wait for the plugin to read them (a plugin that calls and
    /// never reads cannot fill this memory).
    private func answerStray(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL,
            dbus_connection_get_outgoing_size(connection) < Self.maximumMessageBytes
        else { return }
        if let answer = PluginHostStandardMethods.answer(message, uniqueName: uniqueName) {
            reply(to: message, answer)
            return
        }
        reply(
            to: message,
            .failure(
                isRegistration(message) && registered
                    ? MethodFailure(SimulatorError.alreadyRegistered, "plugin '\(id)' is registered already")
                    : MethodFailure(
                        SimulatorError.unknownMethod,
                        "the host answers RegisterPlugin, Hello, org.freedesktop.DBus.Peer and Introspect only")))
    }

    /// Queues the answer to `call`; it goes out as the connection is next read or written, never
    /// waiting for the plugin to read it (a plugin that does not read would hold the host).
    private func reply(to call: OpaquePointer, _ answer: Result<MessageWriter, MethodFailure>) {
        guard dbus_message_get_no_reply(call) == 0 else { return }
        let reply: OpaquePointer?
        switch answer {
        case .success(let body):
            var message = OutgoingMessage.reply(to: call)
            message.body = body
            reply = message.make(serial: serials.take())
        case .failure(let failure):
            reply = dbus_message_new_error(call, failure.name, failure.message)
        }
        guard let reply else { return }
        dbus_connection_send(connection, reply, nil)
        dbus_message_unref(reply)
    }

    /// Writes what is queued for the plugin until it is all written or `deadline` comes.
    private func flush(until deadline: ContinuousClock.Instant) {
        while dbus_connection_has_messages_to_send(connection) != 0, dbus_connection_get_is_connected(connection) != 0 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            _ = dbus_connection_read_write(connection, Int32(max(1, min(50, left.milliseconds))))
        }
    }

    // MARK: Calls

    /// Makes `call` and waits for the answer, the program on the caller's CPU (``PluginPlacement``);
    /// the first fault ends the program and is thrown again by every later call.
    func answer(_ call: PluginCall) throws(RemotePluginError) -> RemoteAnswer {
        if let fault { throw fault }
        do {
            return try placement.call { () throws(RemotePluginError) in try exchange(call) }
        } catch {
            fault = error
            process.stop()
            throw error
        }
    }

    private func exchange(_ pluginCall: PluginCall) throws(RemotePluginError) -> RemoteAnswer {
        let what = pluginCall.description
        guard let call = pluginCall.message(to: nil).make(serial: serials.take()) else {
            throw RemotePluginError("cannot build \(what)")
        }
        defer { dbus_message_unref(call) }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let reply = dbus_connection_send_with_reply_and_block(connection, call, Int32(max(1, deadline.milliseconds)), &error)
        while let stray = dbus_connection_pop_message(connection) {
            answerStray(stray)
            dbus_message_unref(stray)
        }
        guard let reply else {
            let name = error.name.map { String(cString: $0) } ?? ""
            if dbus_connection_get_is_connected(connection) == 0 || !process.isRunning {
                throw RemotePluginError("the plugin's connection closed during \(what) (the program \(process.ending))")
            }
            if name == DBUS_ERROR_NO_REPLY {
                throw RemotePluginError("no answer within \(deadline.secondsText) to \(what)")
            }
            let text = error.message.map { String(cString: $0) } ?? ""
            throw RemoteAnswerReader.refusal(name: name, message: text, to: what)
        }
        defer { dbus_message_unref(reply) }
        return try RemoteAnswerReader.answer(in: reply, to: what)
    }
}
