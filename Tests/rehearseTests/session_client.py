#!/usr/bin/env python3
"""A jeepney client of `rehearse serve` sessions (nobody here wrote jeepney). Run by SessionTests
with DBUS_SESSION_BUS_ADDRESS set to a private bus, or with an address as the last argument.

  trace KIND     create a session for KIND (login or panner), drive it, print its Event signals
  create         create a session, print its path, and leave (the session should go with us)
  cap            create sessions until refused; print the count and the error, then close one
                 and create again
"""
import json
import sys

from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

SERVICE = "org.rehearse.Simulator"
DEFAULT = "/org/rehearse/Simulator"

# What each kind of session gets, and the calls that drive it.
KINDS = {
    "login": (["login-animator"], [
        ("Inject", "sa{sv}", ("tap", {"target": ("s", "username")})),
        ("Advance", "d", (0.3,)),
        ("Inject", "sa{sv}", ("text", {"target": ("s", "username"), "text": ("s", "vijay")})),
        ("Inject", "sa{sv}", ("return", {"target": ("s", "username")})),
        ("Advance", "d", (0.5,)),
    ]),
    "panner": (["panner"], [
        ("Inject", "sa{sv}", ("motion", {"rotationRate": ("a{sv}", {"x": ("d", 0.0), "y": ("d", 0.8), "z": ("d", 0.0)})})),
        ("Advance", "d", (0.25,)),
        ("Inject", "sa{sv}", ("motion", {"rotationRate": ("a{sv}", {"x": ("d", 0.0), "y": ("d", -0.4), "z": ("d", 0.0)})})),
        ("Advance", "d", (0.25,)),
    ]),
}


class Client:
    def __init__(self, bus):
        self.connection = open_dbus_connection(bus=bus)

    def call(self, path, method, signature=None, body=()):
        address = DBusAddress(path, bus_name=SERVICE, interface="org.rehearse.Simulator1")
        reply = self.connection.send_and_get_reply(new_method_call(address, method, signature, body), timeout=10)
        if reply.header.message_type == MessageType.error:
            return reply.header.fields[HeaderFields.error_name], reply.body
        return None, reply.body

    def create(self, setup):
        error, body = self.call(DEFAULT, "CreateSession", "a{sv}", (setup,))
        return error or body[0]


def trace(client, kind):
    plugins, calls = KINDS[kind]
    path = client.create({"plugins": ("as", plugins), "mode": ("s", "manual")})
    rule = MatchRule(type="signal", interface="org.rehearse.Simulator1", member="Event", path=path)
    client.connection.send_and_get_reply(message_bus.AddMatch(rule), timeout=10)
    with client.connection.filter(rule, bufsize=100000) as queue:
        for method, signature, body in calls:
            error, _ = client.call(path, method, signature, body)
            assert error is None, (method, error)
        client.call(path, "Get", "s", ("time",))  # every signal of the calls is in before this reply
        while queue:
            sequence, time, name, fields = queue.popleft().body
            print(sequence, f"{time:.6f}", name, json.dumps(fields, sort_keys=True, default=str))
    client.call(path, "Close")


def cap(client):
    paths = []
    while True:
        result = client.create({})
        if not result.startswith("/"):
            break
        paths.append(result)
    error, _ = client.call(paths[0], "Close")
    again = client.create({})
    print(json.dumps({"created": len(paths), "refused": result, "closed": error is None, "again": again}))


def main():
    command = sys.argv[1]
    bus = sys.argv[-1] if sys.argv[-1].startswith("unix:") else "SESSION"
    client = Client(bus)
    if command == "trace":
        trace(client, sys.argv[2])
    elif command == "create":
        print(client.create({"mode": ("s", "manual")}))
    elif command == "cap":
        cap(client)


if __name__ == "__main__":
    main()
