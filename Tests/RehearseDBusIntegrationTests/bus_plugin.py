#!/usr/bin/env python3
"""A plugin that registers with a session of `rehearse serve` on a private bus
(DBUS_SESSION_BUS_ADDRESS), driven from a second connection. Run by RemotePluginBusTests.

  count          the plugin counts taps and emits `probe.tapped {count}`; two taps; prints the
                 session's events and `probe.count`
  leave          the plugin's client leaves while the session waits for its answer: prints the
                 plugin.failed event (it names the client's leaving, not the 1 s deadline)
  slow           the plugin answers after 3 s: a second session, driven meanwhile, answers while
                 the first still waits out its 1 s deadline; prints both outcomes
  default        RegisterPlugin on the default session: prints the error
  reads          the plugin registers with reads (RegisterPlugin's sixth argument): the password typed
                 into, two taps with the title's alpha set between them; prints the session's
                 `probe.read {values}` events and the signature of the registration
  bad-reads      registrations whose reads name nothing, or hold control characters: prints each
                 answer, then a registration with good reads and the tap it answers
  bad-subscription  a registration that subscribes to no event (a newline and escape codes in its
                 name), answered since subscriptions are checked at install: prints the session's
                 plugin.failed events
"""
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
import rehearse  # noqa: E402
from rehearse.plugin import Plugin, emit  # noqa: E402
from jeepney import DBusAddress, new_method_call  # noqa: E402
from jeepney.io.blocking import open_dbus_connection  # noqa: E402

MODE = sys.argv[1]
SCENE = "name: bus plugin\nscene: paper-login\nsteps: []\n"

plugin = Plugin("probe", summary="counts taps", events=[("probe.tapped", "count", "a tap was counted"),
                                                        ("probe.read", "values", "what it read at a tap")],
                reads=["password.text", "title.alpha"] if MODE == "reads" else None)


@plugin.on_install
def start(config, state):
    state["count"] = 0


@plugin.on("tap")
def tap(event, state, config):
    state["count"] += 1
    if MODE == "leave":
        os._exit(0)  # the client goes, with the session waiting for this answer
    if MODE == "slow":
        time.sleep(3)
    if MODE == "reads":
        return [emit("probe.read", values=plugin.values)]
    return [emit("probe.tapped", count=state["count"])]


def serve(path):
    """The plugin on its own connection, in a thread of this process (or a child, for `leave`)."""
    connection = open_dbus_connection(bus="SESSION")
    plugin.serve_session(connection, path)


simulator = rehearse.Simulator()
if MODE == "default":
    connection = open_dbus_connection(bus="SESSION")
    call = new_method_call(DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator",
                                       interface="org.rehearse.Simulator1"),
                           "RegisterPlugin", "ssa(sss)asa{sv}", ("probe", "", [], ["tap"], {}))
    reply = connection.send_and_get_reply(call)
    print(reply.header.fields.get(4), reply.body[0])  # 4: the error name
    sys.exit(0)



def wait_installed(session):
    """Returns once the session knows the plugin's state path (it is installed), or after 10 s."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            session.get("probe.count")
            return
        except Exception:
            time.sleep(0.02)


def register(path, reads=None, subscriptions=("tap",)):
    """RegisterPlugin on the session at `path` from a connection of its own: the answer, printable."""
    connection = open_dbus_connection(bus="SESSION")
    signature, arguments = "ssa(sss)asa{sv}", ("probe", "", [], list(subscriptions), {})
    if reads is not None:
        signature, arguments = signature + "as", (*arguments, reads)
    call = new_method_call(DBusAddress(path, bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1"),
                           "RegisterPlugin", signature, arguments)
    reply = connection.send_and_get_reply(call)
    connection.close()
    return " ".join(str(part) for part in (reply.header.fields.get(4, "ok"), *reply.body[:1]))  # 4: the error name


if MODE == "bad-reads":
    with simulator.session(scenario=SCENE, mode="manual", share=True) as session:
        for reads in [[""], ["."], ["title."], ["nosuch.alpha"], ["password.text.count"], ["password.presentation.text"],
                      ["title.children.count.count.count"], ["probe.k0"], ["title.alpha", "x\nready: forged\x1b[2J"],
                      ["title.alpha\x9b2J"], ["title.alpha\x7f"]]:
            print(json.dumps(reads), register(session.path, reads))
        plugin.reads = ["title.alpha"]
        threading.Thread(target=serve, args=(session.path,), daemon=True).start()
        wait_installed(session)
        session.inject("tap", x=160, y=200)
        print(json.dumps([event.name for event in session.take_events()]))
    sys.exit(0)
if MODE == "bad-subscription":
    with simulator.session(scenario=SCENE, mode="manual", share=True) as session:
        print(register(session.path, [], ["tap\nready: forged\x1b[2J"]))
        session.get("time")  # answered after the installation was tried
        for event in session.take_events():
            print(event.name, json.dumps(event.fields, sort_keys=True))
    sys.exit(0)

with simulator.session(scenario=SCENE, mode="manual", share=True) as session:
    if MODE == "leave":
        if os.fork() == 0:
            serve(session.path)
    else:
        threading.Thread(target=serve, args=(session.path,), daemon=True).start()
    wait_installed(session)
    if MODE == "count":
        session.inject("tap", x=160, y=200)
        session.inject("tap", x=160, y=220)
        for event in session.take_events():
            print(event.name, json.dumps(event.fields, sort_keys=True))
        print("count", session.get("probe.count"))
    elif MODE == "reads":
        session.inject("focus", target="password")
        session.inject("text", target="password", text="hunter2")
        session.inject("tap", x=160, y=200)
        for event in session.take_events():
            if event.name == "probe.read":
                print(event.name, json.dumps(event.fields, sort_keys=True))
        # A sixth argument of another type is no registration.
        connection = open_dbus_connection(bus="SESSION")
        call = new_method_call(DBusAddress(session.path, bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1"),
                               "RegisterPlugin", "ssa(sss)asa{sv}s", ("other", "", [], ["tap"], {}, "password.text"))
        reply = connection.send_and_get_reply(call)
        print(reply.header.fields.get(4), reply.body[0])  # 4: the error name
    elif MODE == "leave":
        session.inject("tap", x=160, y=200)
        failed = [event.fields for event in session.take_events() if event.name == "plugin.failed"]
        print("failed", json.dumps(failed, sort_keys=True))
    elif MODE == "slow":
        other = rehearse.Simulator().session(scenario=SCENE, mode="manual")
        slow = threading.Thread(target=lambda: session.inject("tap", x=160, y=200))
        slow.start()
        time.sleep(0.2)
        other.inject("tap", x=160, y=200)
        # The slow session's call cannot return before its 1 s deadline: still waiting, it did not
        # hold the other session up.
        print("other session", "answered while the slow one waited" if slow.is_alive() else "answered after the slow one")
        slow.join()
        failed = [event.fields for event in session.take_events() if event.name == "plugin.failed"]
        print("slow session failed", json.dumps(failed, sort_keys=True))
