/* The benchmark's libdbus client: calls Inject("network", {online: true}) on DESTINATION at
 * ADDRESS and reports one JSON line.
 *   client ADDRESS DESTINATION sequential COUNT      round trips one at a time
 *   client ADDRESS DESTINATION pipelined COUNT       64 calls in flight
 *   client ADDRESS DESTINATION latency COUNT         call, then time until its Event signal (p50, p99)
 *   client ADDRESS DESTINATION jitter COUNT          arrival of tick signals against their timestamps (p99)
 * DESTINATION "peer" connects straight to a --listen address (no daemon, no Hello). */
#include <dbus/dbus.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static DBusMessage *inject_call(const char *destination) {
    DBusMessage *call = dbus_message_new_method_call(strcmp(destination, "peer") ? destination : NULL,
                                                     "/org/rehearse/Simulator", "org.rehearse.Simulator1", "Inject");
    DBusMessageIter args, dict, entry, variant;
    const char *name = "network", *key = "online";
    dbus_bool_t online = 1;
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &name);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "b", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &online);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_close_container(&args, &dict);
    return call;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: client ADDRESS DESTINATION MODE COUNT\n"); return 2; }
    const char *address = argv[1], *destination = argv[2], *mode = argv[3];
    int count = atoi(argv[4]);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(address, &error);
    if (!connection) { fprintf(stderr, "%s\n", error.message); return 1; }
    if (strcmp(destination, "peer") && !dbus_bus_register(connection, &error)) { fprintf(stderr, "%s\n", error.message); return 1; }
    double start = now();
    if (!strcmp(mode, "sequential") || !strcmp(mode, "pipelined")) {
        /* Signals that arrive too (a peer gets every Event) are read and dropped as they come, as
         * a client with a main loop would: left queued, libdbus would search them for each reply. */
        int in_flight = strcmp(mode, "sequential") ? 64 : 1, sent = 0, received = 0;
        while (received < count) {
            while (sent < count && sent - received < in_flight) {
                DBusMessage *call = inject_call(destination);
                dbus_connection_send(connection, call, NULL);
                dbus_message_unref(call);
                sent++;
            }
            dbus_connection_read_write(connection, 1000);
            DBusMessage *message;
            while ((message = dbus_connection_pop_message(connection))) {
                int type = dbus_message_get_type(message);
                if (type == DBUS_MESSAGE_TYPE_ERROR) { fprintf(stderr, "%s\n", dbus_message_get_error_name(message)); return 1; }
                if (type == DBUS_MESSAGE_TYPE_METHOD_RETURN) received++;
                dbus_message_unref(message);
            }
        }
        printf("{\"calls_per_second\": %.0f}\n", count / (now() - start));
    } else {
        int jitter = !strcmp(mode, "jitter");
        const char *rule = jitter
            ? "type='signal',interface='org.rehearse.Simulator1',member='Event',arg2='tick'"
            : "type='signal',interface='org.rehearse.Simulator1',member='Event',arg2='network'";
        if (strcmp(destination, "peer")) dbus_bus_add_match(connection, rule, &error);
        double *samples = calloc(count, sizeof(double));
        for (int i = 0; i < count; i++) {
            double sent = now();
            if (!jitter) {
                DBusMessage *call = inject_call(destination);
                dbus_connection_send(connection, call, NULL);
                dbus_message_unref(call);
            }
            int seen = 0;
            while (!seen) {
                dbus_connection_read_write(connection, 1000);
                DBusMessage *message;
                while ((message = dbus_connection_pop_message(connection))) {
                    if (dbus_message_is_signal(message, "org.rehearse.Simulator1", "Event")) {
                        DBusMessageIter args;
                        double time = 0;
                        dbus_message_iter_init(message, &args);
                        dbus_message_iter_next(&args);
                        dbus_message_iter_get_basic(&args, &time);
                        samples[i] = jitter ? now() - time : now() - sent;
                        seen = 1;
                    }
                    dbus_message_unref(message);
                }
            }
        }
        if (jitter) {  /* lateness against the median lateness, in absolute value */
            double *sorted = calloc(count, sizeof(double));
            memcpy(sorted, samples, count * sizeof(double));
            qsort(sorted, count, sizeof(double), compare);
            double median = sorted[count / 2];
            for (int i = 0; i < count; i++) samples[i] = fabs(samples[i] - median);
        }
        qsort(samples, count, sizeof(double), compare);
        printf("{\"p50_ms\": %.3f, \"p99_ms\": %.3f}\n", samples[count / 2] * 1e3, samples[count * 99 / 100] * 1e3);
    }
    return 0;
}
