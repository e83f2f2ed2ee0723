import Synchronization

/// Serial numbers for messages built here, counted down from the top so that they never meet
/// libdbus's own (its calls such as `Hello` and `RequestName`), which count up from 1. Shared by
/// the threads that build messages (the connection's and the sessions').
package final class MessageSerials: Sendable {
    private let next = Atomic<UInt32>(UInt32.max)

    package init() {}

    package func take() -> UInt32 {
        let serial = next.wrappingSubtract(1, ordering: .relaxed).oldValue
        return serial == 0 ? take() : serial  // 0 is not a serial
    }
}
