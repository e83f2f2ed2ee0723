#!/usr/bin/env python3
"""Hostile plugins of `rehearse serve --no-bus --listen ADDRESS`, each a peer that registers with a
session shared by another peer (the owner, which drives it). Run by HostilePluginTests.

  plugin_attack.py fanout ADDRESS PID     the plugin answers each Deliver with 1,024 emits of an
                                          event it subscribes to; prints the Inject's outcome, the
                                          plugin.failed error and the service's peak memory in MiB
  plugin_attack.py stall-close ADDRESS N  the plugin registers N ids, each subscribed to `tap`, and
                                          never answers a Deliver; the owner injects a tap and
                                          leaves while the session waits; prints how long another
                                          peer's Get took meanwhile
  plugin_attack.py stall ADDRESS N        as stall-close, but the owner stays: prints "waiting" once
                                          the session waits for the plugin, then sleeps
  plugin_attack.py wakes ADDRESS PID       the plugin answers a tap, and each Wake, with 1,024
                                          `schedule` effects 0 s ahead; the owner advances 1 s;
                                          prints the Advance's outcome and the peak memory in MiB
  plugin_attack.py register-many ADDRESS N  one peer registers N ids with a shared session; prints
                                          how many were accepted and the errors of the others
  plugin_attack.py reuse ADDRESS          the plugin registers, then leaves; new peers connect; the
                                          owner injects a tap; prints its outcome with the plugin's
                                          failure, and which calls the new peers got
"""
import collections
import os
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
from rehearse.plugin import peer_method_call  # noqa: E402
from jeepney import HeaderFields, MessageType, Parser, new_method_return  # noqa: E402
from jeepney.bus import get_connectable_addresses  # noqa: E402
from jeepney.io.blocking import prep_socket  # noqa: E402

SIMULATOR = "/org/rehearse/Simulator"
INTERFACE = "org.rehearse.Simulator1"
ANSWER = "a(sa{sv})a{sv}"
SCENE = "name: hostile plugin\nscene: paper-login\nsteps: []\n"


class Peer:
    """A peer connection whose sends may come from several threads, and whose receive times out
    (raising TimeoutError) or returns None once the service closed it."""

    def __init__(self, address):
        self.sock = prep_socket(next(get_connectable_addresses(address)), timeout=None)
        self.parser = Parser()
        self.serial = 0
        self.lock = threading.Lock()

    def send(self, message):
        with self.lock:
            self.serial += 1
            self.sock.sendall(message.serialise(serial=self.serial))
            return self.serial

    def receive(self, timeout=None):
        while (message := self.parser.get_next_message()) is None:
            self.sock.settimeout(timeout)
            try:
                data = self.sock.recv(1 << 16)
            except socket.timeout:
                raise TimeoutError
            except OSError:
                return None
            if not data:
                return None
            self.parser.add_data(data)
        return message

    def close(self):
        self.sock.close()


def connect(address):
    connection = Peer(address)
    call(connection, "/org/freedesktop/DBus", "Hello", interface="org.freedesktop.DBus")
    return connection


def call(connection, path, member, signature=None, body=(), interface=INTERFACE, timeout=30):
    """Sends a call and returns its reply, skipping anything else that comes meanwhile."""
    serial = connection.send(peer_method_call(path, interface, member, signature, body))
    deadline = time.monotonic() + timeout
    while True:
        message = connection.receive(timeout=max(deadline - time.monotonic(), 0.01))
        if message is None:
            raise ConnectionError("the service closed the connection")
        if message.header.fields.get(HeaderFields.reply_serial) == serial:
            return message


def error_name(reply):
    return reply.header.fields.get(HeaderFields.error_name) if reply.header.message_type == MessageType.error else None


def shared_session(owner):
    reply = call(owner, SIMULATOR, "CreateSession", "a{sv}",
                 ({"scenario": ("s", SCENE), "mode": ("s", "manual"), "share": ("b", True)},))
    return reply.body[0]


def register(connection, path, plugin_id, subscriptions, events=()):
    """Sends RegisterPlugin; returns its serial (the reply comes before the first call)."""
    return connection.send(peer_method_call(path, INTERFACE, "RegisterPlugin", "ssa(sss)asa{sv}",
                                            (plugin_id, "hostile", list(events), subscriptions, {})))


def serve(connection, answer, until=None):
    """Answers the service's calls with `answer(call)` (a body, or None for no answer) until the
    connection closes or `until()` is true."""
    while until is None or not until():
        try:
            message = connection.receive(timeout=0.2)
        except TimeoutError:
            continue
        if message is None:
            return
        if message.header.message_type != MessageType.method_call:
            continue
        body = answer(message)
        if body is not None:
            connection.send(new_method_return(message, ANSWER, body))


def peak_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return 0


def fanout(address, pid):
    owner, plugin = connect(address), connect(address)
    path = shared_session(owner)
    register(plugin, path, "fan", ["tap", "fan.x"], [("fan.x", "", "fanned")])
    emits = [("emit", {"name": ("s", "fan.x"), "fields": ("a{sv}", {})})] * 1024

    def answer(message):
        return ([], {}) if message.header.fields[HeaderFields.member] == "Install" else (emits, {})
    threading.Thread(target=serve, args=(plugin, answer), daemon=True).start()
    time.sleep(0.5)
    start = time.monotonic()
    reply = call(owner, path, "Inject", "sa{sv}", ("tap", {"x": ("d", 160.0), "y": ("d", 200.0)}), timeout=60)
    took = time.monotonic() - start
    failed = call(owner, path, "Get", "s", ("time",))  # the session still answers
    print("inject", error_name(reply) or "ok", f"{took:.1f} s", flush=True)
    print("get", error_name(failed) or "ok")
    print("peak", peak_mib(pid), "MiB")


