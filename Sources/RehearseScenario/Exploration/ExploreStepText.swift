import RehearseCore

/// Exploration's actions as the scenario steps that do them, in YAML's flow style: what the loader
/// reads back to the same action (``ExploreAction/description``).
enum ExploreStepText {
    /// The step of its own that injects `event` as it is (`tap: login`, `type: {into: username,
    /// text: vijay}`, `rotate: landscapeLeft`, `network: false`, ...), or nil when only `emit` does.
    static func step(injecting event: Event) -> String? {
        switch event {
        case .tap(let tap) where tap.isControl == nil: step(tapping: tap)
        case .focus(let node): "focus: \(YAMLFlow.string(node.target))"
        case .text(let input): "type: {into: \(YAMLFlow.string(input.target)), text: \(YAMLFlow.string(input.text))}"
        case .returnKey(let node): "return: \(YAMLFlow.string(node.target))"
        case .resign(let request): "resign: \(request.target.map { YAMLFlow.string($0) } ?? "all")"
        case .orientation(let change): "rotate: \(change.value.rawValue)"
        case .network(let change): "network: \(change.online)"
        case .motion(let sample): "motion: \(YAMLFlow.value(.dictionary(sample.fields)))"
        default:
            nil
        }
    }

    /// `tap: NODE` or `tap: {x: X, y: Y}`: a tap with a node or a point, not both.
    private static func step(tapping tap: Tap) -> String? {
        switch (tap.target, tap.point) {
        case (let target?, nil): "tap: \(YAMLFlow.string(target))"
        case (nil, let point?): "tap: {x: \(point.x.shortDescription), y: \(point.y.shortDescription)}"
        case (_?, _?), (nil, nil): nil
        }
    }

    /// `emit: {name: NAME, fields: {...}}`.
    static func emit(_ event: Event) -> String {
        let fields = event.fields
        return "emit: {name: \(YAMLFlow.string(event.name))"
            + (fields.isEmpty ? "" : ", fields: \(YAMLFlow.value(.dictionary(fields)))") + "}"
    }

    /// The gesture step that makes `gesture` from `origin`: its form on a node (`drag: {on: list,
    /// by: [0, -100], duration: 0.5}`, `fling`, `swipe`, `pinch`, `long-press`) or its screen-point
    /// form (a fling, which has none, as the drag it is: the finger lifts moving).
    static func step(_ gesture: Gesture, from origin: ExploreAction.Origin) -> String {
        let start: String
        switch origin {
        case .node(let id): start = "on: \(YAMLFlow.string(id))"
        case .point(let point): start = "from: \(YAMLFlow.point(point))"
        }
        func to(_ by: Point) -> String {
            guard case .point(let point) = origin else { return "by: \(YAMLFlow.point(by))" }
            return "to: \(YAMLFlow.point(Point(x: point.x + by.x, y: point.y + by.y)))"
        }
        switch gesture {
        case .drag(let by, let duration, let hold):
            return "drag: {\(start), \(to(by)), duration: \(duration)" + (hold > .zero ? ", hold: \(hold)}" : "}")
        case .swipe(let direction, let distance):
            let distanceText = distance == TouchStream.swipeStepDistance ? "" : ", distance: \(distance.shortDescription)"
            return "swipe: {\(start), direction: \(direction.rawValue)\(distanceText)}"
        case .fling(let velocity):
            guard case .point = origin else { return "fling: {\(start), velocity: \(YAMLFlow.point(velocity))}" }
            let duration = gesture.duration
            return step(
                .drag(
                    by: Point(x: velocity.x * duration.seconds, y: velocity.y * duration.seconds), duration: duration, hold: .zero
                ),
                from: origin)
        case .pinch(let scale, let duration):
            let center = if case .point(let point) = origin { "center: \(YAMLFlow.point(point))" } else { start }
            return "pinch: {\(center), scale: \(scale.shortDescription), duration: \(duration)}"
        case .press(let duration):
            switch origin {
            case .node(let id):
                return duration == Gesture.defaultPressDuration
                    ? "long-press: \(YAMLFlow.string(id))" : "long-press: {on: \(YAMLFlow.string(id)), duration: \(duration)}"
            case .point(let point):
                return "long-press: {at: \(YAMLFlow.point(point)), duration: \(duration)}"
            }
        }
    }
}
