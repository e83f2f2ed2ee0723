#!/usr/bin/env python3
"""Five `Inject`s on a peer connection to `rehearse serve --listen` (jeepney): prints how far apart
the serial numbers of their replies are. Every message the service builds takes a serial, so 1
means no `Event` signal was built between two replies, 2 one. With `match`, the peer first asks for
the `Event` signals (AddMatch) and reads each.

  Usage: peer_serials.py ADDRESS [match]
"""
import sys

from jeepney import DBusAddress, MatchRule, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

connection = open_dbus_connection(bus=sys.argv[1])
if sys.argv[2:] == ["match"]:
    rule = MatchRule(type="signal", interface="org.rehearse.Simulator1", member="Event")
    connection.send_and_get_reply(message_bus.AddMatch(rule))
simulator = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
serials = []
for _ in range(5):
    reply = connection.send_and_get_reply(new_method_call(simulator, "Inject", "sa{sv}", ("network", {"online": ("b", True)})))
    serials.append(reply.header.serial)
print(" ".join(str(before - after) for before, after in zip(serials, serials[1:])))
