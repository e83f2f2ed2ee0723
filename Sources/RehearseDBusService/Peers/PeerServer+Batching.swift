import CDBus
import RehearseDBusWire

/// Batched writes to peers: what the loop sends in one round (the sessions' replies and signals)
/// goes to each peer in one write instead of one per message (``BatchedWrite``), so the service's
/// thread makes one system call, and wakes the peer once, per peer and round
/// (Benchmarks/README.md, "D-Bus: sessions in parallel").
extension PeerServer {
    /// Runs `body`, holding what it sends to peers, then writes each peer's messages in the order
    /// they were sent. A peer whose write was cut short and could not be finished is dropped.
    func batchingWrites(_ body: () -> Void) {
        serviceThread.check()
        precondition(writeBatch == nil, "batches do not nest")
        writeBatch = []
        body()
        let batch = writeBatch ?? []
        writeBatch = nil
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
        retire(broken)
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

    private func gather(_ item: BatchedWrite.Item, for peer: Peer) {
        if let index = writeBatch!.firstIndex(where: { $0.peer === peer }) {
            writeBatch![index].messages.append(item)
        } else {
            writeBatch!.append((peer, [item]))
        }
    }
}
