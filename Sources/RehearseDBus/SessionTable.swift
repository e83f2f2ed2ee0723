/// The objects a service serves: the default session at `/org/rehearse/Simulator`, which is always
/// there and runs on the connection's thread, and the sessions clients created under
/// `/org/rehearse/Simulator/sessions/`, each on its own thread with the client that owns it, in the
/// order they were created.
struct SessionTable {
    /// The most sessions created by clients that may be open at once.
    static let maximumSessions = 32
    /// Where created sessions live: `PREFIX/N`, N counting from 1, never reused.
    static let sessionsPath = SimulatorInterface.path + "/sessions"

    /// Who a created session belongs to: it ends when its owner goes away.
    enum Owner: Equatable {
        /// A client on the bus, by its unique name (`:1.42`).
        case bus(String)
        /// A peer connected straight to the service.
        case peer(OpaquePointer)
    }

    let defaultObject: SimulatorObject
    private var created: [(worker: SessionWorker, owner: Owner)] = []
    private var count = 0

    init(defaultObject: SimulatorObject) {
        self.defaultObject = defaultObject
    }

    /// Every object's path, the default first.
    var paths: [String] { [defaultObject.path] + created.map(\.worker.path) }

    /// The created sessions, in the order they were created.
    var workers: [SessionWorker] { created.map(\.worker) }

    /// The owner of the created session at `path`.
    func owner(at path: String) -> Owner? {
        created.first { $0.worker.path == path }?.owner
    }

    func worker(at path: String) -> SessionWorker? {
        created.first { $0.worker.path == path }?.worker
    }

    /// The path the next created session gets, or a `Limit` error when there are as many as allowed.
    func nextPath() throws(MethodFailure) -> String {
        guard created.count < Self.maximumSessions else {
            throw MethodFailure(SimulatorError.limit, "\(Self.maximumSessions) sessions are open (the limit): close one first")
        }
        return "\(Self.sessionsPath)/\(count + 1)"
    }

    /// Adds `worker` (at ``nextPath()``) owned by `owner`.
    mutating func add(_ worker: SessionWorker, owner: Owner) {
        count += 1
        created.append((worker, owner))
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
