/// Runs independent jobs with at most `jobs` at a time and returns their results in input order.
enum ParallelRuns {
    /// Once a result for which `stops` is true arrives, no further job starts (`run --fail-fast`):
    /// the jobs already running finish (a run cannot be interrupted midway) and theirs are
    /// returned too, so fewer results than inputs come back, still in input order.
    static func run<Input: Sendable, Result: Sendable>(
        _ inputs: [Input], jobs: Int, _ work: @escaping @Sendable (Input) -> Result,
        stops: (Result) -> Bool = { _ in false }, progress: (Int) -> Void
    ) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: inputs.count)
            var next = 0
            var done = 0
            var stopped = false
            func start() {
                guard next < inputs.count, !stopped else { return }
                let index = next
                let input = inputs[index]
                group.addTask { (index, work(input)) }
                next += 1
            }
            for _ in 0..<min(jobs, inputs.count) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                done += 1
                progress(done)
                if stops(result) { stopped = true }
                start()
            }
            return results.compactMap { $0 }
        }
    }
}
