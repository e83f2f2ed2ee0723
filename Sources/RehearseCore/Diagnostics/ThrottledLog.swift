import Foundation
import Synchronization

/// The lines a server writes about what it did to a misbehaving client (refused, disconnected,
/// displaced), at most ``burst`` in each ``window``: a flood of clients that each earn a line cannot
/// flood the log in turn. The lines past the limit are counted, and the count is written as one
/// line before the first line of a later window.
public final class ThrottledLog: Sendable {
    /// The most lines written in one window.
    public let burst: Int
    /// How long a window lasts.
    public let window: Duration
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var windowStart: ContinuousClock.Instant?
        var written = 0
        var leftOut = 0
    }

    /// A log that writes each line, after `prefix`, with `write` (standard error unless told).
    public init(
        prefix: String, burst: Int = 20, window: Duration = .seconds(10),
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
    ) {
        self.burst = burst
        self.window = window
        self.write = { write("\(prefix)\($0)") }
    }

    /// Writes `line` unless ``burst`` lines were written in the window that `now` falls in.
    public func callAsFunction(_ line: String, at now: ContinuousClock.Instant = .now) {
        let (leftOut, writes) = state.withLock { state -> (Int, Bool) in
            var leftOut = 0
            if state.windowStart.map({ now - $0 >= window }) ?? true {
                leftOut = state.leftOut
                state = State(windowStart: now)
            }
            guard state.written < burst else {
                state.leftOut += 1
                return (leftOut, false)
            }
            state.written += 1
            return (leftOut, true)
        }
        if leftOut > 0 {
            write("\(leftOut) more line\(leftOut == 1 ? "" : "s") like these left out (at most \(burst) every \(window))")
        }
        if writes { write(line) }
    }
}
