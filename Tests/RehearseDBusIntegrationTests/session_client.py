#!/usr/bin/env python3
"""Sessions of `rehearse serve` driven through the shipped Python client (the `rehearse`
package in clients/python, on jeepney). Run by SessionTests with DBUS_SESSION_BUS_ADDRESS set to a private bus, or with a
peer address as the last argument.

  trace KIND     create a session for KIND (login or panner), drive it, print its events
  create         create a session, print its path, and leave (the session should go with us)
  record SCENARIO SEED
                 a realtime session set up from SCENARIO gets seeded random injections at random
                 moments; then it is closed; prints its events as JSON lines (what a replay's
                 trace must say)
  caps           one client creates sessions until refused; then seven more clients create eight
                 each, and one more is refused: prints the counts and the refusals
  intrude SHARE  a session (shared if SHARE is "shared") is driven by its owner while another
                 connection calls each method on it, introspects and listens to every signal;
                 prints what the intruder got
  stream         a session is driven, then its events read as a stream (no round trip first)
                 and, from a second session driven the same way, after a round trip: prints both
  names          two clients' sessions each call Record with the same names, one after the other;
                 then the first session is closed and the second records its name again; prints
                 how each was answered
  many COUNT     opens and closes COUNT sessions one after another on one connection
  close SCENARIO ROUNDS
                 ROUNDS times: a realtime session set up from SCENARIO gets taps, Close and
                 calls after it, sent without waiting; prints how each kind of call was answered
"""
import collections
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "clients", "python"))
import rehearse  # noqa: E402
from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus, new_method_call  # noqa: E402

# What each kind of session gets, and the calls that drive it.
KINDS = {
    "login": (["login-animator"], [
        ("inject", ("tap",), {"target": "username"}),
        ("advance", (0.3,), {}),
        ("inject", ("text",), {"target": "username", "text": "vijay"}),
        ("inject", ("return",), {"target": "username"}),
        ("advance", (0.5,), {}),
    ]),
    "panner": (["panner"], [
        ("inject", ("motion",), {"rotationRate": {"x": 0.0, "y": 0.8, "z": 0.0}}),
        ("advance", (0.25,), {}),
        ("inject", ("motion",), {"rotationRate": {"x": 0.0, "y": -0.4, "z": 0.0}}),
        ("advance", (0.25,), {}),
    ]),
}


def trace(simulator, kind):
    plugins, calls = KINDS[kind]
    with simulator.session(plugins=plugins, mode="manual") as session:
        for method, arguments, fields in calls:
            getattr(session, method)(*arguments, **fields)
        for event in session.take_events():
            print(event.sequence, f"{event.time:.6f}", event.name, json.dumps(event.fields, sort_keys=True))


def caps(simulator, bus):
    first = []
    try:
        while True:
            first.append(simulator.session())
    except rehearse.RehearseError as error:
        refused = error.message
    others = [rehearse.Simulator(bus) for _ in range(7)]
    held = [client.session() for client in others for _ in range(8)]
    try:
        rehearse.Simulator(bus).session()
        last = "created"
    except rehearse.RehearseError as error:
        last = error.message
    paths = [session.path for session in first + held]
    print(json.dumps({"first": len(first), "refused": refused, "others": len(held), "last": last,
                      "distinct": len(set(paths)) == len(paths)}))


def outcome(call):
    try:
        call()
        return "answered"
    except rehearse.RehearseError as error:
        return error.name


def intrude(simulator, bus, shared):
    session = simulator.session(plugins=["login-animator"], mode="manual", share=shared)
    intruder = rehearse.Simulator(bus)
    everything = MatchRule(type="signal")
    intruder.call(message_bus.AddMatch(everything))
    heard = intruder.connection.filter(everything, bufsize=100_000).__enter__()
    session.inject("tap", target="username")
    session.advance(0.5)
    owned = len(session.take_events())
    stolen = rehearse.Session.__new__(rehearse.Session)
    stolen.simulator, stolen.path, stolen._address = intruder, session.path, session._address
    got = {
        "Get": outcome(lambda: stolen.get("username.text")),
        "Inject": outcome(lambda: stolen.inject("text", target="username", text="intruder")),
        "Record": outcome(lambda: stolen.record("stolen")),
        "Introspect": outcome(lambda: intruder.call(new_method_call(
            DBusAddress(session.path, bus_name=rehearse.SERVICE, interface="org.freedesktop.DBus.Introspectable"),
            "Introspect"))),
    }
    if not shared:
        got["Close"] = outcome(lambda: stolen.call("Close"))
    tree = intruder.call(new_method_call(
        DBusAddress("/org/rehearse/Simulator/sessions", bus_name=rehearse.SERVICE,
                    interface="org.freedesktop.DBus.Introspectable"), "Introspect"))[0]
    intruder.call(new_method_call(DBusAddress(rehearse.DEFAULT_PATH, bus_name=rehearse.SERVICE,
                                              interface=rehearse.INTERFACE), "Get", "s", ("time",)))
    while True:
        try:
            intruder.connection.recv_messages(timeout=0.2)
        except TimeoutError:
            break
    overheard = sum(1 for message in heard if message.header.fields.get(HeaderFields.path) == session.path)
    got.update({"listed": session.path.rsplit("/", 1)[-1] in tree, "overheard": overheard, "owner heard": owned > 0,
                "owner's text": session.get("username.text")})
    print(json.dumps(got, sort_keys=True))


