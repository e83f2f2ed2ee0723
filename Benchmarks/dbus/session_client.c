/* The sessions benchmark's client: creates a session of its own (the login animator, manual
 * clock) on a `rehearse serve --listen` ADDRESS and drives it COUNT cycles, 8 calls in flight,
 * then reports one JSON line.
 *   session_client ADDRESS form COUNT     tap username, Advance 0.5 s, resign, Advance 0.5 s: the form
 *                                        lifts and settles back (layout, animations, 60 ticks and
 *                                        about 76 Event signals a cycle, which it asks for with
 *                                        AddMatch and reads)
 *   session_client ADDRESS rebuild COUNT  Reset: the session's simulation built again from its set-up
 *                                        (scene, plugin, constraint layout), one signal-free call */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void append_string_entry(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static DBusMessage *call(const char *path, const char *member) {
    return dbus_message_new_method_call(NULL, path, "org.rehearse.Simulator1", member);
}

/* Call number `index` of the cycle, on the session at `path`. */
static DBusMessage *cycle_call(const char *path, const char *work, int index) {
    DBusMessageIter args, dict;
    if (strcmp(work, "rebuild") == 0) return call(path, "Reset");
    if (index % 2 == 1) {
        DBusMessage *advance = call(path, "Advance");
        double seconds = 0.5;
        dbus_message_append_args(advance, DBUS_TYPE_DOUBLE, &seconds, DBUS_TYPE_INVALID);
        return advance;
    }
    DBusMessage *inject = call(path, "Inject");
    const char *name = index % 4 == 0 ? "tap" : "resign";
    dbus_message_iter_init_append(inject, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &name);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (index % 4 == 0) append_string_entry(&dict, "target", "username");
    dbus_message_iter_close_container(&args, &dict);
    return inject;
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[2], "form") && strcmp(argv[2], "rebuild"))) {
        fprintf(stderr, "usage: session_client ADDRESS form|rebuild COUNT\n");
        return 2;
    }
    const char *work = argv[2];
    int cycles = atoi(argv[3]), total = strcmp(work, "form") ? cycles : cycles * 4, window = 8;
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (!connection) {
        fprintf(stderr, "session_client: %s\n", error.message);
        return 1;
    }
    /* CreateSession({plugins: <['login-animator']>, mode: <'manual'>}) */
    DBusMessage *create = call("/org/rehearse/Simulator", "CreateSession");
    DBusMessageIter args, dict, entry, variant, list;
    const char *plugins = "plugins", *plugin = "login-animator";
    dbus_message_iter_init_append(create, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &plugins);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "s", &list);
    dbus_message_iter_append_basic(&list, DBUS_TYPE_STRING, &plugin);
    dbus_message_iter_close_container(&variant, &list);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    append_string_entry(&dict, "mode", "manual");
    dbus_message_iter_close_container(&args, &dict);
    DBusMessage *created = dbus_connection_send_with_reply_and_block(connection, create, 10000, &error);
    const char *path = NULL;
    if (!created || !dbus_message_get_args(created, &error, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID)) {
        fprintf(stderr, "session_client: CreateSession: %s\n", error.message ? error.message : "no reply");
        return 1;
    }
    char session[256];
    snprintf(session, sizeof session, "%s", path);
    /* Ask for the session's Event signals, as a client that follows its session does (a peer gets
     * only the signals its match rules take); they are read and counted below. */
    DBusMessage *match = dbus_message_new_method_call(NULL, "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch");
    const char *rule = "type='signal',interface='org.rehearse.Simulator1',member='Event'";
    dbus_message_append_args(match, DBUS_TYPE_STRING, &rule, DBUS_TYPE_INVALID);
    DBusMessage *matched = dbus_connection_send_with_reply_and_block(connection, match, 10000, &error);
    if (!matched) {
        fprintf(stderr, "session_client: AddMatch: %s\n", error.message);
        return 1;
    }

    double start = now();
    int sent = 0, answered = 0, in_flight = 0, signals = 0;
    while (answered < total) {
        while (sent < total && in_flight < window) {
            DBusMessage *message = cycle_call(session, work, sent);
            dbus_connection_send(connection, message, NULL);
            dbus_message_unref(message);
            sent++;
            in_flight++;
        }
        if (!dbus_connection_read_write(connection, 1000)) {
            fprintf(stderr, "session_client: lost the connection\n");
            return 1;
        }
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(connection))) {
            int type = dbus_message_get_type(message);
            if (type == DBUS_MESSAGE_TYPE_METHOD_RETURN) {
                answered++;
                in_flight--;
            } else if (type == DBUS_MESSAGE_TYPE_ERROR) {
                fprintf(stderr, "session_client: %s\n", dbus_message_get_error_name(message));
                return 1;
            } else {
                signals++;
            }
            dbus_message_unref(message);
        }
    }
    double seconds = now() - start;
    printf("{\"cycles\": %d, \"seconds\": %.3f, \"cycles_per_second\": %.1f, \"signals_read\": %d}\n", cycles, seconds,
           cycles / seconds, signals);
    dbus_connection_close(connection);
    return 0;
}
