/// A device-motion sample, as `CMDeviceMotion`.
public struct MotionSample: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(rotationRate: Vector3(x: 0, y: 0, z: 0)), .required("rotationRate", \.rotationRate, "{x,y,z}"),
        .optional("attitude", \.attitude), .optional("gravity", \.gravity), .optional("userAcceleration", \.userAcceleration))

    /// Rotation rate in radians per second.
    public var rotationRate: Vector3
    public var attitude: Attitude?
    public var gravity: Vector3?
    public var userAcceleration: Vector3?

    public init(
        rotationRate: Vector3, attitude: Attitude? = nil, gravity: Vector3? = nil,
        userAcceleration: Vector3? = nil
    ) {
        self.rotationRate = rotationRate
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
    }
}

extension EventKind where Payload == MotionSample {
    public static var motion: Self { Self(.motion) { if case .motion(let p) = $0 { p } else { nil } } }
}

/// A display-link frame, as `CADisplayLink`'s `timestamp` and `targetTimestamp`.
public struct Tick: DeclaredPayload {
    public static let payloadFields = PayloadFields(
        .required("timestamp", Double.self), .required("targetTimestamp", Double.self))

    /// The time of this frame.
    public var timestamp: VirtualTime
    /// The time of the next frame.
    public var targetTimestamp: VirtualTime

    public init(timestamp: VirtualTime, targetTimestamp: VirtualTime) {
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        timestamp = try Self.time(reader.required("timestamp"), path: "timestamp")
        targetTimestamp = try Self.time(reader.required("targetTimestamp"), path: "targetTimestamp")
        try reader.finish()
    }

    private static func time(_ seconds: Double, path: String) throws(FieldError) -> VirtualTime {
        guard seconds >= 0, let time = VirtualTime.seconds(seconds) else {
            throw FieldError(path: path, problem: .invalidValue("must be a time in seconds, found \(seconds)"))
        }
        return time
    }

    public var fields: Fields {
        ["timestamp": .double(timestamp.seconds), "targetTimestamp": .double(targetTimestamp.seconds)]
    }
}

extension EventKind where Payload == Tick {
    public static var tick: Self { Self(.tick) { if case .tick(let p) = $0 { p } else { nil } } }
}

/// The interface orientation changed.
public struct OrientationChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(value: .portrait), .choice("value", \.value))

    public var value: Orientation

    public init(value: Orientation) {
        self.value = value
    }
}

extension EventKind where Payload == OrientationChange {
    public static var orientation: Self { Self(.orientation) { if case .orientation(let p) = $0 { p } else { nil } } }
}

/// An animation of one property of one node ended; `finished` is false when it was interrupted.
public struct AnimationFinished: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", property: "", finished: false),
        .required("target", \.target), .required("property", \.property), .required("finished", \.finished))

    public var target: String
    public var property: String
    public var finished: Bool

    public init(target: String, property: String, finished: Bool) {
        self.target = target
        self.property = property
        self.finished = finished
    }
}

extension EventKind where Payload == AnimationFinished {
    public static var animationFinished: Self {
        Self(.animationFinished) { if case .animationFinished(let p) = $0 { p } else { nil } }
    }
}

/// Connectivity changed.
public struct NetworkChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(online: false), .required("online", \.online))

    public var online: Bool

    public init(online: Bool) {
        self.online = online
    }
}

extension EventKind where Payload == NetworkChange {
    public static var network: Self { Self(.network) { if case .network(let p) = $0 { p } else { nil } } }
}
