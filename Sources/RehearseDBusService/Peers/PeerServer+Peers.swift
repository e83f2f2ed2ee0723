import CDBus
import RehearseDBusWire
import RehearseSession

#if canImport(Glibc)
    import Glibc
#endif

/// The peers (`--listen`): accepting them, serving what they send, and dropping the ones that
/// misbehave, at a point where no message of theirs is being handled.
extension PeerServer {
    /// The address peers connect at (`--listen`), as the server has it: with the socket it chose
    /// for `unix:tmpdir=` and its GUID; nil when the service listens for no peers.
    var address: String? {
        guard let server, let address = dbus_server_get_address(server) else { return nil }
        defer { dbus_free(address) }
        return String(cString: address)
    }

    /// Serves peers that connect straight to `address` (libdbus's DBusServer), so one driver need
    /// not pay the bus daemon's round trip.
    func listen(at address: String) throws(BusFailure) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        // The socket file is made this user's alone as it is created, and again after listening:
        // libdbus opens it to everyone (mode 0777) once it listens. A program of another user that
        // connects in between is refused at ``accept(_:)``, which checks every peer's user.
        let previousMask = umask(0o177)
        let listening = address.withCString { dbus_server_listen($0, &error) }
        umask(previousMask)
        guard let server = listening else {
            throw BusFailure("cannot listen at \(address): \(BusConnection.describe(error))")
        }
        self.server = server
        restrictSocketToOwner()
        dbus_server_set_new_connection_function(server, acceptPeer, Unmanaged.passUnretained(self).toOpaque(), nil)
        loop.watch(server: server)
    }

    /// Makes a socket file the server listens at readable and writable by this user only: other
    /// users cannot connect, let alone hold the peer places. (An abstract socket has no file; the
    /// user check at ``accept(_:)`` covers it.)
    private func restrictSocketToOwner() {
        guard let address else { return }
        var entries: UnsafeMutablePointer<OpaquePointer?>?
        var count: Int32 = 0
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard dbus_parse_address(address, &entries, &count, &error) != 0, let entries else { return }
        defer { dbus_address_entries_free(entries) }
        for index in 0..<Int(count) {
            guard let entry = entries[index], let path = dbus_address_entry_get_value(entry, "path") else { continue }
            chmod(path, 0o600)
        }
    }

    /// A new peer: served if there is room, or if it can take the place of a peer idle for
    /// longer than ``idlePeerTimeout``; closed otherwise. When ``maximumAuthenticatingPeers`` are
    /// still authenticating, the one of them that came first among those that sent nothing past
    /// the credentials byte makes room for it; a peer further into its handshake is never dropped
    /// for a newcomer, which is closed when every one of them is.
    fileprivate func accept(_ connection: OpaquePointer) {
        serviceThread.check()
        dbus_connection_ref(connection)
        dbus_connection_set_exit_on_disconnect(connection, 0)
        peersConnected += 1
        let peer = Peer(connection: connection, number: peersConnected)
        // Only this user's programs may be peers (libdbus would refuse another user at
        // authentication, seconds later, after it held a place).
        guard SocketPeer(of: connection)?.user == getuid() else {
            Self.log("refused peer \(peer.number): it runs as another user")
            retired.append(peer)
            return
        }
        let authenticating = peers.filter { dbus_connection_get_is_authenticated($0.connection) == 0 }
        if authenticating.count >= Self.maximumAuthenticatingPeers {
            guard let silent = authenticating.first(where: { !$0.hasSpoken }) else {
                Self.log(
                    "refused peer \(peer.number): \(Self.maximumAuthenticatingPeers) peers are authenticating (the limit), "
                        + "each past its first byte")
                retired.append(peer)
                return
            }
            Self.log(
                "disconnected peer \(silent.number): not authenticated while \(Self.maximumAuthenticatingPeers) peers were "
                    + "authenticating (the limit), and it had sent nothing past its first byte")
            retire([silent])
        } else if peers.count >= Self.maximumPeers, let idle = longestIdlePeer() {
            Self.log(
                "disconnected peer \(idle.number): it sent nothing for \(idlePeerTimeout) while \(Self.maximumPeers) peers were connected"
            )
            retire([idle])
        }
        guard peers.count < Self.maximumPeers else {
            Self.log(
                "refused peer \(peer.number): \(Self.maximumPeers) peers are connected (the limit) and none was idle for \(idlePeerTimeout)"
            )
            retired.append(peer)
            return
        }
        guard serveObjects(on: connection) else {
            retired.append(peer)
            return
        }
        peers.append(peer)
    }

    /// Notes what waits to be read on `descriptor`, if it is the socket of a peer still
    /// authenticating that has not yet sent more than its first byte (``Peer/hasSpoken``).
    func hear(_ descriptor: Int32) {
        guard let peer = peers.first(where: { $0.socket == descriptor }), !peer.hasSpoken,
            dbus_connection_get_is_authenticated(peer.connection) == 0
        else { return }
        var bytes: (UInt8, UInt8) = (0, 0)
        let waiting = recv(descriptor, &bytes, 2, Int32(MSG_PEEK | MSG_DONTWAIT))
        if waiting > 0 { peer.bytesHeard += waiting }
    }

    /// The authenticated peer that has sent nothing for the longest, if longer than the idle timeout.
    private func longestIdlePeer() -> Peer? {
        let now = ContinuousClock.now
        return
            peers
            .filter { dbus_connection_get_is_authenticated($0.connection) != 0 && now - $0.lastActive > idlePeerTimeout }
            .min { $0.lastActive < $1.lastActive }
    }

    /// Dispatches what each peer sent and drops the peers that went away, took too long to
    /// authenticate, or let too much go unread.
    func servePeers() {
        let now = ContinuousClock.now
        var dropped: [Peer] = []
        for peer in peers {
            if !dispatch(peer.connection) {
                dropped.append(peer)
            } else if dbus_connection_get_is_authenticated(peer.connection) == 0,
                now - peer.connectedAt > Self.authenticationTimeout
            {
                Self.log("disconnected peer \(peer.number): not authenticated within \(Self.authenticationTimeout)")
                dropped.append(peer)
            } else if isFallingBehind(peer) {
                dropped.append(peer)
            }
        }
        retire(dropped)
    }

    /// Whether more than ``maximumPeerBacklog`` bytes wait for `peer`, which is then logged.
    func isFallingBehind(_ peer: Peer) -> Bool {
        let backlog = dbus_connection_get_outgoing_size(peer.connection)
        guard backlog > Self.maximumPeerBacklog else { return false }
        Self.log("disconnected peer \(peer.number): \(backlog) bytes unread (the limit is \(Self.maximumPeerBacklog))")
        return true
    }

    /// Takes `dropped` out of service at once: nothing more is sent to them or read from them,
    /// and what they owned ends (``MessageRouter/peerLeft(_:)``). Their connections are closed
    /// later, by ``closeRetiredPeers()``: this may run while one of their messages is being
    /// handled (a peer that falls behind during its own long `Advance`), and a connection closed
    /// under its own dispatch is used after it is freed.
    func retire(_ dropped: [Peer]) {
        let dropped = dropped.filter { peer in peers.contains { $0 === peer } }
        guard !dropped.isEmpty else { return }
        peers.removeAll { peer in dropped.contains { $0 === peer } }
        retired += dropped
        for peer in dropped { router?.peerLeft(peer) }
    }

    /// Drops the peers that fall behind, then closes every retired peer's connection: at the
    /// loop's top level, where no message is being dispatched.
    func closeDroppedPeers() {
        retire(peers.filter(isFallingBehind))
        closeRetiredPeers()
    }

    /// Closes and releases the retired peers' connections. Only where no message is being
    /// dispatched: the loop's top level, or the end of the service.
    func closeRetiredPeers() {
        serviceThread.check()
        precondition(!isDispatching, "a peer's connection must not be closed while messages are dispatched")
        for peer in retired {
            dbus_connection_close(peer.connection)
            dbus_connection_unref(peer.connection)
        }
        retired.removeAll()
    }
}

/// libdbus's new-peer callback: hands the connection to the server passed as user data.
private let acceptPeer: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    _, peer, userData in
    guard let peer, let userData else { return }
    Unmanaged<PeerServer>.fromOpaque(userData).takeUnretainedValue().accept(peer)
}
