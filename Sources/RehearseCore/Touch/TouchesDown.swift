/// The fingers on the screen as injection sees them: which are down, where each is, and the node
/// each came down on. A `touch.began` is hit-tested and its node kept for the finger's later events, as
/// `UITouch.view` is; an event for a finger that is not down, or a second `touch.began` for one
/// that is, is refused when injected now and dropped when it comes due later (it was checked
/// against a future it could not see).
final class TouchesDown {
    private struct Finger {
        let target: String?
        var point: Point
    }

    private var fingers: [Int: Finger] = [:]

    /// Whether any finger is down.
    var isEmpty: Bool { fingers.isEmpty }

    /// The fingers down, and where each is.
    var points: [Int: Point] { fingers.mapValues(\.point) }

    /// Throws unless a touch in `phase` fits the fingers down now.
    func check(_ phase: TouchPhase, _ touch: Touch) throws(InjectionError) {
        guard ScenarioLimits.touchIDs.contains(touch.id) else {
            throw InjectionError.invalidTouch(
                "touch ids are \(ScenarioLimits.touchIDs.lowerBound) to \(ScenarioLimits.touchIDs.upperBound), found \(touch.id)")
        }
        switch phase {
        case .began:
            guard fingers[touch.id] == nil else { throw InjectionError.invalidTouch("touch \(touch.id) is already down") }
            guard fingers.count < GestureRules.maximumTouches else {
                throw InjectionError.invalidTouch("\(GestureRules.maximumTouches) touches are down, the most the screen takes")
            }
        case .moved, .ended, .cancelled:
            guard fingers[touch.id] != nil else {
                throw InjectionError.invalidTouch("touch \(touch.id) is not down; a touch begins with touch.began")
            }
        }
    }

    /// The touch as delivered, with the finger's node, and the fingers updated; `nil` when it does
    /// not fit the fingers down (see the type's comment).
    func prepare(_ phase: TouchPhase, _ touch: Touch, hitTest: (Point) -> String?) -> Touch? {
        do { try check(phase, touch) } catch { return nil }
        var touch = touch
        switch phase {
        case .began:
            touch.target = hitTest(touch.point)
            fingers[touch.id] = Finger(target: touch.target, point: touch.point)
        case .moved:
            fingers[touch.id]?.point = touch.point
            touch.target = fingers[touch.id]?.target
        case .ended, .cancelled:
            touch.target = fingers.removeValue(forKey: touch.id)?.target
        }
        return touch
    }
}
