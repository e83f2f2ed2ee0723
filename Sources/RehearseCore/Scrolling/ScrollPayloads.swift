/// `scroll.didScroll` and `scroll.didEndDecelerating`: a scroll view and its content offset, as
/// `scrollViewDidScroll(_:)` and `scrollViewDidEndDecelerating(_:)` see them.
public struct ScrollPosition: DeclaredPayload {
    public static let payloadFields = PayloadFields(.required("target"), .required("contentOffset", "{x,y}"))

    /// The scroll view.
    public var target: String
    public var contentOffset: Point

    public init(target: String, contentOffset: Point) {
        self.target = target
        self.contentOffset = contentOffset
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        target = try reader.required("target")
        contentOffset = try reader.required("contentOffset")
        try reader.finish()
    }

    public var fields: Fields { ["target": .string(target), "contentOffset": contentOffset.fieldValue] }
}

/// `scroll.willEndDragging`, as `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`:
/// the finger lifted with `velocity` (points per second of the content offset, where UIKit gives
/// points per millisecond) and the scroll view means to come to rest at `targetContentOffset`,
/// which a plugin may change while this event is delivered
/// (``PluginContext/setTargetContentOffset(_:of:)``).
public struct ScrollRelease: DeclaredPayload {
    public static let payloadFields = PayloadFields(.required("target"), .required("velocity", "{x,y} pt/s"), .required("targetContentOffset", "{x,y}"))

    public var target: String
    public var velocity: Point
    public var targetContentOffset: Point

    public init(target: String, velocity: Point, targetContentOffset: Point) {
        self.target = target
        self.velocity = velocity
        self.targetContentOffset = targetContentOffset
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        target = try reader.required("target")
        velocity = try reader.required("velocity")
        targetContentOffset = try reader.required("targetContentOffset")
        try reader.finish()
    }

    public var fields: Fields {
        ["target": .string(target), "velocity": velocity.fieldValue, "targetContentOffset": targetContentOffset.fieldValue]
    }
}
