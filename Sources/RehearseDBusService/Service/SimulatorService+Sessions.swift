import CDBus
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// The service's side of sessions: creating and closing them, sending what their threads
/// produced, and ending the sessions of clients that went away.
extension SimulatorService: SessionControl {
    /// `CreateSession`: checks the caller's quota at once, then reads the set-up and builds the
    /// session off this thread (a scenario's text may take long to read: an alias bomb inside
    /// every limit takes a quarter of a second), and answers when it is built
    /// (``finishSessionCreations()``). Nil: the call is answered later.
    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String? {
        guard let owner = caller(of: call) else {
            throw MethodFailure(SimulatorError.notPermitted, "the caller has no name to own a session by")
        }
        guard let callConnection else { throw MethodFailure(SimulatorError.notPermitted, "the call came on no connection") }
        try sessions.checkRoom(for: owner)
        sessionFactory.build(
            setup, for: SessionFactory.Request(call: call, connection: callConnection, owner: owner),
            registry: registry, defaultMode: options.mode)
        sessions.pending.append(owner)
        return nil
    }

    /// Who made `call` (on ``callConnection``): a peer connected straight to the service, or a bus client
    /// by its unique name; nil for a call with neither.
    func caller(of call: OpaquePointer) -> SessionTable.Owner? {
        owner(of: call, on: callConnection)
    }

    /// Who made `call`, which came on `connection`: the peer of that connection, or the bus
    /// client that sent it.
    func owner(of call: OpaquePointer, on connection: OpaquePointer?) -> SessionTable.Owner? {
        if let connection, let peer = server.peer(on: connection) { return SessionTable.Owner(peer) }
        return dbus_message_get_sender(call).map { .bus(String(cString: $0)) }
    }

    /// Answers the `CreateSession` calls whose sessions were built (or failed to be): each
    /// session joins the table, owned by its caller, and the reply carries its path.
    func finishSessionCreations() {
        serviceThread.check()
        for built in sessionFactory.takeBuilt() {
            let request = built.request
            if let index = sessions.pending.firstIndex(of: request.owner) { sessions.pending.remove(at: index) }
            var ownerLeft = !server.isServed(request.connection)
            if case .bus(let name) = request.owner, sessions.departedWhilePending.contains(name) {
                ownerLeft = true
                if !sessions.pending.contains(request.owner) { sessions.departedWhilePending.remove(name) }
            }
            let answer: SimulatorObject.Answer
            switch built.result {
            case .failure(let failure):
                answer = .failure(failure)
            case .success(let box) where !ownerLeft:
                do {
                    let (path, number) = try sessions.next(for: request.owner)
                    box.session.claim()  // handed over with the factory's lock
                    let object = SimulatorObject(
                        path: path, session: box.session.value, readOnly: options.readOnly,
                        recordings: recordings, recordingName: "session-\(number)")
                    sessions.add(
                        SessionTable.Entry(
                            worker: SessionWorker(
                                object: object, serials: serials, state: state, wake: wake,
                                pluginCalls: pluginCalls),
                            owner: request.owner, shared: box.shared))
                    var reply = MessageWriter()
                    reply.append(objectPath: path)
                    answer = .reply(reply)
                } catch {
                    answer = .failure(error)
                }
            case .success:
                answer = .later  // the caller is gone: nobody to answer, nothing to keep
            }
            if server.isServed(request.connection), let message = answer.message(answering: request.call, serial: serials.take())
            {
                server.send(message, on: request.connection)
            }
            request.release()
        }
    }

    /// `RegisterPlugin` on the default session: refused, since its calls run on the connection's
    /// thread, which waits for nobody; a plugin registers with a session of its own.
    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure) {
        throw MethodFailure(
            SimulatorError.notPermitted,
            "plugins register with a created session (CreateSession), not with the default one, which all clients share")
    }

    /// `Close()` on the default session (a created session's own thread answers its `Close()`).
    func closeSession(at path: String) throws(MethodFailure) {
        throw MethodFailure(SimulatorError.notPermitted, "\(path) is the default session: it lasts as long as the service")
    }

    /// Sends what the sessions' threads produced: replies to the connections their calls came on,
    /// signals to the session's owner only (unicast on the bus), or to everyone for a shared
    /// session. A session that was asked to close ends first, its recording written, so a
    /// client that has `Close`'s reply finds the recording there.
    func sendSessionsOutput() {
        serviceThread.check()
        // Up to 10,000 signals a session: once a stop is asked for, what is left waits for the
        // end (which drops it), so the stop is not held up by sending it.
        for entry in sessions.entries where !isStopping {
            let worker = entry.worker
            let (messages, closeRequested) = worker.takeOutgoing()
            if closeRequested {
                _ = sessions.remove(at: worker.path)
                end(worker)
            }
            let audience: PeerServer.Audience = entry.shared ? .everyone : .owner(entry.owner)
            for outgoing in messages {
                switch outgoing {
                case .reply(let reply, let connection): send(reply, on: connection)
                case .signal(let signal): server.broadcast(signal, to: audience)
                case .call(let call, let client): server.send(call, to: client)
                }
            }
            if closeRequested { sendLastReplies(of: worker) }
        }
    }

    /// Ends the created session at `path`: its thread stops, its last replies are sent.
    func closeWorker(at path: String) {
        if let worker = sessions.remove(at: path) { release(worker) }
    }

    /// Ends `worker` (see ``end(_:)``) and sends the replies it had not sent.
    func release(_ worker: SessionWorker) {
        end(worker)
        sendLastReplies(of: worker)
    }

    /// Stops `worker`'s thread and writes its recording (a line on standard error if it cannot).
    private func end(_ worker: SessionWorker) {
        do {
            try worker.close()
        } catch {
            PeerServer.log("the recording of \(worker.path) was not written: \(error.message)")
        }
    }

    /// Sends the replies an ended session had not sent (every call gets its answer); its last
    /// signals are dropped: the session is gone.
    private func sendLastReplies(of worker: SessionWorker) {
        for outgoing in worker.takeOutgoing().messages {
            switch outgoing {
            case .reply(let reply, let connection): send(reply, on: connection)
            case .signal: break
            case .call(let call, _): dbus_message_unref(call)
            }
        }
    }

    /// Sends a session's `reply` (nil: it could not be built) on `connection`, unless that is no
    /// longer served, and releases both.
    private func send(_ reply: OpaquePointer?, on connection: OpaquePointer) {
        if let reply { server.send(reply, on: connection) }
        dbus_connection_unref(connection)
    }

    /// On the bus's `NameOwnerChanged` for a unique name that went away: ends its sessions, and
    /// its long work and its fingers on the default session.
    func closeSessionsOfDepartedClient(_ signal: OpaquePointer) {
        guard dbus_message_is_signal(signal, "org.freedesktop.DBus", "NameOwnerChanged") != 0,
            dbus_message_get_sender(signal).map({ String(cString: $0) }) == "org.freedesktop.DBus"
        else { return }
        var reader = MessageReader(signal)
        guard let name = try? reader.string(), (try? reader.string()) != nil, let newOwner = try? reader.string(),
            name.hasPrefix(":"), newOwner.isEmpty
        else { return }
        if defaultSessionCaller?.name == name { defaultSessionCaller?.left = true }
        pluginCalls.fail(to: .bus(name))
        defaultSessionFingers.left(.bus(name))
        if sessions.pending.contains(.bus(name)) { sessions.departedWhilePending.insert(name) }
        sessions.removeAll(ownedBy: .bus(name)).forEach(release)
    }
}
