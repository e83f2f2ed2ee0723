import RehearseCore

/// Detects shakes in device motion, as iOS turns a shake into `motionShake`: the user acceleration
/// along its strongest axis swings past `threshold`, one way then the other, `peaks` times within
/// `window` seconds. One shake is reported per gesture: after it, `cooldown` seconds pass before
/// the next can be.
public final class ShakeDetector: Plugin {
    public struct Configuration: Codable, Sendable, Equatable {
        /// The acceleration a peak must reach, in g.
        public var threshold = 1.5
        /// Alternating peaks that make a shake.
        public var peaks = 3
        /// Seconds within which the peaks must come.
        public var window = 0.8
        /// Seconds after a shake before another is reported.
        public var cooldown = 1.0

        public init() {}
    }

    public static let id = "shake-detector"
    public static let summary = "emits shake when the device is shaken back and forth"
    public static let defaultConfiguration = Configuration()
    public static let events: [any PluginEvent.Type] = [Shake.self]
    public static let stateKeys = [
        PluginStateKey("shakes", "shakes reported so far"),
        PluginStateKey("peaks", "peaks of the gesture under way"),
    ]

    private let configuration: Configuration
    /// The peaks of the gesture under way: when, which way, how hard.
    private var recentPeaks: [(time: VirtualTime, positive: Bool, magnitude: Double)] = []
    private var quietUntil = VirtualTime.zero
    private var shakes = 0

    public init(configuration: Configuration, context: PluginContext) {
        self.configuration = configuration
        context.on(.motion) { [unowned self] sample in
            guard let shake = detect(sample, at: context.now) else { return }
            try context.emit(shake)
        }
    }

    public var state: Fields {
        ["shakes": .int(Int64(shakes)), "peaks": .int(Int64(recentPeaks.count))]
    }

    /// Adds the sample's peak, if it is one, and returns the shake it completes.
    private func detect(_ sample: MotionSample, at now: VirtualTime) -> Shake? {
        guard let acceleration = sample.userAcceleration, now >= quietUntil else { return nil }
        let strongest = [acceleration.x, acceleration.y, acceleration.z].max { abs($0) < abs($1) } ?? 0
        guard abs(strongest) >= configuration.threshold else { return nil }
        let window = VirtualTime.seconds(configuration.window) ?? .zero
        recentPeaks.removeAll { now - $0.time > window }
        // Only a swing the other way counts: holding the device accelerating is not shaking it.
        guard recentPeaks.last?.positive != (strongest > 0) else { return nil }
        recentPeaks.append((now, strongest > 0, abs(strongest)))
        guard recentPeaks.count >= configuration.peaks else { return nil }
        let shake = Shake(peaks: recentPeaks.count, magnitude: recentPeaks.map(\.magnitude).max() ?? 0)
        recentPeaks.removeAll()
        quietUntil = now + (VirtualTime.seconds(configuration.cooldown) ?? .zero)
        shakes += 1
        return shake
    }
}
