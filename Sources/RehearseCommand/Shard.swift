import ArgumentParser

/// One of N parts of a campaign spread over machines with no coordinator: `--shard K/N` (K from
/// 1), or what a CI matrix or a Kubernetes indexed Job sets. Part K takes the items at positions
/// K-1, K-1+N, ... of the sorted list, so the N parts together are exactly the whole.
struct Shard: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// From 1 to ``count``.
    let index: Int
    let count: Int

    /// The most parts a campaign can be split into.
    static let maximumCount = 10_000

    init?(index: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`.
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    static var defaultCompletionKind: CompletionKind { .default }

    var description: String { "\(index)/\(count)" }

    /// The environment variables read when `--shard` is not given, first match wins: each pair is
    /// (index variable, count variable, whether the index counts from 0).
    static let environmentVariables: [(index: String, count: String, zeroBased: Bool)] = [
        ("CI_NODE_INDEX", "CI_NODE_TOTAL", false),  // GitLab CI `parallel:`
        ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", true),  // CircleCI `parallelism:`
        ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", true),  // Buildkite `parallelism:`
        ("JOB_COMPLETION_INDEX", "REHEARSE_SHARD_COUNT", true),  // a Kubernetes indexed Job; the count from its spec
    ]

    /// The shard the environment asks for: `REHEARSE_SHARD=K/N` (for a GitHub Actions matrix), or
    /// one of ``environmentVariables``; nil when none is set. A variable that is set but wrong is
    /// an error, not a silent full run.
    static func fromEnvironment(_ environment: [String: String]) throws -> Shard? {
        if let text = environment["REHEARSE_SHARD"] {
            guard let shard = Shard(argument: text) else {
                throw ValidationError("REHEARSE_SHARD=\(text) is not K/N with 1 <= K <= N <= \(maximumCount)")
            }
            return shard
        }
        for (indexName, countName, zeroBased) in environmentVariables {
            guard let indexText = environment[indexName], let countText = environment[countName] else { continue }
            // The range is checked before counting from 1, so that no value of the variable overflows.
            guard let index = Int(indexText), let count = Int(countText), (0...maximumCount).contains(index),
                let shard = Shard(index: zeroBased ? index + 1 : index, count: count)
            else {
                throw ValidationError(
                    "\(indexName)=\(indexText) with \(countName)=\(countText) is not a shard "
                        + "(\(zeroBased ? "0 <= index < count" : "1 <= index <= count") <= \(maximumCount))")
            }
            return shard
        }
        return nil
    }

    /// This part's positions among `total` items: K-1, K-1+N, ... (from 0).
    func positions(in total: Int) -> StrideTo<Int> {
        stride(from: index - 1, to: total, by: count)
    }

    /// This part's share of `runs` seeds counted from `first`: first+K-1, first+K-1+N, ...
    func seeds(from first: UInt64, runs: Int) -> StrideTo<UInt64> {
        stride(from: first + UInt64(index - 1), to: first + UInt64(runs), by: count)
    }

    /// This part's share of `items`, in their order.
    func select<Item>(_ items: [Item]) -> [Item] {
        positions(in: items.count).map { items[$0] }
    }
}
