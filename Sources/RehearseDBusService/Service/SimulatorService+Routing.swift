import CDBus
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// The service as its server's router: which session a message is for, who may call it, and the
/// answers and signals that go back.
extension SimulatorService: MessageRouter {
    /// Sends `message` where it is for: a created session's call to its thread, if the caller
    /// may call it (`AccessDenied` otherwise); a call to the default session to its queue, or
    /// answered at once when it may be (``answersAtOnce(_:interface:member:caller:)``);
    /// introspection, a peer's bus methods and unknown session paths answered here.
    func route(_ message: OpaquePointer, from connection: OpaquePointer, peer: PeerServer.Peer?) -> DBusHandlerResult {
        serviceThread.check()
        let outerConnection = callConnection
        callConnection = connection
        defer {
            callConnection = outerConnection
            sendDeliveredEvents()
        }
        if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL, peer == nil { closeSessionsOfDepartedClient(message) }
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? "/"
        let caller = peer.map(SessionTable.Owner.init) ?? dbus_message_get_sender(message).map { .bus(String(cString: $0)) }
        if let entry = sessions.entry(at: path) {
            if !entry.shared, entry.owner != caller {
                send(
                    .failure(MethodFailure(SimulatorError.accessDenied, "\(path) belongs to another client")), to: message,
                    on: connection)
            } else if let caller {
                if !entry.worker.submit(message, from: connection, caller: caller) {
                    send(
                        .failure(
                            MethodFailure(
                                SimulatorError.limit, "\(SessionWorker.maximumQueuedCalls) calls already wait for \(path)")),
                        to: message, on: connection)
                }
            } else {
                send(.failure(MethodFailure(SimulatorError.notPermitted, "the call has no sender")), to: message, on: connection)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        if interface == "org.freedesktop.DBus", let peer,
            let answer = server.answerBusMethod(message, member: member, signature: signature, of: peer)
        {
            send(answer, to: message, on: connection)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if let reply = Introspection.reply(
            to: message, at: path, objectPaths: sessions.paths(visibleTo: caller),
            events: path == SimulatorInterface.path ? sessions.defaultObject.session.simulation.eventVocabulary : nil)
        {
            send(.reply(reply), to: message, on: connection)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard path == SimulatorInterface.path else {
            guard path.hasPrefix(SessionTable.sessionsPath + "/") else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            send(
                .failure(MethodFailure(SimulatorError.unknownObject, "no session at \(path): it was closed, or its client left")),
                to: message, on: connection)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if answersAtOnce(message, interface: interface, member: member, caller: caller) {
            guard let answer = sessions.defaultObject.answer(message, betweenSlices: { true }) else {
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            send(answer, to: message, on: connection)  // nothing yet for `.later`: the host answers
        } else {
            queueDefaultSessionCall(message, from: connection)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Whether a call to the default session is answered as it comes instead of queued: one that
    /// does not touch the simulation (`CreateSession`); and, while a long call runs, one that only
    /// reads it (``SimulatorObject/onlyReads(interface:member:)``) from a caller with no call of
    /// its own answered or waiting, answered between two slices with the state there. A caller's
    /// own calls keep their order.
    private func answersAtOnce(_ message: OpaquePointer, interface: String?, member: String, caller: SessionTable.Owner?) -> Bool
    {
        if interface == nil || interface == SimulatorInterface.interface, let method = SimulatorMethod(rawValue: member),
            !method.usesSimulation
        {
            return true
        }
        guard answeringDefaultSession, SimulatorObject.onlyReads(interface: interface, member: member), let caller else {
            return false
        }
        return defaultSessionCallOwner != caller
            && !defaultSessionCalls.contains { owner(of: $0.call, on: $0.connection) == caller }
    }

    /// A peer taken out of service: its sessions end, and its fingers on the default session.
    func peerLeft(_ peer: PeerServer.Peer) {
        let owner = SessionTable.Owner(peer)
        pluginCalls.fail(to: PluginCalls.Callee(owner))
        sessions.removeAll(ownedBy: owner).forEach(release)
        defaultSessionFingers.left(owner)
    }

    /// Hands `reply` to the session waiting for it, if it answers a call to a plugin and comes from
    /// that plugin's client; false otherwise.
    func routeReply(_ reply: OpaquePointer, from connection: OpaquePointer, peer: PeerServer.Peer?) -> Bool {
        serviceThread.check()
        let callee =
            peer.map { PluginCalls.Callee(SessionTable.Owner($0)) }
            ?? dbus_message_get_sender(reply).map { PluginCalls.Callee.bus(String(cString: $0)) }
        return callee.map { pluginCalls.take(reply, from: $0) } ?? false
    }

    /// Sends `answer` to the caller of `call`, on the connection the call came on, unless that
    /// connection is no longer served.
    func send(_ answer: SimulatorObject.Answer, to call: OpaquePointer, on connection: OpaquePointer) {
        if let peer = server.peer(on: connection), case .reply(let arguments) = answer {
            if let reply = peerReply(arguments, to: call) { server.send(reply, to: peer) }
            return
        }
        guard server.isServed(connection), let message = answer.message(answering: call, serial: serials.take()) else { return }
        server.send(message, on: connection)
    }

    /// The reply with `arguments` to `call`, a peer's, as bytes after a header written once for
    /// replies of its signature (``MessageHeader``).
    private func peerReply(_ arguments: MessageWriter, to call: OpaquePointer) -> EncodedMessage? {
        let signature = arguments.signature
        return peerReplyHeaders[signature, default: MessageHeader(replyWithSignature: signature)]
            .encode(arguments, serial: serials.take(), replySerial: dbus_message_get_serial(call))
    }

    /// Builds `signal` and sends it to everyone whose match rules take it.
    func broadcast(_ signal: OutgoingMessage) {
        guard let message = signal.encode(serial: serials.take()) else { return }
        server.broadcast(message)
    }

    /// The default session's `Event` signals, as match rules see them.
    var defaultEventKind: PeerMatchRules.SignalKind {
        PeerMatchRules.SignalKind(path: sessions.defaultObject.path, interface: SimulatorInterface.interface, member: "Event")
    }

    /// Broadcasts the `Event` signals of the events delivered since the last time, in order. With
    /// no bus and no peer whose match rules take them, the events are dropped and no signal is built.
    func sendDeliveredEvents() {
        let object = sessions.defaultObject
        guard server.anyoneTakes(defaultEventKind) else {
            _ = object.session.takeDeliveredEvents()
            return
        }
        for signal in object.takeEventSignals(serials: serials) { server.broadcast(signal) }
    }
}