def names(simulator, bus):
    """Session A, then session B (another client's), record under each name: a name that is no
    plain file name is refused to both alike, and a good one is A's only, until A is closed."""
    first = simulator.session(mode="manual")
    second = rehearse.Simulator(bus).session(mode="manual")
    got = {}
    for name in ("../escape", "a/b", ".hidden", "kept"):
        got[name] = [outcome(lambda: session.record(name)) for session in (first, second)]
    first.close()
    got["kept, once A is closed"] = [outcome(lambda: second.record("kept"))]
    print(json.dumps(got))


def drive(session):
    session.inject("tap", target="username")
    session.advance(0.5)
    session.inject("text", target="username", text="vijay")
    session.inject("return", target="username")
    session.advance(0.5)


def stream(simulator):
    with simulator.session(plugins=["login-animator"], mode="manual") as streamed:
        drive(streamed)
        names = [event.name for event in streamed.events(timeout=0.5)]
    with simulator.session(plugins=["login-animator"], mode="manual") as checked:
        drive(checked)
        expected = [event.name for event in checked.take_events()]
    print(json.dumps({"streamed": names, "after a round trip": expected}))


def many(simulator, count):
    for _ in range(count):
        simulator.session().close()
    print(f"{count} sessions opened and closed")


def random_injection(rng):
    """One injection a user might make at any moment: a tap anywhere, a tilt, the network, a turn."""
    kind = rng.choice(["tap", "tap", "motion", "motion", "network", "orientation", "resign"])
    if kind == "tap":
        return kind, {"x": rng.uniform(0, 320), "y": rng.uniform(0, 568)}
    if kind == "motion":
        return kind, {"rotationRate": {axis: rng.uniform(-2, 2) for axis in "xyz"}}
    if kind == "network":
        return kind, {"online": rng.random() < 0.5}
    if kind == "orientation":
        return kind, {"value": rng.choice(["portrait", "landscapeLeft", "portrait", "landscapeRight"])}
    return kind, {}


def record(simulator, scenario, seed):
    rng = random.Random(int(seed))
    with open(scenario) as file:
        session = simulator.session(scenario=file.read(), mode="realtime")
    for _ in range(40):
        time.sleep(rng.uniform(0, 0.03))
        name, fields = random_injection(rng)
        session.inject(name, **fields)
    session.call("Close")  # the events of everything before it come before its reply
    for event in session.events(timeout=0.5):
        print(json.dumps({"seq": event.sequence, "time": event.time, "name": event.name, "fields": event.fields},
                         sort_keys=True))


def close(simulator, scenario, rounds):
    """Pipelines 3 taps, Close and 3 Gets on fresh realtime sessions: the connection thread may
    see the Close while the session's thread is still answering it, and the Gets may still wait in
    the session's queue when it ends; every call must be answered all the same."""
    with open(scenario) as file:
        text = file.read()
    connection = simulator.connection
    answers = collections.Counter()
    for _ in range(int(rounds)):
        session = simulator.session(scenario=text, mode="realtime")
        calls = [("Inject", "sa{sv}", ("tap", {"x": ("d", 100.0), "y": ("d", 200.0)}))] * 3 + [("Close", None, ())] \
            + [("Get", "s", ("time",))] * 3
        serials = {}
        for method, signature, arguments in calls:
            serial = next(connection.outgoing_serial)
            connection.send(new_method_call(session._address, method, signature, arguments), serial=serial)
            serials[serial] = method
        while serials:
            try:
                reply = connection.receive(timeout=5)
            except TimeoutError:
                answers.update(f"{method}: no answer" for method in serials.values())
                break
            method = serials.pop(reply.header.fields.get(HeaderFields.reply_serial), None)
            if method is not None:
                answers[f"{method}: {reply.header.fields.get(HeaderFields.error_name, 'answered')}"] += 1
    print(json.dumps(answers, sort_keys=True))


def main():
    command = sys.argv[1]
    bus = sys.argv[-1] if sys.argv[-1].startswith("unix:") else "SESSION"
    simulator = rehearse.Simulator(bus)
    if command == "trace":
        trace(simulator, sys.argv[2])
    elif command == "create":
        print(simulator.session(mode="manual").path)
    elif command == "caps":
        caps(simulator, bus)
    elif command == "intrude":
        intrude(simulator, bus, sys.argv[2] == "shared")
    elif command == "stream":
        stream(simulator)
    elif command == "names":
        names(simulator, bus)
    elif command == "many":
        many(simulator, int(sys.argv[2]))
    elif command == "record":
        record(simulator, sys.argv[2], sys.argv[3])
    elif command == "close":
        close(simulator, sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
