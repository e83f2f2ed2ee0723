import RehearseCore
import RehearseScenario

extension SimulatorSession {
    /// `Gesture`: the gesture step `kind` (`drag`, `fling`, `swipe`, `pinch`, `long-press`) with
    /// the step mapping's `arguments` (``GestureArguments``: `on` an id or a query, and the step's
    /// keys, defaults and limits), run as the step runs: placed on the node `on` finds now, on the
    /// lowest fingers neither down nor held by a gesture still waiting on the clock
    /// (``FingerReservations``), its touches injected, and a manual or virtual clock moved on
    /// through the gesture in slices as `Advance` moves it. Returns the time reached. Nothing is
    /// injected when the arguments, the node or the placing are refused.
    public func gesture(_ kind: String, _ arguments: Fields, betweenSlices: () -> Bool) throws(SessionError) -> Double {
        try requireMovableClock("Gesture")
        return run(until: simulation.now + (try scheduleGesture(kind, arguments)), betweenSlices: betweenSlices)
    }

    /// The gesture step `kind` with `arguments` placed as ``gesture(_:_:betweenSlices:)`` places
    /// it, its touches put on the clock from now (whatever the clock: they happen as it moves on,
    /// as `InjectAt`'s events do); returns how long it lasts. Nothing is injected when the
    /// arguments, the node or the placing are refused.
    public func scheduleGesture(_ kind: String, _ arguments: Fields) throws(SessionError) -> VirtualTime {
        let aim: TouchStreamStep.Aim
        do { aim = try GestureArguments.read(kind, arguments, in: simulation) } catch {
            throw SessionError(.invalidField, error.message)
        }
        let name = aim.gesture.name
        let node = try resolve(aim.node, for: name)
        guard let fingers = heldFingers.free(aim.gesture.fingers, down: simulation.touchesDown.keys, on: simulation.timeline)
        else {
            throw SessionError(
                .limit,
                "\(name): more than \(GestureRules.maximumTouches) fingers would be down or held by gestures waiting on the "
                    + "clock, the most the screen takes; advance it first")
        }
        let touches: [TimedTouch]
        do {
            touches = try simulation.place(aim.gesture, fingers: fingers, on: GestureAnchor(node: node, at: aim.at))
        } catch {
            throw SessionError(.invalidField, "\(name) on \(aim.node): \(error)")
        }
        guard simulation.timeline.pendingCount + touches.count <= Self.maximumPendingEvents else {
            throw SessionError(
                .limit,
                "\(name): its \(touches.count) touches would take the events waiting on the clock past "
                    + "\(Self.maximumPendingEvents); advance it first")
        }
        do { try simulation.inject(touches) } catch { throw SessionError(.invalidField, "\(name) on \(aim.node): \(error)") }
        heldFingers.hold(fingers, until: simulation.now + (touches.map(\.offset).max() ?? .zero), on: simulation.timeline)
        return aim.gesture.duration
    }

    /// `IsVisible`: whether the node `query` names (an id, or a query mapping found now) is
    /// visible (``Visibility``), and why not, or how much of it is. An id the scene does not have
    /// is not visible; a query that finds no node, or several, is refused.
    public func visibility(of query: FieldValue) throws(SessionError) -> (visible: Bool, why: String) {
        let parsed: NodeQuery
        do { parsed = try NodeQuery(field: query) } catch { throw SessionError(.invalidField, "query: \(error)") }
        let node = parsed.isID ? parsed.id ?? "" : try resolve(parsed, for: "IsVisible")
        let visibility = simulation.visibility(of: node)
        return (visibility.isVisible, visibility.problem?.description ?? visibility.visiblePart)
    }

    /// The id of the node `query` finds in the scene now, or a `nodeNotFound` naming `what` asked.
    func resolve(_ query: NodeQuery, for what: String) throws(SessionError) -> String {
        do { return try query.resolve(in: simulation.scene) } catch { throw SessionError(.nodeNotFound, "\(what): \(error)") }
    }
}
