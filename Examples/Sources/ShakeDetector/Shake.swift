import RehearseCore

/// The device was shaken: UIKit's `motionShake` event, as a plugin event of its own.
public struct Shake: PluginEvent, Codable {
    public static let name = "shake"
    public static let fieldSummary = "peaks, magnitude"
    public static let summary = "shake-detector, when the acceleration swung back and forth hard enough"

    /// How many alternating peaks made the shake.
    public var peaks: Int
    /// The strongest peak's acceleration, in g.
    public var magnitude: Double

    public init(peaks: Int, magnitude: Double) {
        self.peaks = peaks
        self.magnitude = magnitude
    }
}
