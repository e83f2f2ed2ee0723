import CDBus
import RehearseDBusInterface
import RehearseSession

/// The default session's calls: queued in the order they came, and answered on the connection
/// thread outside any dispatch, so a long one serves every other connection between its slices.
extension SimulatorService {
    /// Keeps `message`, a call to the default session, and a reference to its connection for
    /// ``answerDefaultSessionCalls()``; refuses it when ``maximumQueuedCalls`` already wait.
    func queueDefaultSessionCall(_ message: OpaquePointer, from connection: OpaquePointer) {
        guard defaultSessionCalls.count < Self.maximumQueuedCalls else {
            send(
                .failure(
                    MethodFailure(
                        SimulatorError.limit, "\(Self.maximumQueuedCalls) calls already wait for \(SimulatorInterface.path)")),
                to: message, on: connection)
            return
        }
        dbus_message_ref(message)
        dbus_connection_ref(connection)
        defaultSessionCalls.append((message, connection))
    }

    /// Answers the calls to the default session, in the order they came, outside any dispatch:
    /// a long one (an `Advance` of many slices) dispatches every connection between its slices,
    /// the bus included, so nobody waits for it but the calls queued behind it. Calls of
    /// connections no longer served are dropped; once the service stops, calls are refused.
    func answerDefaultSessionCalls() {
        serviceThread.check()
        guard !answeringDefaultSession else { return }
        answeringDefaultSession = true
        defer { answeringDefaultSession = false }
        while !defaultSessionCalls.isEmpty {
            let (call, connection) = defaultSessionCalls.removeFirst()
            defer {
                dbus_message_unref(call)
                dbus_connection_unref(connection)
            }
            guard server.isServed(connection) else { continue }
            guard !state.stopRequested.load(ordering: .relaxed) else {
                send(.failure(MethodFailure(SimulatorError.unknownObject, "the service is stopping")), to: call, on: connection)
                continue
            }
            // Fingers of callers that left go before anyone's next call: it may need the room.
            defaultSessionFingers.cancelOrphans(in: sessions.defaultObject.session.simulation)
            callConnection = connection
            defaultSessionCaller = dbus_message_get_sender(call).map { (String(cString: $0), false) }
            let owner = caller(of: call)
            let session = sessions.defaultObject.session
            let before = session.simulation.touchesDown
            defaultSessionCallOwner = owner
            let answer =
                sessions.defaultObject.answer(call) { continueLongWork(for: connection) }
                ?? .failure(MethodFailure(SimulatorError.unknownMethod, "\(SimulatorInterface.path) has no such method"))
            if let owner {
                defaultSessionFingers.note(owner, downBefore: before, in: session.simulation)
                // A caller that left during its own long call leaves what it put down meanwhile.
                if !server.isServed(connection) || defaultSessionCaller?.left == true { defaultSessionFingers.left(owner) }
            }
            defaultSessionCaller = nil
            defaultSessionCallOwner = nil
            callConnection = nil
            // The events the call delivered go out before its reply on each connection: a client
            // that reads events after the reply has them all. The peers' writes go before the
            // bus's, so a peer's reply does not wait for the daemon's copies of its events; a
            // peer that takes none of them has its reply before they are even built.
            if let peer = server.peer(on: connection), !server.takes(defaultEventKind, peer) {
                server.batchingWrites { send(answer, to: call, on: connection) }
                server.batchingWrites { sendDeliveredEvents() }
            } else {
                server.batchingWrites {
                    sendDeliveredEvents()
                    send(answer, to: call, on: connection)
                }
            }
        }
    }
}
