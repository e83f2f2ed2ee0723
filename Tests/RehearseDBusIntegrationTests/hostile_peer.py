#!/usr/bin/env python3
"""Peers that misbehave towards `rehearse serve --listen ADDRESS`, for HostilePeerTests.

  hostile_peer.py silent PATH COUNT SECONDS   COUNT raw sockets that connect and never authenticate
  hostile_peer.py stalled PATH COUNT SECONDS  COUNT raw sockets that say their SASL AUTH line, read OK and
                                              never say BEGIN
  hostile_peer.py mid-sasl PATH COUNT         a client says its SASL AUTH line and waits for OK; then COUNT
                                              raw sockets connect, send the credentials byte and nothing
                                              more, and a prompt jeepney client connects behind them; then
                                              the first client says BEGIN and calls Get time: prints its
                                              answer, or why it had none
  hostile_peer.py unread ADDRESS SECONDS      a jeepney peer that says Hello, asks for every signal
                                              and never reads again
  hostile_peer.py load ADDRESS FILE           LoadScenario with FILE's text; prints the error name or "ok"
  hostile_peer.py flood ADDRESS COUNT         creates a session, writes COUNT Reset calls to it in one go,
                                              then reads every reply; prints how many were answered, and
                                              the error names of the others with their counts
  hostile_peer.py drop-mid-advance ADDRESS LOG ROUNDS
                                              ROUNDS times: a peer asks for every signal, calls a long
                                              Advance and stops reading, until the service's LOG says it
                                              was dropped; then another peer's Get must be answered;
                                              prints the rounds done and the slowest Get in ms
  hostile_peer.py reads ADDRESS               a peer starts an Advance of a million seconds; another peer
                                              makes each read-only call (10 s each at most), and a third
                                              pipelines Advance 5 and Get time, answered once the first
                                              peer leaves, and Get time on a session of its own, answered
                                              before; prints what each got as JSON
  hostile_peer.py idle ADDRESS COUNT SECONDS  COUNT peers that authenticate, say Hello and then nothing
  hostile_peer.py bombs ADDRESS COUNT         writes COUNT CreateSession calls at once, each set-up a YAML alias
                                              bomb inside every size limit, then reads their answers; prints how
                                              many were refused and how many answered
  hostile_peer.py latency ADDRESS COUNT       COUNT calls to a session of its own, every tenth on a new
                                              connection (authentication included); prints p50, p99 and
                                              the slowest in ms
"""
import collections
import json
import socket
import sys
import time

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.auth import make_auth_external
from jeepney.bus_messages import MatchRule, message_bus
from jeepney.io.blocking import DBusConnection, open_dbus_connection

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


def authenticating(path):
    """A raw socket that said its SASL AUTH line and read OK, and says nothing more."""
    peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    peer.settimeout(10)
    peer.connect(path)
    peer.sendall(b"\0" + make_auth_external())
    if not peer.recv(100).startswith(b"OK "):
        sys.exit("the service did not answer AUTH with OK")
    return peer


def stalled(path, count, seconds):
    sockets = [authenticating(path) for _ in range(count)]
    print("stalled", len(sockets), flush=True)
    time.sleep(seconds)


def mid_sasl(path, count):
    client = authenticating(path)
    flood = []
    for _ in range(count):
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.connect(path)
        peer.sendall(b"\0")
        flood.append(peer)
    # Accepted after every socket of the flood: once it is answered, the service saw them all.
    prompt = open_dbus_connection(bus=f"unix:path={path}")
    prompt.send_and_get_reply(new_method_call(SIMULATOR, "Get", "s", ("time",)), timeout=10)
    try:
        client.sendall(b"BEGIN\r\n")
        reply = DBusConnection(client).send_and_get_reply(new_method_call(SIMULATOR, "Get", "s", ("time",)), timeout=10)
        print("answered", reply.body, flush=True)
    except (OSError, ConnectionError, TimeoutError) as error:
        print("no answer:", type(error).__name__, error, flush=True)


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


