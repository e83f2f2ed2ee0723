import RehearseDBusInterface

/// The objects a service serves: the default session at `/org/rehearse/Simulator`, which is always
/// there and runs on the connection's thread, and the sessions clients created under
/// `/org/rehearse/Simulator/sessions/`, each on its own thread with the client that owns it, in the
/// order they were created.
struct SessionTable {
    /// The most sessions created by clients that may be open at once, whoever owns them: each has
    /// a thread of its own.
    static let maximumSessions = 64
    /// The most sessions one client may hold open at once, so no client takes every session.
    static let maximumSessionsPerOwner = 8
    /// Where created sessions live: `PREFIX/ID`, ID 32 random hexadecimal digits (128 bits), so a
    /// session's path cannot be guessed by a client that was not told it.
    static let sessionsPath = SimulatorInterface.path + "/sessions"

    /// Who a created session belongs to: only its owner may call it (unless it is shared), and it
    /// ends when its owner goes away.
    enum Owner: Equatable {
        /// A client on the bus, by its unique name (`:1.42`).
        case bus(String)
        /// A peer connected straight to the service: its connection, and its number, which no
        /// other peer has (a later peer's connection may have a departed one's address).
        case peer(OpaquePointer, number: Int)

        /// `peer`, as the owner of what it creates and registers.
        init(_ peer: PeerServer.Peer) {
            self = .peer(peer.connection, number: peer.number)
        }
    }

    /// A created session and what the service knows of it.
    struct Entry {
        let worker: SessionWorker
        let owner: Owner
        /// Whether clients other than the owner may call it and get its signals (`share` at
        /// `CreateSession`).
        let shared: Bool
    }

    let defaultObject: SimulatorObject
    private var created: [Entry] = []
    private var count = 0
    /// The owners of the sessions being built (`CreateSession` answered once they are), which
    /// count against the limits as the open ones do.
    var pending: [Owner] = []
    /// Clients on the bus that left while a session of theirs was being built: it is dropped
    /// once built.
    var departedWhilePending: Set<String> = []

    init(defaultObject: SimulatorObject) {
        self.defaultObject = defaultObject
    }

    /// The created sessions, in the order they were created.
    var entries: [Entry] { created }

    /// The paths `caller` may see: the default session's, its own sessions' and the shared ones.
    func paths(visibleTo caller: Owner?) -> [String] {
        [defaultObject.path] + created.filter { $0.shared || $0.owner == caller }.map(\.worker.path)
    }

    /// The created session at `path`.
    func entry(at path: String) -> Entry? {
        created.first { $0.worker.path == path }
    }

    /// Throws a `Limit` error when `owner` may not have another session: as many are open or
    /// being built as allowed, in all or for that owner.
    func checkRoom(for owner: Owner) throws(MethodFailure) {
        guard created.count + pending.count < Self.maximumSessions else {
            throw MethodFailure(SimulatorError.limit, "\(Self.maximumSessions) sessions are open (the limit): try again later")
        }
        guard created.count(where: { $0.owner == owner }) + pending.count(where: { $0 == owner }) < Self.maximumSessionsPerOwner
        else {
            throw MethodFailure(
                SimulatorError.limit,
                "you have \(Self.maximumSessionsPerOwner) sessions open (the limit for one client): close one first")
        }
    }

    /// A path and a number for the next created session of `owner`, or a `Limit` error (see
    /// ``checkRoom(for:)``). The number counts sessions from 1 in the order they were created
    /// (recordings are named by it); the path is random.
    func next(for owner: Owner) throws(MethodFailure) -> (path: String, number: Int) {
        try checkRoom(for: owner)
        var generator = SystemRandomNumberGenerator()
        var path: String
        repeat {
            let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
            path = "\(Self.sessionsPath)/\(id)"
        } while entry(at: path) != nil
        return (path, count + 1)
    }

    /// Adds `entry` (at a path from ``next(for:)``).
    mutating func add(_ entry: Entry) {
        count += 1
        created.append(entry)
    }

    /// Takes out the created session at `path`, if there is one.
    mutating func remove(at path: String) -> SessionWorker? {
        guard let index = created.firstIndex(where: { $0.worker.path == path }) else { return nil }
        return created.remove(at: index).worker
    }

    /// Takes out every session `owner` created.
    mutating func removeAll(ownedBy owner: Owner) -> [SessionWorker] {
        let gone = created.filter { $0.owner == owner }.map(\.worker)
        created.removeAll { $0.owner == owner }
        return gone
    }
}

extension String {
    /// The string with zeros before it up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
