extension NodeQuery {
    /// The most candidates a query that matches nothing lists (the nearest), and the most matches
    /// a query that matches several lists.
    public static let listedNodes = 5
    /// How many Unicode scalars of each text, label and id are compared to rank candidates: the
    /// edit distance costs the product of the two lengths, so a 10,000-character query against
    /// a full scene (10,000 nodes) costs at most 10,000 × 3 × 20 × 20 steps, whatever the texts.
    public static let comparedLength = 20

    /// The id of the node the query means in `scene` now: the only match, or the `index`-th in
    /// reading order. Throws, listing the nearest candidates (nothing matches; only when
    /// `ranking`, the costly part), the matches (several and no `index`) or how many there are
    /// (`index` past them). The root is never a match.
    public func resolve(in scene: Scene, ranking: Bool = true) throws(NodeQueryError) -> String {
        var read = 0
        return try resolve(in: scene, ranking: ranking, read: &read)
    }

    /// ``resolve(in:ranking:)``, adding to `read` the nodes it reads: every node of the scene
    /// once (an id alone, one), and each match with its ancestors when several are put in reading
    /// order (ranking the nearest aside: see ``comparedLength``). What a caller that resolves many
    /// queries counts against a budget.
    public func resolve(in scene: Scene, ranking: Bool = true, read: inout Int) throws(NodeQueryError) -> String {
        read += 1
        if isID, let id, id != Scene.rootID, scene.contains(id) { return id }
        let ids = scene.allIDs.dropFirst()  // the root first
        read += ids.count
        let matching = ids.filter { scene.read($0, matches) ?? false }
        if index == nil, matching.count == 1 { return matching[0] }
        let found = Self.readingOrder(matching, in: scene, read: &read)
        if let index {
            guard index < found.count else {
                throw NodeQueryError(
                    query: self, problem: found.isEmpty ? .noMatch : .indexPastMatches(count: found.count),
                    nodes: found.isEmpty ? nearest(among: ids, in: scene, ranking) : listed(found, in: scene))
            }
            return found[index]
        }
        throw found.isEmpty
            ? NodeQueryError(query: self, problem: .noMatch, nodes: nearest(among: ids, in: scene, ranking))
            : NodeQueryError(query: self, problem: .several(count: found.count), nodes: listed(found, in: scene))
    }

    /// `ids` in reading order: by the top of their frame on screen (model values, through scroll
    /// offsets), then by its left edge; nodes whose frames start at exactly the same point keep the
    /// scene's order (parents before children, siblings in drawing order).
    public static func readingOrder(_ ids: [String], in scene: Scene) -> [String] {
        var read = 0
        return readingOrder(ids, in: scene, read: &read)
    }

    /// ``readingOrder(_:in:)``, adding to `read` the nodes it reads.
    static func readingOrder(_ ids: [String], in scene: Scene, read: inout Int) -> [String] {
        let frames = ids.enumerated().map { ($1, scene.frameInScreen($1, read: &read) ?? .zero, $0) }
        return frames.sorted { ($0.1.minY, $0.1.minX, $0.2) < ($1.1.minY, $1.1.minX, $1.2) }.map(\.0)
    }

    private func listed(_ ids: [String], in scene: Scene) -> [NodeQueryError.Candidate] {
        ids.prefix(Self.listedNodes).compactMap { NodeQueryError.Candidate($0, in: scene) }
    }

    /// The ``listedNodes`` nodes nearest the query: fewest parts missed, then the smallest edit
    /// distance of the given id, text and label to the node's (the first ``comparedLength``
    /// Unicode scalars of each), then the scene's order. A secure field's text is never compared:
    /// it counts as no text.
    private func nearest(among ids: ArraySlice<String>, in scene: Scene, _ ranking: Bool) -> [NodeQueryError.Candidate] {
        guard ranking else { return [] }
        let wanted = [id, text, label].map { $0.map(Self.compared) }
        var best: [(missed: Int, distance: Int, order: Int)] = []
        var rows = ([Int](), [Int]())
        for (order, id) in ids.enumerated() {
            guard
                let missed = scene.read(
                    id,
                    { node in
                        [
                            self.id.map { $0 == node.id }, kind.map { $0 == node.kind },
                            traits.map { node.accessibilityTraits.isSuperset(of: $0) },
                            label.map { $0 == node.accessibilityLabel }, text.map { !node.secure && $0 == node.text },
                        ].filter { $0 == false }.count
                    })
            else { continue }
            // Full and this one misses more parts than the farthest kept: no distance can bring it in.
            if best.count == Self.listedNodes, let last = best.last, missed > last.missed { continue }
            let distance =
                scene.read(id) { node in
                    zip(wanted, [node.id, node.secure ? nil : node.text, node.accessibilityLabel]).reduce(0) { total, pair in
                        guard let wanted = pair.0 else { return total }
                        return total + Self.distance(wanted, pair.1.map(Self.compared) ?? [], rows: &rows)
                    }
                } ?? 0
            let entry = (missed, distance, order)
            guard best.count < Self.listedNodes || entry < (best.last!.missed, best.last!.distance, best.last!.order) else {
                continue
            }
            best.insert(entry, at: best.firstIndex { entry < ($0.missed, $0.distance, $0.order) } ?? best.endIndex)
            if best.count > Self.listedNodes { best.removeLast() }
        }
        return best.compactMap { NodeQueryError.Candidate(ids[ids.startIndex + $0.order], in: scene) }
    }

    /// The first ``comparedLength`` Unicode scalars of `text`.
    private static func compared(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars.prefix(comparedLength)) }

    /// The edit distance of `a` and `b` (insertions, deletions and substitutions), in two rows
    /// kept from call to call.
    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], rows: inout ([Int], [Int])) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        rows.0 = Array(0...b.count)
        rows.1 = rows.0
        for i in 1...a.count {
            rows.1[0] = i
            for j in 1...b.count {
                rows.1[j] = Swift.min(rows.0[j] + 1, rows.1[j - 1] + 1, rows.0[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&rows.0, &rows.1)
        }
        return rows.0[b.count]
    }
}
