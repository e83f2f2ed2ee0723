/*
 * The remote plugin RemotePluginBenchmarks starts: as little as a plugin can do, so that what is
 * measured is the host and the round trip (docs/remote-plugins.md). It subscribes to the events
 * named in its arguments (`CountingPlugin tick`), answers every Deliver with no effects and its
 * state {deliveries: x}, the deliveries since the last Install, and exits when the connection
 * closes. The Swift plugin it is compared with does the same in process.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_PATH "/org/rehearse/Plugin"
#define PLUGIN_INTERFACE "org.rehearse.Plugin1"

/* Deliveries since the last Install: the plugin's whole state. */
static dbus_int64_t deliveries = 0;

/* The answer to Install, Deliver or Wake: no effects, and the state. */
static DBusMessage *answer(DBusMessage *call) {
    const char *member = dbus_message_get_member(call);
    if (!dbus_message_has_path(call, PLUGIN_PATH) || !dbus_message_has_interface(call, PLUGIN_INTERFACE) || !member)
        return dbus_message_new_error(call, DBUS_ERROR_UNKNOWN_METHOD, "no such method");
    if (strcmp(member, "Install") == 0) {
        deliveries = 0;
    } else if (strcmp(member, "Deliver") == 0) {
        deliveries += 1;
    } else if (strcmp(member, "Wake") != 0) {
        return dbus_message_new_error(call, DBUS_ERROR_UNKNOWN_METHOD, "no such method");
    }
    const char *key = "deliveries";
    DBusMessage *reply = dbus_message_new_method_return(call);
    DBusMessageIter arguments, effects, state, entry, variant;
    dbus_message_iter_init_append(reply, &arguments);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "(sa{sv})", &effects);
    dbus_message_iter_close_container(&arguments, &effects);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &state);
    dbus_message_iter_open_container(&state, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "x", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_INT64, &deliveries);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&state, &entry);
    dbus_message_iter_close_container(&arguments, &state);
    return reply;
}

/* Answers the host's calls; a refused registration ends the program. */
static DBusHandlerResult receive(DBusConnection *connection, DBusMessage *message, void *unused) {
    (void)unused;
    switch (dbus_message_get_type(message)) {
    case DBUS_MESSAGE_TYPE_METHOD_CALL: {
        DBusMessage *reply = answer(message);
        if (!dbus_message_get_no_reply(message)) dbus_connection_send(connection, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    case DBUS_MESSAGE_TYPE_ERROR:
        fprintf(stderr, "CountingPlugin: %s\n", dbus_message_get_error_name(message));
        exit(2);
    default:
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }
}

/* RegisterPlugin(id, summary, no events, the subscriptions, no configuration). */
static DBusMessage *registration(const char *id, int count, char **subscriptions) {
    const char *summary = "counts the events it subscribed to, with no effects";
    DBusMessage *call = dbus_message_new_method_call(NULL, "/org/rehearse/Simulator", "org.rehearse.PluginHost1", "RegisterPlugin");
    DBusMessageIter arguments, array;
    dbus_message_iter_init_append(call, &arguments);
    dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &id);
    dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &summary);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "(sss)", &array);
    dbus_message_iter_close_container(&arguments, &array);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "s", &array);
    for (int index = 0; index < count; index++) dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &subscriptions[index]);
    dbus_message_iter_close_container(&arguments, &array);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &array);
    dbus_message_iter_close_container(&arguments, &array);
    return call;
}

int main(int argc, char **argv) {
    const char *address = getenv("REHEARSE_PLUGIN_ADDRESS");
    const char *id = getenv("REHEARSE_PLUGIN_ID");
    if (!address || !id) {
        fprintf(stderr, "CountingPlugin: Rehearse starts this program (REHEARSE_PLUGIN_ADDRESS and REHEARSE_PLUGIN_ID)\n");
        return 2;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(address, &error);
    if (!connection) {
        fprintf(stderr, "CountingPlugin: cannot connect: %s\n", error.message);
        return 2;
    }
    dbus_connection_add_filter(connection, receive, NULL, NULL);
    DBusMessage *call = registration(id, argc - 1, argv + 1);
    dbus_connection_send(connection, call, NULL);
    dbus_message_unref(call);
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return 0;
}
