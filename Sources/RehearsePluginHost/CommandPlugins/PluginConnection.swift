import RehearseCore
import Synchronization

/// One started plugin's connection, peer to peer (docs/remote-plugins.md): it reads the plugin's
/// `RegisterPlugin`, then calls the plugin's `Install`, `Deliver` and `Wake` for the simulation and
/// waits for each answer within the deadline. The first fault (no answer in time, an error reply,
/// a wrong answer, the connection gone) ends the program; every later call throws that fault.
/// A run may load on one thread and run on another: the link is used under its lock, by one at a time.
final class PluginConnection: PluginCallChannel {
    /// The id the scenario gave the plugin.
    let id: String
    private let link: Mutex<PluginPeerLink>

    /// Takes `connection` (a reference the caller gave up) from `process`'s program.
    init(connection: sending OpaquePointer, process: PluginProcess, id: String, deadline: Duration) {
        self.id = id
        link = Mutex(PluginPeerLink(connection: connection, process: process, id: id, deadline: deadline))
    }

    /// Waits until `deadline` for the plugin's `RegisterPlugin`, answers it, and returns what it declared.
    func awaitRegistration(until deadline: ContinuousClock.Instant) throws(PluginStartError) -> RemotePluginDeclaration {
        try link.withLock { link throws(PluginStartError) in try link.awaitRegistration(until: deadline) }
    }

    func answer(_ call: PluginCall) throws -> RemoteAnswer {
        try link.withLock { link throws(RemotePluginError) in try link.answer(call) }
    }

    /// Closes the connection; every later call throws.
    func close() {
        link.withLock { $0.close() }
    }
}
