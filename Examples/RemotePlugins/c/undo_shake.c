/*
 * undo-shake in C with libdbus: the plugin of ../undo_shake.py, answer for answer, to show that a
 * Rehearse plugin is any program that speaks the protocol of docs/remote-plugins.md.
 *
 * Build:  cc -Wall -o undo_shake undo_shake.c $(pkg-config --cflags --libs dbus-1) -lm
 *         (or `make`). Rehearse starts it from a scenario: command: [./undo_shake]
 *
 * The protocol, from the plugin's side: connect to $REHEARSE_PLUGIN_ADDRESS (peer to peer: no
 * Hello), call RegisterPlugin on the host, answer Install, Deliver and Wake with
 * (a(sa{sv}) effects, a{sv} state), and exit when the connection closes.
 */
#include <dbus/dbus.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_PATH "/org/rehearse/Plugin"
#define PLUGIN_INTERFACE "org.rehearse.Plugin1"
#define PLUGIN_ERROR "org.rehearse.Plugin.Error"

/* The configuration (defaults, then what Install gives) and the state. */
static double threshold = 2.0;
static double cooldown = 1.0;
static char node[256] = "title";
static long long shakes = 0;
static double quiet_until = 0.0;

static dbus_uint32_t registration_serial = 0;
static int refused = 0;

/* MARK: Writing a{sv} */

/* Opens the dictionary entry `key` of `dict` with a variant of type `signature` in it. */
static void open_entry(DBusMessageIter *dict, const char *key, const char *signature,
                       DBusMessageIter *entry, DBusMessageIter *variant) {
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, entry);
    dbus_message_iter_append_basic(entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(entry, DBUS_TYPE_VARIANT, signature, variant);
}

static void close_entry(DBusMessageIter *dict, DBusMessageIter *entry, DBusMessageIter *variant) {
    dbus_message_iter_close_container(entry, variant);
    dbus_message_iter_close_container(dict, entry);
}

/* `key`: a basic value of D-Bus type `type` (its signature is the one character). */
static void put(DBusMessageIter *dict, const char *key, int type, const void *value) {
    DBusMessageIter entry, variant;
    char signature[2] = {(char)type, 0};
    open_entry(dict, key, signature, &entry, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    close_entry(dict, &entry, &variant);
}

static void put_double(DBusMessageIter *dict, const char *key, double value) { put(dict, key, DBUS_TYPE_DOUBLE, &value); }
static void put_string(DBusMessageIter *dict, const char *key, const char *value) { put(dict, key, DBUS_TYPE_STRING, &value); }

/* `key`: an a{sv} holding one number, `inner_key` -> `value`. */
static void put_one_double(DBusMessageIter *dict, const char *key, const char *inner_key, double value) {
    DBusMessageIter entry, variant, inner;
    open_entry(dict, key, "a{sv}", &entry, &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sv}", &inner);
    put_double(&inner, inner_key, value);
    dbus_message_iter_close_container(&variant, &inner);
    close_entry(dict, &entry, &variant);
}

/* One effect of the answer's array: opens (s a{sv}) and its arguments. */
static void open_effect(DBusMessageIter *effects, const char *kind, DBusMessageIter *effect, DBusMessageIter *arguments) {
    dbus_message_iter_open_container(effects, DBUS_TYPE_STRUCT, NULL, effect);
    dbus_message_iter_append_basic(effect, DBUS_TYPE_STRING, &kind);
    dbus_message_iter_open_container(effect, DBUS_TYPE_ARRAY, "{sv}", arguments);
}

static void close_effect(DBusMessageIter *effects, DBusMessageIter *effect, DBusMessageIter *arguments) {
    dbus_message_iter_close_container(effect, arguments);
    dbus_message_iter_close_container(effects, effect);
}

/* animate: `node`.alpha to `alpha` over 0.15 s on `curve`, with a completion tag or none. */
static void animate_alpha(DBusMessageIter *effects, double alpha, const char *curve, const char *completion) {
    DBusMessageIter effect, arguments;
    char path[300];
    snprintf(path, sizeof path, "%s.alpha", node);
    open_effect(effects, "animate", &effect, &arguments);
    put_double(&arguments, "duration", 0.15);
    put_one_double(&arguments, "changes", path, alpha);
    put_string(&arguments, "curve", curve);
    if (completion) put_string(&arguments, "completion", completion);
    close_effect(effects, &effect, &arguments);
}

/* MARK: Reading a{sv} */

/* A number in a variant (an integer or a double), or 0 when it is neither. */
static int read_number(DBusMessageIter *variant, double *number) {
    DBusMessageIter value;
    dbus_message_iter_recurse(variant, &value);
    switch (dbus_message_iter_get_arg_type(&value)) {
    case DBUS_TYPE_DOUBLE: dbus_message_iter_get_basic(&value, number); return 1;
    case DBUS_TYPE_INT64: { dbus_int64_t integer; dbus_message_iter_get_basic(&value, &integer); *number = (double)integer; return 1; }
    case DBUS_TYPE_INT32: { dbus_int32_t integer; dbus_message_iter_get_basic(&value, &integer); *number = integer; return 1; }
    default: return 0;
    }
}

/* Finds `key` in the a{sv} at `dict` and points `variant` at its value. */
static int find(DBusMessageIter *dict, const char *key, DBusMessageIter *variant) {
    DBusMessageIter entries, entry;
    if (dbus_message_iter_get_arg_type(dict) != DBUS_TYPE_ARRAY) return 0;
    dbus_message_iter_recurse(dict, &entries);
    for (; dbus_message_iter_get_arg_type(&entries) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&entries)) {
        const char *name;
        dbus_message_iter_recurse(&entries, &entry);
        dbus_message_iter_get_basic(&entry, &name);
        if (strcmp(name, key) == 0) {
            dbus_message_iter_next(&entry);
            *variant = entry;
            return 1;
        }
    }
    return 0;
}

