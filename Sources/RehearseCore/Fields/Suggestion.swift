/// Did-you-mean hints for misspelt names.
public enum Suggestion {
    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo:
    /// at most a third of the name's length, and at least one edit. A name shorter than three
    /// letters is only taken for one with a letter dropped (`bx` for `box`): `z` is one edit from
    /// `x`, which says nothing.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let limit = max(1, name.count / 3)
        let scored = candidates.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), best.1 <= limit,
              name.count >= 3 || best.0.count > name.count else { return nil }
        return best.0
    }

    /// ` (did you mean 'x'?)` or nothing.
    public static func hint(for name: String, among candidates: [String]) -> String {
        closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Edit distance counting an insertion, a deletion, a substitution and a swap of two
    /// neighbouring letters as one edit each (optimal string alignment: `feild` is one from `field`).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var best = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { best = min(best, beforePrevious[j - 1] + 1) }
                current.append(best)
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
