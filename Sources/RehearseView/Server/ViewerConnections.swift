import Foundation
import NIOCore
import RehearseCore
import Synchronization

/// Every connection the viewer's server holds, so that none stays open for nothing and they cannot
/// use up the process's file descriptors (which D-Bus peers of the same service need too): a
/// connection is closed after ``Limits/idleTimeout`` with nothing read from it, or with a request
/// read and nothing written back (a half-sent one); past ``Limits/maximumConnections`` a newcomer
/// takes the place of the connection idle the longest. Connected pages answer the WebSocket's pings
/// (sent three times per timeout), so a page that is connected and reading is never idle, and pages
/// are never displaced by newcomers. What it closes at the limit is said on ``log``.
final class ViewerConnections: Sendable {
    /// How long connections may idle and how many may be open.
    struct Limits: Sendable {
        /// How long a connection may go with nothing read from it, or a request may go unanswered.
        var idleTimeout: Duration
        /// The most connections open at once.
        var maximumConnections: Int

        /// 30 seconds, 256 connections (a page uses one, and a browser at most six while loading).
        static let standard = Limits(idleTimeout: .seconds(30), maximumConnections: 256)

        /// How often a page's WebSocket is pinged: three times per timeout, so a page that answers
        /// is read from well within it.
        var pingPeriod: Duration { idleTimeout / 3 }
        /// How often idle connections are looked for: a connection is closed at most a tenth of the
        /// timeout late.
        var sweepPeriod: Duration { idleTimeout / 10 }
    }

    private struct Entry {
        var channel: any Channel
        var lastRead: ContinuousClock.Instant
        /// When the oldest bytes read and not yet answered came, if any.
        var unansweredSince: ContinuousClock.Instant?
        var isPage = false
    }

    let limits: Limits
    /// Where connections closed at the limit, and pages refused, are said: a web page can open
    /// connections without end, so at most a burst of lines every few seconds.
    let log: ThrottledLog
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    /// Whether the sweeping thread goes on; it waits on this between sweeps, so stopping wakes it at once.
    private let sweeping = ConditionLocked(false)

    init(limits: Limits, log: ThrottledLog) {
        self.limits = limits
        self.log = log
    }

    /// How many connections are open.
    var count: Int { entries.withLock { $0.count } }
    /// How many of them are pages the hub took.
    var pageCount: Int { entries.withLock { $0.values.filter(\.isPage).count } }

    /// Takes a new connection; at the limit, closes the connection idle the longest that is not a
    /// page (or the newcomer, if every other one is a page).
    func opened(_ channel: any Channel) {
        let now = ContinuousClock.now
        // What to close, and the line that says why, said once the lock is let go.
        let (displaced, line): ((any Channel)?, String?) = entries.withLock { entries in
            guard entries.count >= limits.maximumConnections else {
                entries[ObjectIdentifier(channel)] = Entry(channel: channel, lastRead: now)
                return (nil, nil)
            }
            let oldest = entries.filter { !$0.value.isPage }.min { $0.value.lastRead < $1.value.lastRead }
            guard let oldest else {
                return (
                    channel, "closed a new connection: \(limits.maximumConnections) connections are open (the limit), each a page"
                )
            }
            entries.removeValue(forKey: oldest.key)
            entries[ObjectIdentifier(channel)] = Entry(channel: channel, lastRead: now)
            return (
                oldest.value.channel,
                "closed a connection idle for \(now - oldest.value.lastRead) for a new one: "
                    + "\(limits.maximumConnections) connections are open (the limit)"
            )
        }
        line.map { log($0) }
        displaced?.close(promise: nil)
    }

    /// Something was read from `channel`.
    func read(on channel: any Channel) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            entries[ObjectIdentifier(channel)]?.lastRead = now
            if entries[ObjectIdentifier(channel)]?.unansweredSince == nil {
                entries[ObjectIdentifier(channel)]?.unansweredSince = now
            }
        }
    }

    /// Something was written to `channel`: what it sent was answered.
    func wrote(on channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)]?.unansweredSince = nil }
    }

    /// `channel` is the WebSocket of a page the hub took (at most ``ViewerHub/maximumClients``).
    func becamePage(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)]?.isPage = true }
    }

    func closed(_ channel: any Channel) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every connection idle for ``Limits/idleTimeout`` or with a request unanswered as long.
    func closeIdle() {
        let now = ContinuousClock.now
        let timeout = limits.idleTimeout
        let idle: [any Channel] = entries.withLock { entries in
            let idle = entries.filter { _, entry in
                now - entry.lastRead >= timeout || entry.unansweredSince.map { now - $0 >= timeout } == true
            }
            for key in idle.keys { entries.removeValue(forKey: key) }
            return idle.values.map(\.channel)
        }
        for channel in idle { channel.close(promise: nil) }
    }

    /// Closes idle connections every ``Limits/sweepPeriod`` until ``stopSweeping()``, on a thread
    /// of its own: nothing the server's tasks do (or wait for) can hold it up.
    func startSweeping() {
        sweeping.withLock { $0 = true }
        let period = limits.sweepPeriod.components
        let seconds = Double(period.seconds) + Double(period.attoseconds) / 1e18
        Thread.detachNewThread { [self] in
            // A period's wait, cut short when told to stop.
            while sweeping.waitThenLock(while: { $0 }, until: Date(timeIntervalSinceNow: seconds), { $0 }) {
                closeIdle()
            }
        }
    }

    func stopSweeping() {
        sweeping.withLock { $0 = false }
        sweeping.broadcast()
    }
}
