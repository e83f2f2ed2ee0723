/* A minimal libdbus service to compare `rehearse serve` against, built from this benchmark's own
 * sources: it owns org.rehearse.Echo and answers Inject(s name, a{sv} fields) -> (t sequence) on
 * /org/rehearse/Simulator, emitting an Event(t, d, s, a{sv}) signal per call as Rehearse does. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>

static dbus_uint64_t sequence = 0;

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
    dbus_connection_send(connection, signal, NULL);
    dbus_message_unref(signal);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: echo_service ADDRESS\n"); return 2; }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (!connection || !dbus_bus_register(connection, &error)) { fprintf(stderr, "%s\n", error.message); return 1; }
    if (dbus_bus_request_name(connection, "org.rehearse.Echo", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != 1) return 1;
    DBusObjectPathVTable vtable = { NULL, handle, NULL, NULL, NULL, NULL };
    dbus_connection_register_object_path(connection, "/org/rehearse/Simulator", &vtable, NULL);
    while (dbus_connection_read_write_dispatch(connection, -1)) {}
    return 0;
}
