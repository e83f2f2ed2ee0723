/// Checks `condition` every 10 ms until it holds, at most `rounds` times; whether it held. Rounds,
/// not wall time: while tests running beside hold Swift concurrency's threads, a waiting test may
/// not run for a minute, and would find a wall-clock deadline passed having checked nothing.
func eventually(rounds: Int = 6_000, _ condition: () async -> Bool) async throws -> Bool {
    for _ in 0..<rounds {
        if await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
