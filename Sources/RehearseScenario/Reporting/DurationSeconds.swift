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
