import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Who is at the other end of a connection's Unix socket, as the kernel says (`SO_PEERCRED`).
package struct SocketPeer: Equatable {
    package let process: pid_t
    package let user: uid_t

    package init(process: pid_t, user: uid_t) {
        self.process = process
        self.user = user
    }

    /// The peer of `connection`, if its socket tells.
    package init?(of connection: OpaquePointer) {
        var descriptor: Int32 = -1
        guard dbus_connection_get_socket(connection, &descriptor) != 0, descriptor >= 0 else { return nil }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc shows Swift only with
        // _GNU_SOURCE: read as its three 32-bit fields.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else { return nil }
        process = credentials.pid
        user = credentials.uid
    }
}
