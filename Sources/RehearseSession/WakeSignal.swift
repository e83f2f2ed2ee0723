#if canImport(Glibc)
    import Glibc
#endif

/// A pipe another thread writes to, to wake a loop's poll: sessions' threads say that they have
/// replies and signals to send, the viewer's pages that they have commands. Both ends are
/// non-blocking: a full pipe already wakes the poll, so a write that does not fit is not needed.
public final class WakeSignal: Sendable {
    /// The end the poll watches.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Makes the descriptor readable (from any thread).
    public func notify() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Reads the descriptor back to unreadable.
    public func clear() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