/* The a{sv} inside the variant at `variant`. */
static int open_fields(DBusMessageIter *variant, DBusMessageIter *fields) {
    dbus_message_iter_recurse(variant, fields);
    return dbus_message_iter_get_arg_type(fields) == DBUS_TYPE_ARRAY;
}

/* MARK: The plugin's methods */

static void install(DBusMessageIter *arguments) {
    DBusMessageIter value;
    threshold = 2.0;
    cooldown = 1.0;
    strcpy(node, "title");
    if (find(arguments, "threshold", &value)) read_number(&value, &threshold);
    if (find(arguments, "cooldown", &value)) read_number(&value, &cooldown);
    if (find(arguments, "node", &value)) {
        DBusMessageIter text;
        const char *name;
        dbus_message_iter_recurse(&value, &text);
        if (dbus_message_iter_get_arg_type(&text) == DBUS_TYPE_STRING) {
            dbus_message_iter_get_basic(&text, &name);
            snprintf(node, sizeof node, "%s", name);
        }
    }
    shakes = 0;
    quiet_until = 0.0;
}

/* motion: a strong enough sample outside a shake's cooldown asks to undo and dims the node. */
static void motion(double time, DBusMessageIter *fields, DBusMessageIter *effects) {
    DBusMessageIter value, acceleration, axis;
    double x = 0, y = 0, z = 0;
    if (time < quiet_until || !find(fields, "userAcceleration", &value) || !open_fields(&value, &acceleration)) return;
    if (find(&acceleration, "x", &axis)) read_number(&axis, &x);
    if (find(&acceleration, "y", &axis)) read_number(&axis, &y);
    if (find(&acceleration, "z", &axis)) read_number(&axis, &z);
    double magnitude = sqrt(x * x + y * y + z * z);
    if (magnitude <= threshold) return;
    shakes += 1;
    quiet_until = time + cooldown;

    DBusMessageIter effect, arguments;
    open_effect(effects, "emit", &effect, &arguments);
    put_string(&arguments, "name", "undo.requested");
    put_one_double(&arguments, "fields", "magnitude", magnitude);
    close_effect(effects, &effect, &arguments);
    animate_alpha(effects, 0.3, "easeOut", "dimmed");
}

/* The reply to one call: its answer, or an error reply saying what was wrong. */
static DBusMessage *answer(DBusMessage *call) {
    const char *member = dbus_message_get_member(call);
    DBusMessageIter arguments, reply_arguments, effects, state;
    dbus_uint64_t sequence;
    double time;
    const char *name;
    char problem[300];

    if (!dbus_message_has_path(call, PLUGIN_PATH))
        return dbus_message_new_error(call, DBUS_ERROR_UNKNOWN_OBJECT, "no such object");
    if (dbus_message_get_interface(call) && !dbus_message_has_interface(call, PLUGIN_INTERFACE))
        return dbus_message_new_error(call, DBUS_ERROR_UNKNOWN_METHOD, "no such method");

    DBusMessage *reply = dbus_message_new_method_return(call);
    dbus_message_iter_init(call, &arguments);
    dbus_message_iter_init_append(reply, &reply_arguments);
    dbus_message_iter_open_container(&reply_arguments, DBUS_TYPE_ARRAY, "(sa{sv})", &effects);

    if (strcmp(member, "Install") == 0 && dbus_message_has_signature(call, "a{sv}")) {
        install(&arguments);
    } else if (strcmp(member, "Deliver") == 0 && dbus_message_has_signature(call, "tdsa{sv}")) {
        dbus_message_iter_get_basic(&arguments, &sequence);
        dbus_message_iter_next(&arguments);
        dbus_message_iter_get_basic(&arguments, &time);
        dbus_message_iter_next(&arguments);
        dbus_message_iter_get_basic(&arguments, &name);
        dbus_message_iter_next(&arguments);
        if (strcmp(name, "motion") != 0) {
            snprintf(problem, sizeof problem, "undo-shake Deliver: no handler for event '%s'", name);
            goto fail;
        }
        motion(time, &arguments, &effects);
    } else if (strcmp(member, "Wake") == 0 && dbus_message_has_signature(call, "sda{sv}")) {
        dbus_message_iter_get_basic(&arguments, &name);
        if (strcmp(name, "dimmed") != 0) {
            snprintf(problem, sizeof problem, "undo-shake Wake: no handler for tag '%s'", name);
            goto fail;
        }
        animate_alpha(&effects, 1.0, "easeIn", NULL);
    } else if (strcmp(member, "Install") == 0 || strcmp(member, "Deliver") == 0 || strcmp(member, "Wake") == 0) {
        dbus_message_iter_abandon_container(&reply_arguments, &effects);
        dbus_message_unref(reply);
        snprintf(problem, sizeof problem, "%s: wrong arguments (%s)", member, dbus_message_get_signature(call));
        return dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, problem);
    } else {
        dbus_message_iter_abandon_container(&reply_arguments, &effects);
        dbus_message_unref(reply);
        return dbus_message_new_error(call, DBUS_ERROR_UNKNOWN_METHOD, "no such method");
    }
    dbus_message_iter_close_container(&reply_arguments, &effects);
    dbus_message_iter_open_container(&reply_arguments, DBUS_TYPE_ARRAY, "{sv}", &state);
    put(&state, "shakes", DBUS_TYPE_INT64, &shakes);
    dbus_message_iter_close_container(&reply_arguments, &state);
    return reply;

