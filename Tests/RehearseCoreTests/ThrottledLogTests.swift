import RehearseCore
import Synchronization
import Testing

/// A server's log of misbehaving clients: a flood of them gets a bounded number of lines, and
/// what was left out is said.
@Suite struct ThrottledLogTests {
    /// What the log wrote.
    private final class WrittenLines: Sendable {
        let all = Mutex<[String]>([])
        func append(_ line: String) { all.withLock { $0.append(line) } }
    }

    @Test func atMostABurstOfLinesAWindowThenHowManyWereLeftOut() {
        let lines = WrittenLines()
        let log = ThrottledLog(prefix: "server: ", burst: 3, window: .seconds(10), write: lines.append)
        let start = ContinuousClock.now
        for client in 1...1_000 { log("refused client \(client)", at: start + .milliseconds(client)) }
        #expect(
            lines.all.withLock { $0 } == ["server: refused client 1", "server: refused client 2", "server: refused client 3"])
        log("refused client 1001", at: start + .seconds(10) + .milliseconds(1))
        #expect(
            lines.all.withLock { Array($0.dropFirst(3)) } == [
                "server: 997 more lines like these left out (at most 3 every 10.0 seconds)", "server: refused client 1001",
            ])
        log("refused client 1002", at: start + .seconds(30))
        #expect(lines.all.withLock { $0.last } == "server: refused client 1002", "nothing was left out in the window before")
        #expect(lines.all.withLock { $0.count } == 6)
    }
}
