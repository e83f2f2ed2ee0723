extension Device {
    /// Reads an inline device: `{width, height, hz, keyboard: {portrait, landscape}}`, and
    /// optionally `scale` (2 if absent), `statusBar: {portrait, landscape}` (heights while it shows;
    /// none if absent) and `insets: {portrait: {top, left, bottom, right}, landscape: {...}}` (the
    /// screen's own safe-area insets; none if absent).
    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields)
        let width: Double = try reader.required("width")
        let height: Double = try reader.required("height")
        for (key, length) in [("width", width), ("height", height)] where !(length > 0 && length <= ScenarioLimits.deviceLength) {
            throw FieldError(
                path: key,
                problem: .invalidValue(
                    "must be more than 0 and at most \(Int(ScenarioLimits.deviceLength)) points, found \(length.shortDescription)"
                ))
        }
        let hz: Int = try reader.required("hz")
        let scale: Int = try reader.optional("scale") ?? 2
        let keyboard = try reader.required("keyboard", as: OrientationPair<Double>.self)
        let statusBar =
            try reader.optional("statusBar", as: OrientationPair<Double>.self) ?? OrientationPair(portrait: 0, landscape: 0)
        let insets =
            try reader.optional("insets", as: OrientationPair<EdgeInsets>.self)
            ?? OrientationPair(portrait: .zero, landscape: .zero)
        try reader.finish()
        guard
            let device = Device(
                screen: Size(width: width, height: height), scale: scale, refreshRate: hz,
                portrait: OrientationMetrics(
                    keyboardHeight: keyboard.portrait, statusBarHeight: statusBar.portrait, screenInsets: insets.portrait),
                landscape: OrientationMetrics(
                    keyboardHeight: keyboard.landscape, statusBarHeight: statusBar.landscape, screenInsets: insets.landscape))
        else {
            throw FieldError(
                path: "",
                problem: .invalidValue(
                    "a device needs a positive width, height and keyboard heights, status bar heights and insets of 0 or more, "
                        + "each at most \(Int(ScenarioLimits.deviceLength)) points, a scale from \(ScenarioLimits.deviceScale.lowerBound) to \(ScenarioLimits.deviceScale.upperBound) "
                        + "and hz from \(ScenarioLimits.deviceRefreshRate.lowerBound) to \(ScenarioLimits.deviceRefreshRate.upperBound)"
                ))
        }
        self = device
    }
}

/// `{portrait, landscape}` or `[portrait, landscape]`: one value for each orientation.
private struct OrientationPair<Value: FieldConvertible>: FieldConvertible {
    var portrait: Value
    var landscape: Value

    init(portrait: Value, landscape: Value) {
        self.portrait = portrait
        self.landscape = landscape
    }

    init(field value: FieldValue, path: String) throws(FieldError) {
        switch value {
        case .dictionary(let fields):
            var reader = FieldReader(fields, prefix: path + ".")
            portrait = try reader.required("portrait")
            landscape = try reader.required("landscape")
            try reader.finish()
        case .array(let items) where items.count == 2:
            portrait = try Value(field: items[0], path: path + "[0]")
            landscape = try Value(field: items[1], path: path + "[1]")
        default:
            throw FieldError(
                path: path, problem: .wrongType(expected: "{portrait, landscape} or a list of 2", found: value.typeName))
        }
    }

    var fieldValue: FieldValue { ["portrait": portrait.fieldValue, "landscape": landscape.fieldValue] }

    /// Not an event's field: the schema of a device mapping is `ScenarioSchema`'s own.
    static var fieldShape: FieldShape { .any }
}
