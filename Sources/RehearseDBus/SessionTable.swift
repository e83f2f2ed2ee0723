/// The objects a service serves: the default session at `/org/rehearse/Simulator`, which is always
/// there, and the sessions clients created under `/org/rehearse/Simulator/sessions/`, each with the
/// client that owns it, in the order they were created.
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

    private struct Entry {
        let object: SimulatorObject
        let owner: Owner?
    }

    private var entries: [Entry]
    private var created = 0

    init(defaultObject: SimulatorObject) {
        entries = [Entry(object: defaultObject, owner: nil)]
    }

    /// Every object, the default first, then the sessions in the order they were created.
    var objects: [SimulatorObject] { entries.map(\.object) }

    var paths: [String] { entries.map(\.object.path) }

    func object(at path: String) -> SimulatorObject? {
        entries.first { $0.object.path == path }?.object
    }

    /// The path the next created session gets, or a `Limit` error when there are as many as allowed.
    func nextPath() throws(MethodFailure) -> String {
        guard entries.count - 1 < Self.maximumSessions else {
            throw MethodFailure(SimulatorError.limit, "\(Self.maximumSessions) sessions are open (the limit): close one first")
        }
        return "\(Self.sessionsPath)/\(created + 1)"
    }

    /// Adds `object` (at ``nextPath()``) owned by `owner`.
    mutating func add(_ object: SimulatorObject, owner: Owner) {
        created += 1
        entries.append(Entry(object: object, owner: owner))
    }

    /// Removes the created session at `path`; false if there is none.
    mutating func remove(at path: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.owner != nil && $0.object.path == path }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Removes every session `owner` created and returns their paths.
    mutating func removeAll(ownedBy owner: Owner) -> [String] {
        let gone = entries.filter { $0.owner == owner }.map(\.object.path)
        entries.removeAll { $0.owner == owner }
        return gone
    }
}
