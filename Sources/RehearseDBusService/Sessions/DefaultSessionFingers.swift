import RehearseCore

/// The fingers the default session's callers leave down. The default session is shared, and a
/// finger one client put down and never lifted used to stay down after the client left: ten of
/// them kept every client and viewer page from touching for good. A finger that comes down during
/// a caller's call (an `Inject`, or the `Advance` that delivers its `InjectAt`) is that caller's,
/// and once the caller has left it is cancelled (`touch.cancelled` where it was), as iOS cancels
/// the touches of a view that goes away.
struct DefaultSessionFingers {
    private struct Finger {
        let owner: SessionTable.Owner
        let id: Int
    }

    private var fingers: [Finger] = []
    /// The simulation the fingers are down in (a `Reset`, `LoadScenario` or a page's restart makes another).
    private var simulation: ObjectIdentifier?
    /// The fingers of callers that left, to cancel where no call is being answered.
    private var orphans: [Int] = []

    /// After a call by `owner`, given the fingers down before it: those that came down during it
    /// are its; those lifted are no one's.
    mutating func note(_ owner: SessionTable.Owner, downBefore before: [Int: Point], in simulation: Simulation) {
        forgetLifted(in: simulation)
        let now = simulation.touchesDown
        fingers.removeAll { before[$0.id] == nil }
        fingers += now.keys.filter { before[$0] == nil }.sorted().map { Finger(owner: owner, id: $0) }
    }

    /// `owner` left: its fingers are to be cancelled. A finger that comes down after this is
    /// another's even if `owner` (a peer's connection) is reused for a newcomer.
    mutating func left(_ owner: SessionTable.Owner) {
        orphans += fingers.filter { $0.owner == owner }.map(\.id)
        fingers.removeAll { $0.owner == owner }
    }

    /// Cancels the fingers of callers that left, and forgets those lifted: called where no call is
    /// being answered, and before anything else can put a lifted finger down again.
    mutating func cancelOrphans(in simulation: Simulation) {
        forgetLifted(in: simulation)
        let down = simulation.touchesDown
        for id in orphans {
            guard let point = down[id] else { continue }
            _ = try? simulation.inject(Event(.cancelled, Touch(id: id, point: point)))
        }
        orphans.removeAll()
    }

    /// Forgets the fingers no longer down, and every finger of a simulation replaced.
    private mutating func forgetLifted(in simulation: Simulation) {
        let identity = ObjectIdentifier(simulation)
        let down = simulation.touchesDown
        if self.simulation != identity {
            self.simulation = identity
            fingers.removeAll()
            orphans.removeAll()
        }
        fingers.removeAll { down[$0.id] == nil }
        orphans.removeAll { down[$0] == nil }
    }
}
