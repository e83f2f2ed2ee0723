/// Estimates a velocity from timed samples of a position: the change over the last
/// ``GestureRules/velocityWindow`` (or since the first sample, if that is more recent), reading the
/// position between samples on the straight line joining them. A steady motion reports its own
/// speed; a position unchanged for the whole window reports 0.
struct VelocityTracker {
    private var samples: [(time: VirtualTime, value: SIMD2<Double>)] = []
    private let window: VirtualTime

    init(window: VirtualTime = GestureRules.velocityWindow) {
        self.window = window
    }

    /// Adds a sample; a second sample at the same time replaces the first (two fingers moved in one frame).
    mutating func add(_ value: SIMD2<Double>, at time: VirtualTime) {
        if let last = samples.last, last.time == time { samples.removeLast() }
        samples.append((time, value))
        // Keep one sample at or before the window's start, to read the position there.
        let start = time - window
        while samples.count > 2, samples[1].time <= start { samples.removeFirst() }
    }

    /// The velocity per second as of the last sample.
    var velocity: SIMD2<Double> {
        guard let last = samples.last, let first = samples.first, last.time > first.time else { return .zero }
        let start = max(last.time - window, first.time)
        let span = (last.time - start).seconds
        return (last.value - value(at: start)) / span
    }

    private func value(at time: VirtualTime) -> SIMD2<Double> {
        guard let after = samples.firstIndex(where: { $0.time >= time }) else { return samples.last?.value ?? .zero }
        guard after > 0 else { return samples[after].value }
        let (t0, v0) = samples[after - 1]
        let (t1, v1) = samples[after]
        let fraction = Double((time - t0).nanoseconds) / Double((t1 - t0).nanoseconds)
        return v0 + (v1 - v0) * fraction
    }
}
