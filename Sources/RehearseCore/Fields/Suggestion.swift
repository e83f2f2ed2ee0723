/// Did-you-mean hints for misspelt names.
public enum Suggestion {
    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo
    /// (at most a third of the name's length, and at least one edit allowed).
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let limit = max(1, name.count / 3)
        let scored = candidates.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), best.1 <= limit else { return nil }
        return best.0
    }

    /// ` (did you mean 'x'?)` or nothing.
    public static func hint(for name: String, among candidates: [String]) -> String {
        closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1]
            for (j, right) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
