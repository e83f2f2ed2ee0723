import Foundation

extension Duration {
    /// The duration in seconds, for reports.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Duration {
    /// The duration in milliseconds to a tenth, for reports (`4.4`).
    public var millisecondsText: String {
        String((inSeconds * 10_000).rounded() / 10)
    }
}

extension Duration {
    /// The whole milliseconds in the duration, as a C `int` timeout takes them.
    package var milliseconds: Int {
        Int(clamping: Int64(inSeconds * 1000))
    }

    /// `1 s`, `0.25 s`.
    package var secondsText: String {
        "\(inSeconds.formatted(.number)) s"
    }
}
