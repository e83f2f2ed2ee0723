/// A simulated phone or tablet: its screen in points (portrait), scale, display refresh rate, and
/// in each orientation the keyboard's height, the status bar's and the insets its shape needs.
public struct Device: Hashable, Sendable {
    /// The preset name, or `custom` for an inline device.
    public var name: String
    /// The screen in portrait, in points.
    public var screen: Size
    /// Pixels per point.
    public var scale: Int
    /// The display refresh rate in Hz; the display link ticks at this rate.
    public var refreshRate: Int
    /// The keyboard, status bar and screen insets in portrait.
    public var portrait: OrientationMetrics
    /// The same in landscape (either side).
    public var landscape: OrientationMetrics

    /// Creates a device, or `nil` when a size is not positive, a status bar height or inset is
    /// negative, a length is more than ``ScenarioLimits/deviceLength``, the scale is not 1 to 4, or the rate is
    /// not 1 to 1000 Hz.
    public init?(
        name: String = "custom", screen: Size, scale: Int = 2, refreshRate: Int,
        portrait: OrientationMetrics, landscape: OrientationMetrics
    ) {
        let lengths = [screen.width, screen.height]
        guard lengths.allSatisfy({ $0 > 0 && $0 <= ScenarioLimits.deviceLength }), portrait.isValid, landscape.isValid,
            ScenarioLimits.deviceScale.contains(scale), ScenarioLimits.deviceRefreshRate.contains(refreshRate)
        else { return nil }
        self.name = name
        self.screen = screen
        self.scale = scale
        self.refreshRate = refreshRate
        self.portrait = portrait
        self.landscape = landscape
    }

    /// The metrics for `orientation`.
    public func metrics(in orientation: Orientation) -> OrientationMetrics {
        orientation.isLandscape ? landscape : portrait
    }

    /// The keyboard height for `orientation`.
    public func keyboardHeight(in orientation: Orientation) -> Double {
        metrics(in: orientation).keyboardHeight
    }

    /// The screen's safe-area insets in `orientation`, as a view controller's root view has them:
    /// the screen's own insets, and at the top at least the status bar while it shows.
    public func safeArea(in orientation: Orientation, statusBarHidden: Bool) -> EdgeInsets {
        let metrics = metrics(in: orientation)
        var insets = metrics.screenInsets
        if !statusBarHidden { insets.top = max(insets.top, metrics.statusBarHeight) }
        return insets
    }
}

/// What a device's screen holds back in one orientation.
public struct OrientationMetrics: Hashable, Sendable {
    /// The system keyboard's height, in points.
    public var keyboardHeight: Double
    /// The status bar's height while it shows (0 where the system hides it, as iPhones do in landscape).
    public var statusBarHeight: Double
    /// The safe-area insets the screen's shape needs whether or not the status bar shows: the
    /// sensor housing, the home indicator, rounded corners.
    public var screenInsets: EdgeInsets

    /// Metrics with no status bar and no screen insets unless given.
    public init(keyboardHeight: Double, statusBarHeight: Double = 0, screenInsets: EdgeInsets = .zero) {
        self.keyboardHeight = keyboardHeight
        self.statusBarHeight = statusBarHeight
        self.screenInsets = screenInsets
    }

    var isValid: Bool {
        let insets = [screenInsets.top, screenInsets.left, screenInsets.bottom, screenInsets.right]
        return keyboardHeight > 0 && keyboardHeight <= ScenarioLimits.deviceLength
            && (insets + [statusBarHeight]).allSatisfy { $0 >= 0 && $0 <= ScenarioLimits.deviceLength }
    }
}
