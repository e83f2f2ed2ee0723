import CDBus
import Dispatch
import RehearseCore
import RehearseDBusInterface
import RehearseSession
import Synchronization

/// Builds the sessions `CreateSession` asks for, one at a time on a thread of its own, so that
/// reading a set-up never holds the service's thread; what it built waits for the service to
/// take it (``takeBuilt()``), and a write to the wake signal says it is there.
final class SessionFactory: Sendable {
    /// A `CreateSession` call waiting for its session: the call and its connection, each with a
    /// reference the request holds until ``release()``, and who will own the session. The factory's
    /// thread only carries it: everything in it is the service thread's (checked in every build).
    struct Request: Sendable {
        private let handles: ThreadBound<Handles>

        private final class Handles {
            let call: OpaquePointer
            let connection: OpaquePointer
            let owner: SessionTable.Owner

            init(call: OpaquePointer, connection: OpaquePointer, owner: SessionTable.Owner) {
                self.call = call
                self.connection = connection
                self.owner = owner
            }
        }

        /// Takes a reference to `call` and `connection`.
        init(call: OpaquePointer, connection: OpaquePointer, owner: SessionTable.Owner) {
            dbus_message_ref(call)
            dbus_connection_ref(connection)
            handles = ThreadBound(Handles(call: call, connection: connection, owner: owner))
        }

        var call: OpaquePointer { handles.value.call }
        var connection: OpaquePointer { handles.value.connection }
        var owner: SessionTable.Owner { handles.value.owner }

        /// Gives the references back (on the service's thread, once answered).
        func release() {
            dbus_message_unref(call)
            dbus_connection_unref(connection)
        }
    }

    /// A built session, handed from the factory's thread to the service's, which claims it
    /// (``ThreadBound/claim()``) when it takes it, and alone uses it from then on.
    struct Built: Sendable {
        let session: ThreadBound<SimulatorSession>
        let shared: Bool
    }

    private let queue = DispatchQueue(label: "rehearse session factory")
    private let built = Mutex<[(request: Request, result: Result<Built, MethodFailure>)]>([])
    private let wake: WakeSignal

    init(wake: WakeSignal) {
        self.wake = wake
    }

    /// Reads `setup` and builds its session on the factory's thread, for `request`.
    func build(_ setup: Fields, for request: Request, registry: PluginRegistry, defaultMode: ClockMode) {
        queue.async { [self] in
            let result = Result { () throws(MethodFailure) -> Built in
                let read = try SessionSetup(setup, registry: registry)
                return Built(
                    session: ThreadBound(try read.makeSession(registry: registry, defaultMode: defaultMode)), shared: read.shared)
            }
            built.withLock { $0.append((request, result)) }
            wake.notify()
        }
    }

    /// What was built since the last call, in the order it was asked for.
    func takeBuilt() -> [(request: Request, result: Result<Built, MethodFailure>)] {
        built.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    /// Waits until everything asked for is built (the service ends).
    func finish() {
        queue.sync {}
    }
}
