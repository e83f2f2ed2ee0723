import RehearseCore

/// The fingers of the gestures a session put on the clock (``SimulatorSession/scheduleGesture(_:_:)``),
/// each held until its gesture's last touch is due: a gesture scheduled while another waits takes
/// other fingers than the first's, which are not down yet (two AT-SPI scroll actions before the
/// clock moves would otherwise drag with one finger, their touches interleaved).
struct FingerReservations {
    /// Each finger held, and when the last touch of its gesture is due.
    private var held: [Int: VirtualTime] = [:]

    /// The lowest `count` fingers neither in `down` nor held on `timeline`; nil when taking them
    /// would put more than ``GestureRules/maximumTouches`` fingers down or held.
    func free(_ count: Int, down: some Collection<Int>, on timeline: Timeline) -> [Int]? {
        let taken = Set(down).union(held.filter { Self.waits($0.value, on: timeline) }.keys)
        guard taken.count + count <= GestureRules.maximumTouches else { return nil }
        return Array((0...).lazy.filter { !taken.contains($0) }.prefix(count))
    }

    /// Holds `fingers` until `end`, and lets go of those whose gestures are over on `timeline`.
    mutating func hold(_ fingers: [Int], until end: VirtualTime, on timeline: Timeline) {
        held = held.filter { Self.waits($0.value, on: timeline) }
        for finger in fingers { held[finger] = end }
    }

    /// Whether a touch due at `end` may still wait on `timeline`: the clock is before it, or at
    /// it with work due then not yet run.
    private static func waits(_ end: VirtualTime, on timeline: Timeline) -> Bool {
        end > timeline.now || (end == timeline.now && (timeline.nextDueTime.map { $0 <= end } ?? false))
    }
}
