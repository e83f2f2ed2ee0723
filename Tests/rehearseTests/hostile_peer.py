#!/usr/bin/env python3
"""Peers that misbehave towards `rehearse serve --listen ADDRESS`, for HostilePeerTests.

  hostile_peer.py silent PATH COUNT SECONDS   COUNT raw sockets that connect and never authenticate
  hostile_peer.py unread ADDRESS SECONDS      a jeepney peer that says Hello, asks for every signal
                                              and never reads again
  hostile_peer.py load ADDRESS FILE           LoadScenario with FILE's text; prints the error name or "ok"
"""
import socket
import sys
import time

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.bus_messages import MatchRule, message_bus
from jeepney.io.blocking import open_dbus_connection

SIMULATOR = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator",
                        interface="org.rehearse.Simulator1")


def silent(path, count, seconds):
    sockets = []
    for _ in range(count):
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.connect(path)
        sockets.append(peer)
    print("connected", flush=True)
    time.sleep(seconds)


def unread(address, seconds):
    connection = open_dbus_connection(bus=address)
    connection.send_and_get_reply(message_bus.AddMatch(MatchRule(type="signal")), timeout=5)
    print("subscribed", flush=True)
    time.sleep(seconds)


def load(address, file):
    connection = open_dbus_connection(bus=address)
    with open(file) as text:
        reply = connection.send_and_get_reply(new_method_call(SIMULATOR, "LoadScenario", "s", (text.read(),)), timeout=10)
    print(reply.header.fields[HeaderFields.error_name] if reply.header.message_type == MessageType.error else "ok")


if __name__ == "__main__":
    case, arguments = sys.argv[1], sys.argv[2:]
    if case == "silent":
        silent(arguments[0], int(arguments[1]), float(arguments[2]))
    elif case == "unread":
        unread(arguments[0], float(arguments[1]))
    elif case == "load":
        load(arguments[0], arguments[1])
