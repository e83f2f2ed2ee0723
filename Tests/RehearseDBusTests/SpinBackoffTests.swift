import Testing

@testable import RehearseDBusService

/// When the service's loop spins after a peer's message: while spins catch the next message, and
/// after a miss only once the backoff's count of messages has passed.
struct SpinBackoffTests {
    /// Which of the next `count` messages the loop spins after, with every spin ending as `caught` says.
    private func spins(_ backoff: inout SpinBackoff, count: Int, caught: Bool) -> [Bool] {
        (0..<count).map { _ in
            let spin = backoff.shouldSpin()
            if spin { backoff.spun(caught: caught) }
            return spin
        }
    }

    @Test func spinsThatCatchKeepSpinning() {
        var backoff = SpinBackoff()
        #expect(spins(&backoff, count: 100, caught: true) == Array(repeating: true, count: 100))
    }

    @Test func eachMissSkipsTwiceAsManyMessagesUpToTheMaximum() {
        var backoff = SpinBackoff()
        let spun = spins(&backoff, count: 400, caught: false)
        let gaps = spun.indices.filter { spun[$0] }.adjacentDifferences
        #expect(gaps.prefix(8) == [2, 3, 5, 9, 17, 33, 65, 65])
        #expect(gaps.max() == SpinBackoff.longestSkip + 1)
    }

    @Test func aCaughtSpinEndsTheBackoff() {
        var backoff = SpinBackoff()
        _ = spins(&backoff, count: 200, caught: false)
        while !backoff.shouldSpin() {}
        backoff.spun(caught: true)
        #expect(spins(&backoff, count: 10, caught: true) == Array(repeating: true, count: 10))
        _ = spins(&backoff, count: 1, caught: false)
        #expect(spins(&backoff, count: 3, caught: true) == [false, true, true], "one miss skips one message again")
    }
}

extension Array where Element == Int {
    /// Each element minus the one before it.
    fileprivate var adjacentDifferences: [Int] { zip(dropFirst(), self).map { $0 - $1 } }
}
