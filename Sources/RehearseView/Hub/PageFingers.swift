import RehearseCore

/// The fingers the pages have down on the simulation. A page numbers its fingers from 0; each is
/// given a finger of the simulation that nobody else holds, so that no page moves or lifts
/// another's (nor a D-Bus client's). A page's points are kept on the screen: a mouse let go past
/// its edge lifts the finger at the edge, where it used to be refused and the finger stayed down.
/// A page that leaves has its fingers cancelled, as iOS cancels the touches of a view that goes
/// away, so that no finger stays down for good (ten would keep everyone from touching). A finger
/// lifted by someone else (a D-Bus client of the shared default session, a plugin) is the page's
/// no more (``lifted(_:)``): once put down again it is another's.
final class PageFingers {
    private struct Key: Hashable {
        let client: Int
        let id: Int
    }

    /// The simulation's finger for each page's finger, and where it was last.
    private var fingers: [Key: (finger: Int, point: Point)] = [:]

    /// Injects page `client`'s touch `phase` of its finger `id` at `point` (kept on the screen),
    /// as the simulation's finger for it. Throws for a finger the page already has down (`began`)
    /// or does not (the other phases), or a touch the simulation refuses (a lift is the page's
    /// last word on that finger all the same).
    func touch(_ phase: TouchPhase, id: Int, at point: Point, from client: Int, in simulation: Simulation) throws {
        let key = Key(client: client, id: id)
        let point = Self.onScreen(point, in: simulation)
        switch phase {
        case .began:
            guard fingers[key] == nil else { throw ViewerCommandError("touch \(id) is already down") }
            let held = Set(fingers.values.map(\.finger))
            let down = simulation.touchesDown
            guard let finger = ScenarioLimits.touchIDs.first(where: { !held.contains($0) && down[$0] == nil }) else {
                throw ViewerCommandError("no finger is free")
            }
            // The page's before it is delivered: whatever lifts it on the way (a plugin) is seen.
            fingers[key] = (finger, point)
            do {
                try simulation.inject(Event(.began, Touch(id: finger, point: point)))
            } catch {
                fingers[key] = nil
                throw error
            }
        case .moved, .ended, .cancelled:
            guard let (finger, _) = fingers[key] else {
                throw ViewerCommandError("touch \(id) is not down; a touch begins with phase began")
            }
            // A finger lifted is the page's no more, even if the simulation refuses the lift.
            if phase != .moved { fingers[key] = nil }
            try simulation.inject(Event(phase, Touch(id: finger, point: point)))
            if phase == .moved, fingers[key] != nil { fingers[key] = (finger, point) }
        }
    }

    /// Moves page `client`'s fingers (its ids) at once, each kept on the screen: one touch event,
    /// so the recognisers see them all moved (a ctrl-drag's pinch does not wobble). Throws, moving
    /// none, for a finger the page does not have down or a move the simulation refuses.
    func move(_ moves: [FingerMove], from client: Int, in simulation: Simulation) throws {
        var touches: [Touch] = []
        for move in moves {
            guard let (finger, _) = fingers[Key(client: client, id: move.id)] else {
                throw ViewerCommandError("touch \(move.id) is not down; a touch begins with phase began")
            }
            touches.append(Touch(id: finger, point: Self.onScreen(move.point, in: simulation)))
        }
        try simulation.injectMoves(touches)
        for (move, touch) in zip(moves, touches) {
            let key = Key(client: client, id: move.id)
            if fingers[key] != nil { fingers[key] = (touch.id, touch.point) }
        }
    }

    /// `point` moved onto the simulation's screen, to its nearest edge.
    private static func onScreen(_ point: Point, in simulation: Simulation) -> Point {
        let size = simulation.scene.bounds.size
        return Point(x: min(max(point.x, 0), size.width), y: min(max(point.y, 0), size.height))
    }

    /// The simulation's finger `finger` was lifted (ended or cancelled), by the page or anyone
    /// else: no page holds it any more.
    func lifted(_ finger: Int) {
        fingers = fingers.filter { $0.value.finger != finger }
    }

    /// Cancels the fingers page `client` has down: it left.
    func cancel(client: Int, in simulation: Simulation) {
        for (key, held) in fingers where key.client == client {
            fingers[key] = nil
            _ = try? simulation.inject(Event(.cancelled, Touch(id: held.finger, point: held.point)))
        }
    }

    /// Forgets every finger: the simulation was replaced (a restart), and its fingers with it.
    func removeAll() {
        fingers.removeAll()
    }
}
