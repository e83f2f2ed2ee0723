extension FieldValue {
    /// Numbers closer than this are equal when matching (1e-9, as scenario expectations use).
    public static let matchTolerance = 1e-9

    /// Whether `actual` matches this expected value: mappings match as subsets (every expected key
    /// present and matching, recursively), lists element by element, numbers (integer or not)
    /// within `tolerance`, `{approx: N, within: W}` any number within W of N, everything else by
    /// equality.
    public func matches(_ actual: FieldValue?, tolerance: Double = matchTolerance) -> Bool {
        guard let actual else { return false }
        if let (approx, within) = approximation { return actual.number.map { abs($0 - approx) <= within } ?? false }
        switch (self, actual) {
        case (.dictionary(let expected), .dictionary(let actual)):
            return expected.allSatisfy { key, value in value.matches(actual[key], tolerance: tolerance) }
        case (.array(let expected), .array(let actual)):
            return expected.count == actual.count
                && zip(expected, actual).allSatisfy { $0.matches($1, tolerance: tolerance) }
        default:
            if let expected = number, let actual = actual.number { return abs(expected - actual) <= tolerance }
            return self == actual
        }
    }

    /// `{approx: N, within: W}` as an expected value: N and W.
    var approximation: (Double, Double)? {
        guard case .dictionary(let entries) = self, entries.count == 2,
            let approx = entries["approx"]?.number, let within = entries["within"]?.number
        else { return nil }
        return (approx, within)
    }
}
