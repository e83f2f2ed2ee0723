import Foundation
import Testing

@testable import RehearseCore

/// The two ownership primitives every object shared between threads goes through.
@Suite struct ConcurrencyTests {
    private final class Box {
        var count = 0
    }

    /// A value handed to another thread is used there after that thread claims it.
    @Test func aClaimedObjectIsUsedOnItsNewThread() {
        let bound = ThreadBound(Box())
        bound.value.count = 1
        let done = DispatchSemaphore(value: 0)
        Thread {
            bound.claim()
            bound.value.count += 1
            done.signal()
        }.start()
        done.wait()
        bound.claim()
        #expect(bound.value.count == 2)
    }

    #if DEBUG
        /// A debug build stops at a use off the owning thread: the mistake is named where it is made.
        @Test func aUseOffTheOwningThreadStopsADebugBuild() async {
            await #expect(processExitsWith: .failure) {
                let bound = ThreadBound(Box())
                let thread = Thread { _ = bound.value.count }
                thread.start()
                sleep(10)  // the thread's use ends the process long before this
            }
        }
    #endif

    /// A wait ends when a signal finds the value changed, or at its deadline if none does.
    @Test func aWaitEndsOnTheChangeOrAtTheDeadline() {
        let flag = ConditionLocked(false)
        let setter = Thread {
            usleep(20_000)
            flag.withLock { $0 = true }
            flag.broadcast()
        }
        setter.start()
        let seen = flag.waitThenLock(while: { !$0 }, until: Date(timeIntervalSinceNow: 30)) { $0 }
        #expect(seen)
        let start = Date()
        let never = ConditionLocked(false)
        let late = never.waitThenLock(while: { !$0 }, until: Date(timeIntervalSinceNow: 0.05)) { $0 }
        #expect(!late)
        #expect(Date().timeIntervalSince(start) >= 0.04)
    }
}