def flood(address, count):
    connection = open_dbus_connection(bus=address)
    created = connection.send_and_get_reply(new_method_call(SIMULATOR, "CreateSession", "a{sv}", ({},)), timeout=10)
    session = DBusAddress(created.body[0], bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
    print(pipelined(connection, [new_method_call(session, "Reset")] * count))


def pipelined(connection, calls, timeout=120, sent=lambda: None):
    """Writes `calls` in one go (then calls `sent`), then reads every answer: how many were
    answered, and the error names of the others with their counts."""
    connection.sock.sendall(b"".join(call.serialise(serial=1000 + index) for index, call in enumerate(calls)))
    sent()
    outcomes = collections.Counter()
    while sum(outcomes.values()) < len(calls):
        reply = connection.receive(timeout=timeout)
        if reply.header.message_type == MessageType.method_return:
            outcomes["answered"] += 1
        elif reply.header.message_type == MessageType.error:
            outcomes[reply.header.fields[HeaderFields.error_name]] += 1
    return dict(sorted(outcomes.items()))


def drop_mid_advance(address, log, rounds):
    slowest = 0.0
    for _ in range(rounds):
        with open(log) as text:
            dropped = text.read().count("bytes unread")
        greedy = open_dbus_connection(bus=address)
        greedy.send_and_get_reply(message_bus.AddMatch(MatchRule(type="signal")), timeout=5)
        greedy.send(new_method_call(SIMULATOR, "Advance", "d", (100000.0,)))
        deadline = time.monotonic() + 60
        while True:
            with open(log) as text:
                if text.read().count("bytes unread") > dropped:
                    break
            if time.monotonic() > deadline:
                sys.exit(f"round {_}: the peer was not dropped within 60 s")
            time.sleep(0.01)
        greedy.close()
        other = open_dbus_connection(bus=address)
        start = time.monotonic()
        other.send_and_get_reply(new_method_call(SIMULATOR, "Get", "s", ("time",)), timeout=10)
        slowest = max(slowest, time.monotonic() - start)
        other.close()
    print(f"rounds {rounds}, slowest Get {slowest * 1000:.0f} ms", flush=True)


def idle(address, count, seconds):
    connections = [open_dbus_connection(bus=address) for _ in range(count)]
    print("connected", len(connections), flush=True)
    time.sleep(seconds)


def answer(connection, call, timeout):
    """The reply to `call` (its body) or its error name, or "no answer" within `timeout` seconds."""
    try:
        reply = connection.send_and_get_reply(call, timeout=timeout)
    except TimeoutError:
        return "no answer"
    if reply.header.message_type == MessageType.error:
        return reply.header.fields[HeaderFields.error_name]
    return reply.body


def reads(address):
    advancing = open_dbus_connection(bus=address)
    every_signal = MatchRule(type="signal")
    advancing.send_and_get_reply(message_bus.AddMatch(every_signal), timeout=10)
    advancing.send(new_method_call(SIMULATOR, "Advance", "d", (1000000.0,)))
    while advancing.receive(timeout=30).header.fields.get(HeaderFields.member) != "Event":
        pass
    # The Advance runs: its signals stop (the service answers RemoveMatch between its slices).
    advancing.send_and_get_reply(message_bus.RemoveMatch(every_signal), timeout=10)
    reader = open_dbus_connection(bus=address)
    properties = DBusAddress(SIMULATOR.object_path, bus_name=SIMULATOR.bus_name, interface="org.freedesktop.DBus.Properties")
    calls = {
        "Get": new_method_call(SIMULATOR, "Get", "s", ("time",)),
        "Snapshot": new_method_call(SIMULATOR, "Snapshot"),
        "ListPlugins": new_method_call(SIMULATOR, "ListPlugins"),
        "Properties.Get": new_method_call(properties, "Get", "ss", ("org.rehearse.Simulator1", "Time")),
        "Properties.GetAll": new_method_call(properties, "GetAll", "s", ("org.rehearse.Simulator1",)),
        "Introspect": new_method_call(DBusAddress(SIMULATOR.object_path, bus_name=SIMULATOR.bus_name,
                                                  interface="org.freedesktop.DBus.Introspectable"), "Introspect"),
        "Peer.Ping": new_method_call(DBusAddress(SIMULATOR.object_path, bus_name=SIMULATOR.bus_name,
                                                 interface="org.freedesktop.DBus.Peer"), "Ping"),
    }
    got, slowest, time_then = {}, 0.0, None
    for name, call in calls.items():
        start = time.monotonic()
        body = answer(reader, call, 10)
        slowest = max(slowest, time.monotonic() - start)
        got[name] = body if isinstance(body, str) else "answered"
        if name == "Get" and not isinstance(body, str):
            time_then = body[0][1]
        if body == "no answer":
            break
    # A caller's own calls to one session keep their order: its Get waits for its Advance, queued
    # behind the first's; its Get on a session of its own, another session, is answered meanwhile.
    own = open_dbus_connection(bus=address)
    created = own.send_and_get_reply(new_method_call(SIMULATOR, "CreateSession", "a{sv}", ({"mode": ("s", "manual")},)), timeout=30)
    session = DBusAddress(created.body[0], bus_name=SIMULATOR.bus_name, interface=SIMULATOR.interface)
    own.sock.sendall(new_method_call(SIMULATOR, "Advance", "d", (5.0,)).serialise(serial=7)
                     + new_method_call(SIMULATOR, "Get", "s", ("time",)).serialise(serial=8)
                     + new_method_call(session, "Get", "s", ("time",)).serialise(serial=9))
    first = own.receive(timeout=30)  # the first peer's Advance still runs
    advancing.close()
    replies = {first.header.fields[HeaderFields.reply_serial]: first.body}
    while len(replies) < 3:
        reply = own.receive(timeout=60)
        if reply.header.message_type == MessageType.method_return:
            replies[reply.header.fields[HeaderFields.reply_serial]] = reply.body
    print(json.dumps({"got": got, "slowest under 2 s": slowest < 2,
                      "time then": "within the Advance" if time_then and 0 < time_then < 1000000 else time_then,
                      "own Get after own Advance": replies[8][0][1] == replies[7][0],
                      "own session's Get first": first.header.fields[HeaderFields.reply_serial] == 9}), flush=True)


def alias_bomb(depth=6, width=9):
    """A scenario text of a few hundred bytes whose aliases make 9^6 nodes."""
    lines = ["x0: &a0 [" + ",".join(["0"] * width) + "]"]
    for level in range(1, depth):
        lines.append(f"x{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def bombs(address, count):
    connection = open_dbus_connection(bus=address)
    call = new_method_call(SIMULATOR, "CreateSession", "a{sv}", ({"scenario": ("s", alias_bomb())},))
    print(pipelined(connection, [call] * count, sent=lambda: print("sent", flush=True)), flush=True)


def latency(address, count):
    times = []
    connection, session = None, None
    for index in range(count):
        start = time.monotonic()
        if index % 10 == 0:
            if connection:
                connection.close()
            connection = open_dbus_connection(bus=address)
            created = connection.send_and_get_reply(new_method_call(SIMULATOR, "CreateSession", "a{sv}", ({"mode": ("s", "manual")},)), timeout=30)
            session = DBusAddress(created.body[0], bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
        reply = connection.send_and_get_reply(new_method_call(session, "Get", "s", ("time",)), timeout=30)
        assert reply.header.message_type == MessageType.method_return, reply.body
        times.append((time.monotonic() - start) * 1000)
    times.sort()
    print(f"p50 {times[len(times) // 2]:.1f} ms, p99 {times[int(len(times) * 0.99)]:.1f} ms, slowest {times[-1]:.1f} ms", flush=True)


if __name__ == "__main__":
    case, arguments = sys.argv[1], sys.argv[2:]
    if case == "silent":
        silent(arguments[0], int(arguments[1]), float(arguments[2]))
    elif case == "stalled":
        stalled(arguments[0], int(arguments[1]), float(arguments[2]))
    elif case == "mid-sasl":
        mid_sasl(arguments[0], int(arguments[1]))
    elif case == "unread":
        unread(arguments[0], float(arguments[1]))
    elif case == "load":
        load(arguments[0], arguments[1])
    elif case == "flood":
        flood(arguments[0], int(arguments[1]))
    elif case == "drop-mid-advance":
        drop_mid_advance(arguments[0], arguments[1], int(arguments[2]))
    elif case == "bombs":
        bombs(arguments[0], int(arguments[1]))
    elif case == "latency":
        latency(arguments[0], int(arguments[1]))
    elif case == "reads":
        reads(arguments[0])
    elif case == "idle":
        idle(arguments[0], int(arguments[1]), float(arguments[2]))
