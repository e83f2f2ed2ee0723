/* A minimal libdbus service to compare `rehearse serve` against, built from this benchmark's own
 * sources: it owns org.rehearse.Echo and answers Inject(s name, a{sv} fields) -> (t sequence) on
 * /org/rehearse/Simulator, emitting an Event(t, d, s, a{sv}) signal per call as Rehearse does.
 *   echo_service BUS_ADDRESS [LISTEN_ADDRESS]
 *   echo_service none LISTEN_ADDRESS             peers only, as `rehearse serve --no-bus`
 * With LISTEN_ADDRESS it also serves peers that connect directly (a DBusServer), and like
 * `rehearse serve --listen` sends each signal to the bus and to every peer. One thread polls the
 * watches of every connection, as the Swift service does. */
#include <dbus/dbus.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONNECTIONS 16
#define MAX_WATCHES 64

static dbus_uint64_t sequence = 0;
static DBusConnection *connections[MAX_CONNECTIONS];
static int connection_count = 0;
static DBusWatch *watches[MAX_WATCHES];
static int watch_count = 0;

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (!dbus_message_is_method_call(message, "org.rehearse.Simulator1", "Inject"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessageIter args;
    const char *name = "";
    if (dbus_message_iter_init(message, &args) && dbus_message_iter_get_arg_type(&args) == DBUS_TYPE_STRING)
        dbus_message_iter_get_basic(&args, &name);
    sequence++;
    DBusMessage *reply = dbus_message_new_method_return(message);
    dbus_message_append_args(reply, DBUS_TYPE_UINT64, &sequence, DBUS_TYPE_INVALID);
    dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    DBusMessage *signal = dbus_message_new_signal("/org/rehearse/Simulator", "org.rehearse.Simulator1", "Event");
    DBusMessageIter out, dict;
    double time = 0;
    dbus_message_iter_init_append(signal, &out);
    dbus_message_iter_append_basic(&out, DBUS_TYPE_UINT64, &sequence);
    dbus_message_iter_append_basic(&out, DBUS_TYPE_DOUBLE, &time);
    dbus_message_iter_append_basic(&out, DBUS_TYPE_STRING, &name);
    dbus_message_iter_open_container(&out, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_close_container(&out, &dict);
    for (int i = 0; i < connection_count; i++) dbus_connection_send(connections[i], signal, NULL);
    dbus_message_unref(signal);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static dbus_bool_t add_watch(DBusWatch *watch, void *data) {
    (void)data;
    if (watch_count == MAX_WATCHES) return FALSE;
    watches[watch_count++] = watch;
    return TRUE;
}

static void remove_watch(DBusWatch *watch, void *data) {
    (void)data;
    for (int i = 0; i < watch_count; i++)
        if (watches[i] == watch) { watches[i] = watches[--watch_count]; break; }
}

static void toggle_watch(DBusWatch *watch, void *data) { (void)watch; (void)data; }

static void serve(DBusConnection *connection) {
    DBusObjectPathVTable vtable = { NULL, handle, NULL, NULL, NULL, NULL };
    dbus_connection_register_object_path(connection, "/org/rehearse/Simulator", &vtable, NULL);
    dbus_connection_set_watch_functions(connection, add_watch, remove_watch, toggle_watch, NULL, NULL);
    connections[connection_count++] = connection;
}

static void accept_peer(DBusServer *server, DBusConnection *peer, void *data) {
    (void)server; (void)data;
    if (connection_count == MAX_CONNECTIONS) return;
    dbus_connection_ref(peer);
    serve(peer);
}

int main(int argc, char **argv) {
    int on_bus = argc > 1 && strcmp(argv[1], "none");
    if (argc < (on_bus ? 2 : 3)) { fprintf(stderr, "usage: echo_service BUS_ADDRESS|none [LISTEN_ADDRESS]\n"); return 2; }
    DBusError error;
    dbus_error_init(&error);
    if (on_bus) {
        DBusConnection *bus = dbus_connection_open_private(argv[1], &error);
        if (!bus || !dbus_bus_register(bus, &error)) { fprintf(stderr, "%s\n", error.message); return 1; }
        if (dbus_bus_request_name(bus, "org.rehearse.Echo", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != 1) return 1;
        serve(bus);
    }
    if (argc > 2) {
        DBusServer *server = dbus_server_listen(argv[2], &error);
        if (!server) { fprintf(stderr, "%s\n", error.message); return 1; }
        dbus_server_set_new_connection_function(server, accept_peer, NULL, NULL);
        dbus_server_set_watch_functions(server, add_watch, remove_watch, toggle_watch, NULL, NULL);
    }
    for (;;) {
        struct pollfd descriptors[MAX_WATCHES];
        DBusWatch *polled[MAX_WATCHES];
        int count = 0;
        for (int i = 0; i < watch_count; i++) {
            if (!dbus_watch_get_enabled(watches[i])) continue;
            unsigned flags = dbus_watch_get_flags(watches[i]);
            descriptors[count] = (struct pollfd){ dbus_watch_get_unix_fd(watches[i]),
                (flags & DBUS_WATCH_READABLE ? POLLIN : 0) | (flags & DBUS_WATCH_WRITABLE ? POLLOUT : 0), 0 };
            polled[count++] = watches[i];
        }
        if (poll(descriptors, count, -1) < 0) return 1;
        for (int i = 0; i < count; i++) {
            short ready = descriptors[i].revents;
            if (!ready) continue;
            dbus_watch_handle(polled[i], (ready & POLLIN ? DBUS_WATCH_READABLE : 0) | (ready & POLLOUT ? DBUS_WATCH_WRITABLE : 0)
                                         | (ready & POLLHUP ? DBUS_WATCH_HANGUP : 0) | (ready & POLLERR ? DBUS_WATCH_ERROR : 0));
        }
        for (int i = 0; i < connection_count; i++) {
            while (dbus_connection_dispatch(connections[i]) == DBUS_DISPATCH_DATA_REMAINS) {}
            if (!dbus_connection_get_is_connected(connections[i])) {  /* a peer left, or the bus */
                if (on_bus && i == 0) { fprintf(stderr, "lost the bus\n"); return 1; }
                dbus_connection_unref(connections[i]);
                connections[i--] = connections[--connection_count];
            }
        }
    }
}
