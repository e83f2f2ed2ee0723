import CDBus
import Foundation
import RehearseCore
import RehearseDBusWire

#if canImport(Glibc)
    import Glibc
    import RehearseSupport
#endif

/// A private peer-to-peer address for one plugin's program: a socket in a new folder only this
/// user can enter, which hands over the first connection from that program's process and closes
/// every other. Listening ends, and the socket goes, when the listener does; the folder goes then
/// if empty, or with what the program left in it once the program has ended
/// (``CommandPluginHost``).
final class PluginListener {
    /// The address the program is given (`REHEARSE_PLUGIN_ADDRESS`).
    let address: String
    /// The private folder the socket is in.
    let folder: String
    private let server: OpaquePointer
    private let loop = WatchLoop()
    /// Connections accepted and not yet claimed.
    private var accepted: [OpaquePointer] = []

    init() throws(PluginStartError) {
        // A socket path has at most 107 bytes: a long TMPDIR is passed over for /tmp.
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.utf8.count <= 60 ? $0 : nil } ?? "/tmp"
        var template = Array("\(base)/rehearse-plugin-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw PluginStartError("cannot make a private folder in \(base): \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        let path = "\(folder)/socket"
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let server = "unix:path=\(path)".withCString({ dbus_server_listen($0, &error) }) else {
            rmdir(folder)
            throw PluginStartError("cannot listen at \(path): \(BusConnection.describe(error))")
        }
        self.server = server
        address =
            dbus_server_get_address(server).map { text in
                defer { dbus_free(text) }
                return String(cString: text)
            } ?? "unix:path=\(path)"
        dbus_server_set_new_connection_function(server, acceptPluginConnection, Unmanaged.passUnretained(self).toOpaque(), nil)
        loop.watch(server: server)
    }

    deinit {
        dbus_server_disconnect(server)
        dbus_server_unref(server)
        for connection in accepted { drop(connection) }
        unlink("\(folder)/socket")
        rmdir(folder)
    }

    fileprivate func accept(_ connection: OpaquePointer) {
        dbus_connection_ref(connection)
        accepted.append(connection)
    }

    /// The connection `process` made, waiting for it until `deadline`; the caller owns it. Throws
    /// if the program ends first or the time runs out.
    func connection(from process: PluginProcess, id: String, until deadline: ContinuousClock.Instant) throws(PluginStartError)
        -> OpaquePointer
    {
        while true {
            while let connection = accepted.first {
                accepted.removeFirst()
                if SocketPeer(of: connection) == SocketPeer(process: process.pid, user: getuid()) { return connection }
                drop(connection)
            }
            guard process.isRunning else {
                throw PluginStartError("plugin '\(id)' ended before it connected (the program \(process.ending))")
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw PluginStartError(
                    "plugin '\(id)' did not connect to REHEARSE_PLUGIN_ADDRESS within \(Int(ScenarioLimits.remoteStartSeconds)) s"
                )
            }
            loop.poll(milliseconds: Int32(max(1, min(50, left.milliseconds))))
        }
    }

    private func drop(_ connection: OpaquePointer) {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }
}

private let acceptPluginConnection: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    _, connection, listener in
    guard let connection, let listener else { return }
    Unmanaged<PluginListener>.fromOpaque(listener).takeUnretainedValue().accept(connection)
}
