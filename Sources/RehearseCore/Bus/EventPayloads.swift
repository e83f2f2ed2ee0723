/// A typed event payload with a field dictionary form.
public protocol EventPayload: Hashable, Sendable {
    /// Reads the payload, refusing missing, mistyped and unknown fields.
    init(fields: Fields) throws(FieldError)
    /// The payload's field dictionary form.
    var fields: Fields { get }
}

extension EventPayload where Self: Codable {
    /// Reads the payload from its fields, refusing unknown, missing and mistyped ones.
    public init(fields: Fields) throws(FieldError) {
        self = try FieldCodec.value(Self.self, from: fields)
    }

    /// The payload's fields (absent optionals are left out).
    public var fields: Fields { FieldCodec.fields(of: self) }
}

/// The keyboard's frames and animation, as in `UIKeyboardWillShowNotification`'s user info. A
/// frame's numbers are at most ``ScenarioLimits/deviceLength`` from 0 and the duration is 0 to
/// ``ScenarioLimits/runSeconds``, however the event comes (a keyboard 1e308 tall animating for
/// 1e300 s kept the display link ticking for the rest of the run).
public struct KeyboardChange: DeclaredPayload {
    private static let frameShape = Rect.fieldShape.limited(to: ScenarioLimits.deviceLength)
    private static let durations = 0...ScenarioLimits.runSeconds
    public static let payloadFields = PayloadFields(
        .required("frame", Rect.self, "{x,y,width,height}", shape: frameShape),
        .optional("beginFrame", Rect.self, shape: frameShape),
        .optional("duration", Double.self, shape: .numberWithin(durations)), .choice("curve", NamedCurve.self, isRequired: false))

    /// The end frame, in screen coordinates of the current orientation.
    public var frame: Rect
    /// The frame the keyboard starts from.
    public var beginFrame: Rect
    /// The animation duration iOS reports, in seconds (0.25 for the system keyboard).
    public var duration: Double
    /// The animation curve iOS reports (`keyboard`, UIKit's curve 7, for the system keyboard).
    public var curve: NamedCurve

    public init(frame: Rect, beginFrame: Rect, duration: Double, curve: NamedCurve) {
        self.frame = frame
        self.beginFrame = beginFrame
        self.duration = duration
        self.curve = curve
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        frame = try reader.required("frame")
        beginFrame = try reader.optional("beginFrame") ?? frame
        duration = try reader.optional("duration") ?? KeyboardService.animationDuration
        curve = try reader.choice("curve") ?? .keyboard
        try reader.finish()
        for (path, rect) in [("frame", frame), ("beginFrame", beginFrame)] {
            let numbers = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
            guard numbers.allSatisfy({ abs($0) <= ScenarioLimits.deviceLength }) else {
                throw FieldError(
                    path: path,
                    problem: .invalidValue(
                        "each number must be at most \(Int(ScenarioLimits.deviceLength)) points from 0, found \(numbers.map(\.shortDescription).joined(separator: ", "))"
                    ))
            }
        }
        guard Self.durations.contains(duration) else {
            throw FieldError(
                path: "duration",
                problem: .invalidValue(
                    "must be from 0 to \(Int(ScenarioLimits.runSeconds)) seconds, found \(duration.shortDescription)"))
        }
    }

    public var fields: Fields {
        [
            "frame": frame.fieldValue, "beginFrame": beginFrame.fieldValue,
            "duration": .double(duration), "curve": .string(curve.rawValue),
        ]
    }
}

/// A request naming one node: `focus` (make it first responder), `return` (the return key in it).
public struct NodeTarget: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(target: ""), .required("target", \.target))

    /// The node's id.
    public var target: String

    public init(target: String) {
        self.target = target
    }
}

/// A request to end editing: in one node, or in the whole scene when `target` is absent.
public struct ResignRequest: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(), .optional("target", \.target))

    /// The node that should resign, or `nil` for the whole scene.
    public var target: String?

    public init(target: String? = nil) {
        self.target = target
    }
}

