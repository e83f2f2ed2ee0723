import CDBus

/// What a ``PeerServer`` hands the messages of its connections to, and tells when a peer leaves:
/// the service, which decides what each message is for.
protocol MessageRouter: AnyObject {
    /// Handles `message`, which came on `connection`: from `peer`, or from the bus when nil.
    func route(_ message: OpaquePointer, from connection: OpaquePointer, peer: PeerServer.Peer?) -> DBusHandlerResult
    /// `connection`, a peer's, was taken out of service: what it owned ends.
    func peerLeft(_ peer: PeerServer.Peer)
    /// Takes `reply` (a method return or an error) if it answers a call the service made; false
    /// otherwise.
    func routeReply(_ reply: OpaquePointer, from connection: OpaquePointer, peer: PeerServer.Peer?) -> Bool
}
