#if canImport(Glibc)
    import Glibc
#endif

/// The one thread allowed to touch the service's libdbus connections (``PeerServer``) and what
/// routes their messages (``SimulatorService``: the session table, the default session's calls),
/// checked in release builds too: libdbus connections are not shared between threads here
/// (docs/ARCHITECTURE.md, "Threads and who owns what", says why), and a connection touched from
/// another thread fails far from the mistake. The thread that serves
/// (``SimulatorService/run(until:)``) claims both; until then the thread that built the service
/// owns them.
package struct ServiceThread {
    private var thread = pthread_self()

    /// Owned by the calling thread.
    package init() {}

    /// Makes the calling thread the owner.
    package mutating func claim() {
        thread = pthread_self()
    }

    /// Stops the program when called from any thread but the owner.
    package func check(_ function: StaticString = #function) {
        precondition(pthread_equal(thread, pthread_self()) != 0, "\(function) called off the service's thread")
    }
}
