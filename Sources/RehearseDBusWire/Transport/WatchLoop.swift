import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// The file descriptors libdbus wants watched, for every connection and server the service has,
/// polled together: libdbus's watch functions driven from one thread (docs/ARCHITECTURE.md,
/// "Threads and who owns what").
package final class WatchLoop {
    private var watches: [OpaquePointer] = []
    /// Told of each descriptor that is readable, before libdbus reads it.
    package var willRead: ((Int32) -> Void)?

    package init() {}

    /// Lets `connection` report its watches here.
    package func watch(connection: OpaquePointer) {
        _ = dbus_connection_set_watch_functions(
            connection, addWatch, removeWatch, toggleWatch,
            Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Lets `server` report its watches here.
    package func watch(server: OpaquePointer) {
        _ = dbus_server_set_watch_functions(
            server, addWatch, removeWatch, toggleWatch,
            Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func add(_ watch: OpaquePointer) {
        watches.append(watch)
    }

    fileprivate func remove(_ watch: OpaquePointer) {
        watches.removeAll { $0 == watch }
    }

    /// What the checks without sleeping before a wait did.
    package enum Spin {
        /// None was made: no spin deadline was ahead, or the wait was not to sleep.
        case none
        /// A descriptor was ready, or became ready, while checking.
        case caught
        /// Nothing became ready before the deadline; the wait slept.
        case missed
    }

    /// Waits up to `milliseconds` for any enabled watch and lets libdbus handle what is ready.
    /// If it would sleep, it first checks without sleeping until `spinDeadline`, so a message due
    /// within microseconds is caught awake instead of after a wake-up; returns what those checks did.
    /// With `writingOnly`, only sockets' readiness to be written is handled: nothing is read or
    /// accepted (used between the slices of long work, inside a method call). Without `sleeping`,
    /// it spins as above but does not sleep after. `alsoReading`: more descriptors whose
    /// readability ends the wait (the caller reads them).
    @discardableResult
    package func poll(
        milliseconds: Int32, spinningUntil spinDeadline: ContinuousClock.Instant? = nil, sleeping: Bool = true,
        writingOnly: Bool = false, alsoReading others: [Int32] = []
    ) -> Spin {
        let active = watches.filter { watch in
            dbus_watch_get_enabled(watch) != 0
                && (!writingOnly || dbus_watch_get_flags(watch) & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0)
        }
        var descriptors =
            active.map { watch in
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0, !writingOnly { events |= Int16(POLLIN) }
                if flags & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0 { events |= Int16(POLLOUT) }
                return pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0)
            } + others.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var ready: Int32 = 0
        var spin = Spin.none
        if milliseconds != 0, let spinDeadline, ContinuousClock.now < spinDeadline {
            repeat {
                ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), 0)
            } while ready == 0 && ContinuousClock.now < spinDeadline
            spin = ready == 0 ? .missed : .caught
        }
        if ready == 0 { ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), sleeping ? milliseconds : 0) }
        guard ready > 0 else { return spin }
        for (watch, descriptor) in zip(active, descriptors) where descriptor.revents != 0 {
            var flags: UInt32 = 0
            if descriptor.revents & Int16(POLLIN) != 0 { flags |= UInt32(DBUS_WATCH_READABLE.rawValue) }
            if descriptor.revents & Int16(POLLOUT) != 0 { flags |= UInt32(DBUS_WATCH_WRITABLE.rawValue) }
            if descriptor.revents & Int16(POLLHUP) != 0 { flags |= UInt32(DBUS_WATCH_HANGUP.rawValue) }
            if descriptor.revents & Int16(POLLERR) != 0 { flags |= UInt32(DBUS_WATCH_ERROR.rawValue) }
            // The watch may have been removed by an earlier handle in this round.
            guard watches.contains(watch) else { continue }
            if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0 { willRead?(descriptor.fd) }
            _ = dbus_watch_handle(watch, flags)
        }
        return spin
    }
}

private let addWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { watch, loop in
    guard let watch, let loop else { return 0 }
    Unmanaged<WatchLoop>.fromOpaque(loop).takeUnretainedValue().add(watch)
    return 1
}

private let removeWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, loop in
    guard let watch, let loop else { return }
    Unmanaged<WatchLoop>.fromOpaque(loop).takeUnretainedValue().remove(watch)
}

/// Enabled state is read at each poll, so a toggle needs no bookkeeping.
private let toggleWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
