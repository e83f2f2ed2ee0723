import CDBus
import RehearseDBusWire

/// Batched writes: what the loop sends in one round (the sessions' replies and signals) goes to
/// each peer, and to the bus daemon, in one write instead of one per message (``BatchedWrite``), so
/// the service's thread makes one system call, and wakes the reader once, per connection and round
/// (Benchmarks/README.md, "D-Bus: sessions in parallel"). The bus's write comes after the peers':
/// a peer's reply does not wait for the daemon's copies of its signals (Benchmarks/README.md,
/// "D-Bus: against a C libdbus echo service").
extension PeerServer {
    /// Runs `body`, holding what it sends to peers and on the bus, then writes each peer's messages
    /// in the order they were sent, then the bus's in theirs. Each connection keeps its own order;
    /// no client can order messages that come on different connections. A peer whose write was
    /// cut short and could not be finished is dropped; so is the bus (the service stops).
    func batchingWrites(_ body: () -> Void) {
        serviceThread.check()
        precondition(writeBatch == nil, "batches do not nest")
        writeBatch = []
        busBatch = []
        body()
        let batch = writeBatch ?? []
        let held = busBatch ?? []
        writeBatch = nil
        busBatch = nil
        var broken: [Peer] = []
        for (peer, messages) in batch {
            guard peers.contains(where: { $0 === peer }) else {
                for case .made(let message) in messages { dbus_message_unref(message) }
                continue
            }
            if !BatchedWrite.send(messages, on: peer.connection, socket: peer.socket) {
                Self.log("disconnected peer \(peer.number): a write to it was cut short and not finished")
                broken.append(peer)
            }
        }
        let now = ContinuousClock.now
        if busHold.mayHold(held), !busHold.isDue(at: now) {
            if !held.isEmpty { busHold.hold(held, at: now) }
        } else {
            writeOnBus(busHold.release() + held)
        }
        retire(broken)
    }

    /// Writes what ``busHold`` holds to the bus daemon now.
    func releaseHeldBusSignals() {
        if !busHold.isEmpty { writeOnBus(busHold.release()) }
    }

    /// Writes `items` to the bus daemon, in one write where it can; a write cut short and not
    /// finished leaves the bus (``dispatchBus()`` fails).
    private func writeOnBus(_ items: [BatchedWrite.Item]) {
        guard let bus, !items.isEmpty else { return }
        if !BatchedWrite.send(items, on: bus.raw, socket: busSocket) {
            Self.log("left the bus: a write to the daemon was cut short and not finished")
            busBroken = true
        }
    }

    /// Sends `message` to `peer`: into the batch while one is gathered and the peer takes batched
    /// writes, else at once. The caller keeps its reference.
    func send(_ message: OpaquePointer, to peer: Peer) {
        guard writeBatch != nil, peer.takesBatchedWrites else {
            dbus_connection_send(peer.connection, message, nil)
            return
        }
        dbus_message_ref(message)
        gather(.made(message), for: peer)
    }

    /// Sends `message` to `peer`: its bytes into the batch while one is gathered and the peer
    /// takes batched writes, else its libdbus message at once.
    func send(_ message: EncodedMessage, to peer: Peer) {
        guard writeBatch != nil, peer.takesBatchedWrites else {
            if let made = message.message { dbus_connection_send(peer.connection, made, nil) }
            return
        }
        gather(.encoded(message), for: peer)
    }

    /// Sends `message` on the bus: into the bus's batch while one is gathered and the bus takes
    /// batched writes, else at once. The caller keeps its reference.
    func sendOnBus(_ message: OpaquePointer) {
        guard let bus else { return }
        guard busBatch != nil, busSocket >= 0 else {
            releaseHeldBusSignals()
            dbus_connection_send(bus.raw, message, nil)
            return
        }
        dbus_message_ref(message)
        busBatch!.append(.made(message))
    }

    /// Sends the built signal `message` on the bus, to `destination` if given (a libdbus message
    /// made of it, which names it): its bytes into the bus's batch while one is gathered and the
    /// bus takes batched writes, else its libdbus message at once.
    func sendOnBus(_ message: EncodedMessage, destination: String?) {
        guard bus != nil else { return }
        if destination == nil, busBatch != nil, busSocket >= 0 {
            busBatch!.append(.encoded(message))
        } else if let made = message.message, destination.map({ dbus_message_set_destination(made, $0) != 0 }) ?? true {
            sendOnBus(made)
        }
    }

    private func gather(_ item: BatchedWrite.Item, for peer: Peer) {
        if let index = writeBatch!.firstIndex(where: { $0.peer === peer }) {
            writeBatch![index].messages.append(item)
        } else {
            writeBatch!.append((peer, [item]))
        }
    }
}
