import CDBus
import RehearseDBusWire

/// The signal fan-out: each built signal to the peers and bus clients it is for, by session
/// ownership and by the peers' match rules.
extension PeerServer {
    /// Who a message's signals go to.
    enum Audience {
        /// Every peer and every client on the bus whose match rules take it: the default
        /// session's signals, and a shared session's.
        case everyone
        /// Only the owner of a session: a peer, or a client on the bus as unicast.
        case owner(SessionTable.Owner)
    }

    /// Sends the built signal `message` to `audience`: its bytes to peers, a libdbus message made
    /// of them to the bus (after the peers' writes, while a batch is gathered).
    func broadcast(_ message: EncodedMessage, to audience: Audience = .everyone) {
        serviceThread.check()
        let kind = PeerMatchRules.SignalKind(path: message.path, interface: message.interface, member: message.member)
        for peer in peers where Self.reaches(audience, peer) && peer.matchRules.take(kind) {
            send(message, to: peer)
        }
        guard bus != nil else { return }
        switch audience {
        case .everyone: sendOnBus(message, destination: nil)
        case .owner(.bus(let name)): sendOnBus(message, destination: name)
        case .owner(.peer): break
        }
    }

    /// Whether a signal of `kind` sent to everyone reaches anyone: the bus, or a peer whose match
    /// rules take it.
    func anyoneTakes(_ kind: PeerMatchRules.SignalKind) -> Bool {
        bus != nil || peers.contains { takes(kind, $0) }
    }

    /// Whether `peer` takes a signal of `kind` sent to everyone.
    func takes(_ kind: PeerMatchRules.SignalKind, _ peer: Peer) -> Bool {
        Self.reaches(.everyone, peer) && peer.matchRules.take(kind)
    }

    /// Whether `peer` is in `audience`.
    private static func reaches(_ audience: Audience, _ peer: Peer) -> Bool {
        // A peer that has not authenticated cannot have asked for anything yet.
        guard dbus_connection_get_is_authenticated(peer.connection) != 0 else { return false }
        switch audience {
        case .everyone: return true
        case .owner(let owner): return owner == SessionTable.Owner(peer)
        }
    }
}
