#!/usr/bin/env python3
"""`Inject`s on a peer connection to `rehearse serve --listen` (jeepney), one at a time: prints a
line for each with what the peer received until the reply, in order (`signal` for an `Event`
signal, `reply` for the reply). With `match`, the peer first asks for the `Event` signals (AddMatch).

  Usage: peer_order.py ADDRESS COUNT [match]
"""
import sys

from jeepney import DBusAddress, MatchRule, MessageType, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

connection = open_dbus_connection(bus=sys.argv[1])
if sys.argv[3:] == ["match"]:
    rule = MatchRule(type="signal", interface="org.rehearse.Simulator1", member="Event")
    connection.send_and_get_reply(message_bus.AddMatch(rule))
simulator = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
for _ in range(int(sys.argv[2])):
    connection.send(new_method_call(simulator, "Inject", "sa{sv}", ("network", {"online": ("b", True)})))
    received = []
    while not received or received[-1] != "reply":
        message = connection.receive(timeout=10)
        kind = message.header.message_type
        received.append("reply" if kind == MessageType.method_return else "signal" if kind == MessageType.signal else str(kind))
    print(" ".join(received))
