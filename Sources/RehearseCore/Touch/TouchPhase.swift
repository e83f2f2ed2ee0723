/// Where a finger is in its life, as `UITouch.Phase`: one of the four touch events.
public enum TouchPhase: String, Sendable, CaseIterable {
    case began, moved, ended, cancelled
}

extension Event {
    /// The touch event of `phase` carrying `touch`.
    public init(_ phase: TouchPhase, _ touch: Touch) {
        switch phase {
        case .began: self = .touchBegan(touch)
        case .moved: self = .touchMoved(touch)
        case .ended: self = .touchEnded(touch)
        case .cancelled: self = .touchCancelled(touch)
        }
    }

    /// The phase and touch of a touch event; `nil` for any other event.
    public var touch: (phase: TouchPhase, touch: Touch)? {
        if case .touchBegan(let touch) = self { return (.began, touch) }
        if case .touchMoved(let touch) = self { return (.moved, touch) }
        if case .touchEnded(let touch) = self { return (.ended, touch) }
        if case .touchCancelled(let touch) = self { return (.cancelled, touch) }
        return nil
    }
}