fail:
    dbus_message_iter_abandon_container(&reply_arguments, &effects);
    dbus_message_unref(reply);
    return dbus_message_new_error(call, PLUGIN_ERROR, problem);
}

/* Every message that comes: the host's calls, and the answer to RegisterPlugin. */
static DBusHandlerResult receive(DBusConnection *connection, DBusMessage *message, void *unused) {
    (void)unused;
    int type = dbus_message_get_type(message);
    if (type == DBUS_MESSAGE_TYPE_METHOD_CALL) {
        DBusMessage *reply = answer(message);
        if (!dbus_message_get_no_reply(message)) dbus_connection_send(connection, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (type == DBUS_MESSAGE_TYPE_ERROR && dbus_message_get_reply_serial(message) == registration_serial) {
        const char *reason = "";
        dbus_message_get_args(message, NULL, DBUS_TYPE_STRING, &reason, DBUS_TYPE_INVALID);
        fprintf(stderr, "undo-shake: registration refused: %s: %s\n", dbus_message_get_error_name(message), reason);
        refused = 1;
        dbus_connection_close(connection);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

/* RegisterPlugin(id, summary, events, subscriptions, configuration). */
static DBusMessage *registration(const char *id) {
    const char *summary = "asks to undo when the device is shaken";
    const char *event[3] = {"undo.requested", "magnitude", "undo-shake, when the device is shaken hard enough"};
    const char *subscription = "motion";
    DBusMessage *call = dbus_message_new_method_call(NULL, "/org/rehearse/Simulator", "org.rehearse.PluginHost1", "RegisterPlugin");
    DBusMessageIter arguments, array, entry, configuration;
    dbus_message_iter_init_append(call, &arguments);
    dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &id);
    dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &summary);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "(sss)", &array);
    dbus_message_iter_open_container(&array, DBUS_TYPE_STRUCT, NULL, &entry);
    for (int part = 0; part < 3; part++) dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &event[part]);
    dbus_message_iter_close_container(&array, &entry);
    dbus_message_iter_close_container(&arguments, &array);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "s", &array);
    dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &subscription);
    dbus_message_iter_close_container(&arguments, &array);
    dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &configuration);
    put_double(&configuration, "threshold", threshold);
    put_double(&configuration, "cooldown", cooldown);
    put_string(&configuration, "node", node);
    dbus_message_iter_close_container(&arguments, &configuration);
    return call;
}

int main(void) {
    const char *address = getenv("REHEARSE_PLUGIN_ADDRESS");
    const char *id = getenv("REHEARSE_PLUGIN_ID");
    if (!address) {
        fprintf(stderr, "undo-shake: REHEARSE_PLUGIN_ADDRESS is not set; Rehearse starts this program from a scenario's plugins: entry\n");
        return 2;
    }
    DBusError error;
    dbus_error_init(&error);
    /* A private connection straight to Rehearse: no bus, so no dbus_bus_register (Hello). */
    DBusConnection *connection = dbus_connection_open_private(address, &error);
    if (!connection) {
        fprintf(stderr, "undo-shake: cannot connect: %s\n", error.message);
        dbus_error_free(&error);
        return 2;
    }
    dbus_connection_add_filter(connection, receive, NULL, NULL);
    DBusMessage *call = registration(id ? id : "undo-shake");
    dbus_connection_send(connection, call, &registration_serial);
    dbus_message_unref(call);
    /* Answers calls until the connection closes. */
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return refused ? 2 : 0;
}
