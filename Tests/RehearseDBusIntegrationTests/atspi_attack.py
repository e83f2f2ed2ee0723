#!/usr/bin/python3
"""Clients that push `rehearse serve --atspi` hard, for AccessibilityHostileTests (jeepney, run
with DBUS_SESSION_BUS_ADDRESS set to the test's private bus).

  drive COUNT                  COUNT drags of the scroll view `list` through the service's own bus
                               (Gesture), up and down in turn, each answered before the next; prints
                               "driven COUNT" and the slowest answer in ms
  flood ADDRESS DEST ID COUNT SECONDS
                               on the accessibility bus at ADDRESS: asks for every signal, writes
                               COUNT GetAccessibleAtPoint calls to DEST's node ID in one go, prints
                               "flooded" and never reads again; ends after SECONDS
  huge ADDRESS DEST BYTES      on the accessibility bus: InsertText of BYTES bytes into DEST's node
                               `username`; prints the answer's error name, or "answered"
  longpath ADDRESS DEST BYTES  on the accessibility bus: GetRole on a node path of BYTES bytes;
                               prints the answer's error name and message, and (on a line of its
                               own) how long it took in seconds
  pipeline ADDRESS DEST        on the accessibility bus: InsertText of "ab" into DEST's node
                               `username`, then its GetText and its CharacterCount, all three in
                               one write; prints each answer in turn
"""
import sys
import time

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.bus_messages import MatchRule, message_bus
from jeepney.io.blocking import open_dbus_connection

SIMULATOR = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator",
                        interface="org.rehearse.Simulator1")
NODE = "/org/a11y/atspi/accessible/node/"


def drive(count):
    connection = open_dbus_connection(bus="SESSION")
    slowest = 0.0
    for index in range(count):
        arguments = {"on": ("s", "list"), "by": ("ad", [0.0, -150.0 if index % 2 == 0 else 150.0]), "hold": ("d", 0.1)}
        start = time.monotonic()
        reply = connection.send_and_get_reply(
            new_method_call(SIMULATOR, "Gesture", "sa{sv}", ("drag", arguments)), timeout=60)
        slowest = max(slowest, time.monotonic() - start)
        if reply.header.message_type != MessageType.method_return:
            sys.exit(f"drag {index}: {reply.header.fields[HeaderFields.error_name]}: {reply.body}")
    print(f"driven {count}, the slowest answered in {slowest * 1000:.0f} ms")


def flood(address, destination, node_id, count, seconds):
    connection = open_dbus_connection(bus=address)
    connection.send_and_get_reply(message_bus.AddMatch(MatchRule(type="signal")), timeout=5)
    node = DBusAddress(NODE + node_id, bus_name=destination, interface="org.a11y.atspi.Component")
    call = new_method_call(node, "GetAccessibleAtPoint", "iiu", (10, 10, 0))
    connection.sock.sendall(b"".join(call.serialise(serial=1000 + index) for index in range(count)))
    print("flooded", flush=True)
    time.sleep(seconds)


def huge(address, destination, size):
    connection = open_dbus_connection(bus=address)
    node = DBusAddress(NODE + "username", bus_name=destination, interface="org.a11y.atspi.EditableText")
    reply = connection.send_and_get_reply(
        new_method_call(node, "InsertText", "isi", (0, "x" * size, size)), timeout=60)
    print(reply.header.fields[HeaderFields.error_name] if reply.header.message_type == MessageType.error else "answered")


def longpath(address, destination, size):
    connection = open_dbus_connection(bus=address)
    call = new_method_call(DBusAddress(NODE + "x", bus_name=destination, interface="org.a11y.atspi.Accessible"), "GetRole")
    call.header.fields[HeaderFields.path] = NODE + "x" * (size - len(NODE))  # jeepney checks a path slowly
    start = time.monotonic()
    reply = connection.send_and_get_reply(call, timeout=120)
    print(reply.header.fields.get(HeaderFields.error_name), reply.body[0] if reply.body else "")
    print(f"{time.monotonic() - start:.1f}")


def pipeline(address, destination):
    connection = open_dbus_connection(bus=address)
    username = DBusAddress(NODE + "username", bus_name=destination)
    calls = [
        new_method_call(username.with_interface("org.a11y.atspi.EditableText"), "InsertText", "isi", (0, "ab", 2)),
        new_method_call(username.with_interface("org.a11y.atspi.Text"), "GetText", "ii", (0, -1)),
        new_method_call(username.with_interface("org.freedesktop.DBus.Properties"), "Get", "ss",
                        ("org.a11y.atspi.Text", "CharacterCount")),
    ]
    connection.sock.sendall(b"".join(call.serialise(serial=1 + index) for index, call in enumerate(calls)))
    answers = {}
    while len(answers) < len(calls):
        message = connection.receive(timeout=10)
        if HeaderFields.reply_serial in message.header.fields:
            answers[message.header.fields[HeaderFields.reply_serial]] = message.body
    for serial in sorted(answers):
        print(answers[serial])


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "drive":
        drive(int(arguments[0]))
    elif command == "flood":
        flood(arguments[0], arguments[1], arguments[2], int(arguments[3]), float(arguments[4]))
    elif command == "huge":
        huge(arguments[0], arguments[1], int(arguments[2]))
    elif command == "longpath":
        longpath(arguments[0], arguments[1], int(arguments[2]))
    elif command == "pipeline":
        pipeline(arguments[0], arguments[1])
    else:
        sys.exit(f"unknown command {command}")
