import CDBus
import Foundation
import RehearseCore
import RehearseDBusWire
import RehearsePluginHost
import RehearseSupport
import Synchronization

/// The way to a plugin that registered with a created session over the bus (or as a peer): each
/// call leaves through the session's outbox, which the service's thread sends to the plugin's
/// client, and the session's thread waits for the answer within the deadline. Only that session
/// waits: the service's thread and the other sessions go on. The first fault (no answer in
/// time, an error reply, a wrong answer, the client gone) makes every later call throw it.
final class BusPluginChannel: PluginCallChannel {
    private let client: PluginCalls.Callee
    /// The path of the session whose thread makes the calls.
    private let session: String
    private let calls: PluginCalls
    private let serials: MessageSerials
    private let send: @Sendable (SessionWorker.Outgoing) -> Void
    private let deadline: Duration
    private let fault = Mutex<RemotePluginError?>(nil)

    /// A channel to `client`'s object at ``PluginCall/path``; `send` puts a call in the session's outbox.
    init(
        client: PluginCalls.Callee, session: String, calls: PluginCalls, serials: MessageSerials,
        deadline: Duration = .seconds(ScenarioLimits.remoteDefaultDeadline),
        send: @escaping @Sendable (SessionWorker.Outgoing) -> Void
    ) {
        self.client = client
        self.session = session
        self.calls = calls
        self.serials = serials
        self.deadline = deadline
        self.send = send
        calls.attach(client)
    }

    deinit {
        calls.detach(client)
    }

    func answer(_ call: PluginCall) throws -> RemoteAnswer {
        if let fault = fault.withLock({ $0 }) { throw fault }
        do {
            return try exchange(call)
        } catch {
            fault.withLock { $0 = error }
            throw error
        }
    }

    private func exchange(_ call: PluginCall) throws(RemotePluginError) -> RemoteAnswer {
        let destination: String? = if case .bus(let name) = client { name } else { nil }
        let serial = serials.take()
        guard let message = call.message(to: destination).make(serial: serial) else {
            throw RemotePluginError("cannot build \(call.description)")
        }
        do {
            try calls.expect(serial, from: client, for: session)
        } catch {
            dbus_message_unref(message)
            throw RemotePluginError("\(error) before \(call.description)")
        }
        send(.call(message, to: client))
        switch calls.wait(for: serial, until: Date.now.addingTimeInterval(Double(deadline.milliseconds) / 1000)) {
        case .reply(let reply)?:
            defer { dbus_message_unref(reply) }
            return try RemoteAnswerReader.answer(in: reply, to: call.description)
        case .gone(let ending)?:
            throw RemotePluginError("\(ending) during \(call.description)")
        case nil:
            throw RemotePluginError("no answer within \(deadline.secondsText) to \(call.description)")
        }
    }
}