def wakes(address, pid):
    owner, plugin = connect(address), connect(address)
    path = shared_session(owner)
    register(plugin, path, "waker", ["tap"])
    schedules = [("schedule", {"after": ("d", 0.0), "tag": ("s", "again")})] * 1024

    def answer(message):
        return ([], {}) if message.header.fields[HeaderFields.member] == "Install" else (schedules, {})
    threading.Thread(target=serve, args=(plugin, answer), daemon=True).start()
    time.sleep(0.5)
    call(owner, path, "Inject", "sa{sv}", ("tap", {"x": ("d", 160.0), "y": ("d", 200.0)}))
    start = time.monotonic()
    reply = call(owner, path, "Advance", "d", (1.0,), timeout=60)
    print("advance", error_name(reply) or "ok", f"{time.monotonic() - start:.1f} s", flush=True)
    print("peak", peak_mib(pid), "MiB")


def register_many(address, count):
    owner, plugin = connect(address), connect(address)
    path = shared_session(owner)
    serials = {register(plugin, path, f"many{index}", ["tap"]): index for index in range(count)}
    outcomes = {}
    while len(outcomes) < count:
        message = plugin.receive(timeout=30)
        if message.header.message_type == MessageType.method_call:
            plugin.send(new_method_return(message, ANSWER, ([], {})))
        elif message.header.fields.get(HeaderFields.reply_serial) in serials:
            outcomes[message.header.fields[HeaderFields.reply_serial]] = error_name(message) or "ok"
    print(dict(sorted(collections.Counter(outcomes.values()).items())), flush=True)


def stall(address, count, leave):
    owner, plugin = connect(address), connect(address)
    path = shared_session(owner)
    for index in range(count):
        register(plugin, path, f"stall{index}", ["tap"])

    def answer(message):
        return ([], {"x": ("i", 1)}) if message.header.fields[HeaderFields.member] == "Install" else None
    threading.Thread(target=serve, args=(plugin, answer), daemon=True).start()
    # Installed once the session knows the last one's id.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if error_name(call(owner, path, "Get", "s", (f"stall{count - 1}.x",))) is None:
            break
        time.sleep(0.05)
    owner.send(peer_method_call(path, INTERFACE, "Inject", "sa{sv}", ("tap", {"x": ("d", 160.0), "y": ("d", 200.0)})))
    time.sleep(0.3)  # the session now waits for stall0's answer
    if not leave:
        print("waiting", flush=True)
        time.sleep(120)
        return
    other = connect(address)
    owner.close()
    start = time.monotonic()
    call(other, SIMULATOR, "Get", "s", ("time",))
    print(f"other Get {time.monotonic() - start:.2f} s", flush=True)


def reuse(address):
    owner, plugin = connect(address), connect(address)
    path = shared_session(owner)
    register(plugin, path, "spy", ["tap"])
    installed = threading.Event()

    def answer(message):
        installed.set()
        return ([], {})
    threading.Thread(target=serve, args=(plugin, answer, installed.is_set), daemon=True).start()
    installed.wait(10)
    time.sleep(0.3)
    plugin.close()
    time.sleep(0.3)
    newcomers = [connect(address) for _ in range(8)]
    got = []

    def listen(index, connection):
        def answer(message):
            got.append((index, message.header.fields[HeaderFields.member]))
            return ([], {})
        serve(connection, answer, lambda: stop.is_set())
    stop = threading.Event()
    for index, connection in enumerate(newcomers):
        threading.Thread(target=listen, args=(index, connection), daemon=True).start()
    call(owner, "/org/freedesktop/DBus", "AddMatch", "s", ("type='signal',member='Event'",), interface="org.freedesktop.DBus")
    serial = owner.send(peer_method_call(path, INTERFACE, "Inject", "sa{sv}", ("tap", {"x": ("d", 160.0), "y": ("d", 200.0)})))
    failures = []
    while (message := owner.receive(timeout=30)) is not None:
        if message.header.fields.get(HeaderFields.reply_serial) == serial:
            break
        if message.header.fields.get(HeaderFields.member) == "Event" and message.body[2] == "plugin.failed":
            failures.append(message.body[3]["error"][1])
    time.sleep(0.5)
    stop.set()
    print("inject", error_name(message) or "ok", "failed:", "; ".join(failures))
    print("newcomers got", sorted(got))


if __name__ == "__main__":
    case, arguments = sys.argv[1], sys.argv[2:]
    if case == "fanout":
        fanout(arguments[0], int(arguments[1]))
    elif case == "stall-close":
        stall(arguments[0], int(arguments[1]), leave=True)
    elif case == "stall":
        stall(arguments[0], int(arguments[1]), leave=False)
    elif case == "wakes":
        wakes(arguments[0], int(arguments[1]))
    elif case == "register-many":
        register_many(arguments[0], int(arguments[1]))
    elif case == "reuse":
        reuse(arguments[0])