/// The first responder moved; either side may be absent.
public struct FocusChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(from: nil, to: nil), .optional("from", \.from), .optional("to", \.to))

    public var from: String?
    public var to: String?

    public init(from: String?, to: String?) {
        self.from = from
        self.to = to
    }
}

/// A tap at a screen point or on a node. As delivered it carries both, plus whether the hit node
/// is a control.
public struct Tap: DeclaredPayload {
    public static let payloadFields = PayloadFields(
        .optional("x", Double.self), .optional("y", Double.self), .optional("target", String.self),
        .optional("isControl", Bool.self),
        remark: "x and y, or target; delivered with target and isControl", alternatives: [["x", "y"], ["target"]])

    /// Where the tap landed, in screen coordinates.
    public var point: Point?
    /// The node hit (as delivered), or the node aimed at (as injected).
    public var target: String?
    /// Whether the hit node is a control (a button or a text field); set on delivery.
    public var isControl: Bool?

    public init(point: Point? = nil, target: String? = nil, isControl: Bool? = nil) {
        self.point = point
        self.target = target
        self.isControl = isControl
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        let x: Double? = try reader.optional("x")
        let y: Double? = try reader.optional("y")
        target = try reader.optional("target")
        isControl = try reader.optional("isControl")
        try reader.finish()
        switch (x, y) {
        case (let x?, let y?): point = Point(x: x, y: y)
        case (nil, nil): point = nil
        case (nil, _): throw FieldError(path: "x", problem: .missing)
        case (_, nil): throw FieldError(path: "y", problem: .missing)
        }
        guard point != nil || target != nil else {
            throw FieldError(path: "", problem: .invalidValue("a tap needs x and y, or a target"))
        }
    }

    public var fields: Fields {
        var fields: Fields = [:]
        fields["x"] = point.map { .double($0.x) }
        fields["y"] = point.map { .double($0.y) }
        fields["target"] = target.map(FieldValue.string)
        fields["isControl"] = isControl.map(FieldValue.bool)
        return fields
    }
}

/// Text typed into a node. Text aimed at a secure field travels as ``Redaction/placeholder``.
public struct TextInput: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", text: ""), .required("target", \.target), .required("text", \.text))

    public var target: String
    public var text: String

    public init(target: String, text: String) {
        self.target = target
        self.text = text
    }
}

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

/// The interface orientation changed.
public struct OrientationChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(value: .portrait), .choice("value", \.value))

    public var value: Orientation

    public init(value: Orientation) {
        self.value = value
    }
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

/// Connectivity changed.
public struct NetworkChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(online: false), .required("online", \.online))

    public var online: Bool

    public init(online: Bool) {
        self.online = online
    }
}

/// A plugin threw while handling an event and has been isolated. (Rare: its field form is its
/// `Codable` form.)
public struct PluginFailure: DeclaredPayload, Codable {
    public static let payloadFields = PayloadFields(.required("plugin", String.self), .required("error", String.self))

    public var plugin: String
    public var error: String

    public init(plugin: String, error: String) {
        self.plugin = plugin
        self.error = error
    }
}

/// An invariant stopped holding: its name, who declared it (`scenario` or a plugin id), and the
/// values on both sides (`actual`: the checked side; `expected`: what it had to satisfy). (Rare:
/// its field form is its `Codable` form.)
public struct InvariantFailure: DeclaredPayload, Codable {
    public static let payloadFields = PayloadFields(
        .required("name", String.self), .required("owner", String.self), .required("actual", String.self),
        .required("expected", String.self))

    public var name: String
    public var owner: String
    public var actual: String
    public var expected: String

    public init(name: String, owner: String, actual: String, expected: String) {
        self.name = name
        self.owner = owner
        self.actual = actual
        self.expected = expected
    }
}
