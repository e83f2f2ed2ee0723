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

extension EventKind where Payload == KeyboardChange {
    public static var keyboardWillShow: Self {
        Self(.keyboardWillShow) { if case .keyboardWillShow(let p) = $0 { p } else { nil } }
    }
    public static var keyboardDidShow: Self { Self(.keyboardDidShow) { if case .keyboardDidShow(let p) = $0 { p } else { nil } } }
    public static var keyboardWillHide: Self {
        Self(.keyboardWillHide) { if case .keyboardWillHide(let p) = $0 { p } else { nil } }
    }
    public static var keyboardDidHide: Self { Self(.keyboardDidHide) { if case .keyboardDidHide(let p) = $0 { p } else { nil } } }
}
