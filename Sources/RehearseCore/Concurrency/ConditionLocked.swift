import Foundation

/// A value shared between threads and reached only with its lock held, with a condition to wait
/// on for it to change: `Mutex` with waiting.
package final class ConditionLocked<Value: Sendable>: @unchecked Sendable {
    // Unchecked: `value` is reached only inside `withLock` and `waitThenLock`, which hold the lock.
    private var value: Value
    private let condition = NSCondition()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Waits (the lock released meanwhile) while `blocked` says so, until a signal finds it no
    /// longer blocked or `deadline` passes; then runs `body` with the lock held.
    package func waitThenLock<Result>(
        while blocked: (Value) -> Bool, until deadline: Date? = nil,
        _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        while blocked(value) {
            if let deadline {
                guard condition.wait(until: deadline) else { break }
            } else {
                condition.wait()
            }
        }
        return try body(&value)
    }

    /// Wakes one waiter, to look again.
    package func signal() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Wakes every waiter, to look again.
    package func broadcast() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
