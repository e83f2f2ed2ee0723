#!/usr/bin/env python3
"""A D-Bus client nobody here wrote (jeepney) drives `rehearse serve` through the bad-input matrix:
each case prints one JSON line {"case", "error" (the error name, or null), "alive"} where
"alive" says a Get still answered after it. Run by EndToEnd D-Bus tests with
DBUS_SESSION_BUS_ADDRESS set to a private bus."""
import json
import math

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection

SIMULATOR = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator",
                        interface="org.rehearse.Simulator1")


def call(connection, method, signature=None, body=()):
    reply = connection.send_and_get_reply(new_method_call(SIMULATOR, method, signature, body), timeout=5)
    if reply.header.message_type == MessageType.error:
        return reply.header.fields[HeaderFields.error_name], reply.body
    return None, reply.body


def nested(depth):
    value = ("s", "deep")
    for _ in range(depth):
        value = ("v", value)
    return value


def main():
    connection = open_dbus_connection(bus="SESSION")
    cases = {
        "valid tap": ("Inject", "sa{sv}", ("tap", {"x": ("d", 10.0), "y": ("d", 10.0)})),
        "nested motion": ("Inject", "sa{sv}", ("motion", {"rotationRate": ("a{sv}", {"x": ("d", 0.0), "y": ("d", 0.5), "z": ("i", 0)})})),
        "unknown event": ("Inject", "sa{sv}", ("keyboard.willshow", {})),
        "unknown target": ("Inject", "sa{sv}", ("focus", {"target": ("s", "nobody")})),
        "wrong field type": ("Inject", "sa{sv}", ("network", {"online": ("s", "yes")})),
        "missing field": ("Inject", "sa{sv}", ("focus", {})),
        "nan": ("Inject", "sa{sv}", ("tap", {"x": ("d", math.nan), "y": ("d", 1.0)})),
        "infinity": ("InjectAt", "dsa{sv}", (math.inf, "network", {"online": ("b", True)})),
        "string over 64 KiB": ("Inject", "sa{sv}", ("text", {"target": ("s", "username"), "text": ("s", "x" * 70000)})),
        "more than 1000 fields": ("Inject", "sa{sv}", ("tap", {f"f{i}": ("i", i) for i in range(1001)})),
        "variants nested deeper than 32": ("Inject", "sa{sv}", ("tap", {"x": nested(40)})),
        "wrong signature": ("Inject", "ss", ("tap", "x")),
        "advance negative": ("Advance", "d", (-1.0,)),
        "unknown path": ("Get", "s", ("title.frame.z",)),
        "path of 64 KiB of .count": ("Get", "s", ("title" + ".count" * 10_900,)),
        "invalid scenario": ("LoadScenario", "s", ("name: x\nsteps: [{tapp: 1}]\n",)),
        "unknown plugin": ("Configure", "sa{sv}", ("nosuch", {})),
        "bad configuration": ("Configure", "sa{sv}", ("login-animator", {"duration": ("s", "slow")})),
    }
    for name, (method, signature, body) in cases.items():
        error, _ = call(connection, method, signature, body)
        alive_error, value = call(connection, "Get", "s", ("time",))
        print(json.dumps({"case": name, "error": error, "alive": alive_error is None}))


if __name__ == "__main__":
    main()
