/// Runs independent jobs with at most `jobs` at a time and returns their results in input order.
enum ParallelRuns {
    static func run<Input: Sendable, Result: Sendable>(
        _ inputs: [Input], jobs: Int, _ work: @escaping @Sendable (Input) -> Result,
        progress: (Int) -> Void
    ) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: inputs.count)
            var next = 0, done = 0
            func start() {
                guard next < inputs.count else { return }
                let index = next, input = inputs[index]
                group.addTask { (index, work(input)) }
                next += 1
            }
            for _ in 0..<min(jobs, inputs.count) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                done += 1
                progress(done)
                start()
            }
            return results.compactMap { $0 }
        }
    }
}
