/// Did-you-mean hints for misspelt names.
public enum Suggestion {
    /// The longest name a suggestion is looked for: a typo is in a name someone types, and the
    /// search costs the product of the two names' lengths.
    public static let maximumNameLength = 64

    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo:
    /// at most a third of the name's length, and at least one edit; never `name` itself. A name
    /// shorter than three letters is only taken for one with a letter dropped (`bx` for `box`):
    /// `z` is one edit from `x`, which says nothing. Names longer than ``maximumNameLength`` get none.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        guard name.count <= maximumNameLength else { return nil }
        let limit = max(1, name.count / 3)
        let typed = Array(name.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name && abs(candidate.count - name.count) <= limit {
            guard
                let found = distance(typed, Array(candidate.lowercased()), atMost: best.map { min($0.distance, limit) } ?? limit),
                best.map({ (found, candidate) < ($0.distance, $0.candidate) }) ?? true
            else { continue }
            best = (candidate, found)
        }
        guard let best, name.count >= 3 || best.candidate.count > name.count else { return nil }
        return best.candidate
    }

    /// ` (did you mean 'x'?)` or nothing.
    public static func hint(for name: String, among candidates: [String]) -> String {
        closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Edit distance counting an insertion, a deletion, a substitution and a swap of two
    /// neighbouring letters as one edit each (optimal string alignment: `feild` is one from `field`).
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a), Array(b), atMost: max(a.count, b.count)) ?? max(a.count, b.count)
    }

    /// ``distance(_:_:)`` if it is at most `limit`, else nil, found without finishing the table
    /// once a whole row is past the limit.
    static func distance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard !a.isEmpty else { return b.count <= limit ? b.count : nil }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var best = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { best = min(best, beforePrevious[j - 1] + 1) }
                current.append(best)
            }
            // A swap reaches back two rows, so stop only when both are past the limit.
            if current.min()! > limit, previous.min()! > limit { return nil }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
