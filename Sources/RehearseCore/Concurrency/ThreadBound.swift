import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An object one thread owns at a time (the idea of NIO's `NIOLoopBound`): every read of it checks,
/// in release builds too, that it comes from the owner, so a mistake stops where it is made instead
/// of showing as a data race somewhere else. Ownership moves only by ``claim()``, which the new owner
/// calls once the old one is done with the object: after joining its thread, or after taking it
/// from under a lock the old owner handed it over with.
package final class ThreadBound<Object: AnyObject>: @unchecked Sendable {
    // Unchecked: `object` is reached only through `value`, which checks the owner.
    private let object: Object
    private let owner: Atomic<UInt>

    /// Binds `object` to the calling thread.
    package init(_ object: Object) {
        self.object = object
        owner = Atomic(Self.currentThread)
    }

    /// The object; the program stops when the caller is not its owner.
    package var value: Object {
        precondition(owner.load(ordering: .relaxed) == Self.currentThread, "\(Object.self) used off the thread that owns it")
        return object
    }

    /// Makes the calling thread the owner (see the type's rule for when).
    package func claim() {
        owner.store(Self.currentThread, ordering: .sequentiallyConsistent)
    }

    private static var currentThread: UInt { UInt(pthread_self()) }
}
