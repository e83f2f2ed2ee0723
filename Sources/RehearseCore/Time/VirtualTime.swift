/// A point on (or a span of) the simulation's virtual clock, in whole nanoseconds.
///
/// Integer nanoseconds keep long runs free of floating-point drift: a 60 Hz display link
/// ticks at exactly `k * 1_000_000_000 / 60` nanoseconds for every `k`.
public struct VirtualTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the simulation started (or the length of a span).
    public var nanoseconds: Int64

    /// Creates a time from whole nanoseconds.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The start of every simulation.
    public static let zero = VirtualTime(nanoseconds: 0)

    /// The time `seconds` after zero, rounded to the nearest nanosecond.
    ///
    /// Returns `nil` for NaN, infinities and values beyond about 292 years.
    public static func seconds(_ seconds: Double) -> VirtualTime? {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.isFinite, abs(nanoseconds) < 9.2e18 else { return nil }
        return VirtualTime(nanoseconds: Int64(nanoseconds))
    }

    /// This time in seconds.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The time as seconds in decimal, exact and without trailing zeros (`0.25`, `1`, `0.016666666`).
    public var description: String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = String(magnitude % 1_000_000_000)
        guard fraction != "0" else { return "\(sign)\(whole)" }
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public static func + (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        VirtualTime(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    public static func - (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        VirtualTime(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }
}

extension VirtualTime {
    /// A duration in seconds from a configuration or an event: finite, from 0 to
    /// ``ScenarioLimits/runSeconds``; anything else is an error naming `field`.
    public static func duration(_ seconds: Double, field: String) throws(FieldError) -> VirtualTime {
        guard seconds.isFinite, seconds >= 0, seconds <= ScenarioLimits.runSeconds, let time = VirtualTime.seconds(seconds) else {
            throw FieldError(
                path: field,
                problem: .invalidValue(
                    "must be a duration from 0 to \(Int(ScenarioLimits.runSeconds)) seconds, found \(seconds)"))
        }
        return time
    }
}
