#include <dbus/dbus.h>

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/socket.h>
#include <sys/types.h>

/// The user id of the process at the other end of the unix socket `fd` (SO_PEERCRED), in *uid;
/// 0 on success, -1 when the socket does not tell. (`struct ucred` is not visible to Swift
/// without _GNU_SOURCE, hence a C helper.)
static inline int rehearse_socket_peer_uid(int fd, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}
