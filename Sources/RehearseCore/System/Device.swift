/// A simulated phone: screen size in points (portrait), display refresh rate and keyboard heights.
public struct Device: Hashable, Sendable {
    /// The preset name, or `custom` for an inline device.
    public var name: String
    /// The screen in portrait, in points.
    public var screen: Size
    /// The display refresh rate in Hz; the display link ticks at this rate.
    public var refreshRate: Int
    /// The system keyboard's height in portrait, in points.
    public var keyboardPortrait: Double
    /// The system keyboard's height in landscape, in points.
    public var keyboardLandscape: Double

    /// Creates a device, or `nil` when a size is not positive and finite or the rate is not 1 to 1000 Hz.
    public init?(name: String = "custom", screen: Size, refreshRate: Int,
                 keyboardPortrait: Double, keyboardLandscape: Double) {
        let lengths = [screen.width, screen.height, keyboardPortrait, keyboardLandscape]
        guard lengths.allSatisfy({ $0.isFinite && $0 > 0 }), (1...1000).contains(refreshRate) else { return nil }
        self.name = name
        self.screen = screen
        self.refreshRate = refreshRate
        self.keyboardPortrait = keyboardPortrait
        self.keyboardLandscape = keyboardLandscape
    }

    /// The keyboard height for `orientation`.
    public func keyboardHeight(in orientation: Orientation) -> Double {
        orientation.isLandscape ? keyboardLandscape : keyboardPortrait
    }

    /// The iPhone 5 of the seeds' era: 320×568 points, 60 Hz, keyboard 216 in portrait and 162 in
    /// landscape (the iOS 7 keyboard notification log in seed-code.md: FrameEnd {{0,264},{320,216}}).
    public static let iPhone5 = Device(
        name: "iphone-5", screen: Size(width: 320, height: 568), refreshRate: 60,
        keyboardPortrait: 216, keyboardLandscape: 162)!

    /// The shipped presets by name.
    public static let presets: [String: Device] = [iPhone5.name: iPhone5]

    /// Reads an inline device: `{width, height, hz, keyboard: {portrait, landscape}}`.
    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields)
        let width: Double = try reader.required("width")
        let height: Double = try reader.required("height")
        let hz: Int = try reader.required("hz")
        let keyboard: Size = try reader.required("keyboard", as: KeyboardHeights.self).heights
        try reader.finish()
        guard let device = Device(screen: Size(width: width, height: height), refreshRate: hz,
                                  keyboardPortrait: keyboard.width, keyboardLandscape: keyboard.height)
        else {
            throw FieldError(path: "", problem: .invalidValue(
                "a device needs a positive width, height and keyboard heights, and hz from 1 to 1000"))
        }
        self = device
    }
}

/// `{portrait, landscape}` read as a size (portrait as width, landscape as height).
private struct KeyboardHeights: FieldConvertible {
    var heights: Size

    init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: ["portrait", "landscape"])
        heights = Size(width: numbers[0], height: numbers[1])
    }

    var fieldValue: FieldValue { ["portrait": .double(heights.width), "landscape": .double(heights.height)] }
}
