"""Write a Rehearse plugin in Python: the plugin side of docs/remote-plugins.md, on jeepney.

A plugin is a `Plugin` with handlers. Each handler gets what happened, the plugin's state (a dict
it changes in place) and its configuration (a dict), and returns the effects it wants, in order:

    from rehearse.plugin import Plugin, emit, animate

    plugin = Plugin("undo-shake", summary="asks to undo on a shake",
                    events=[("undo.requested", "magnitude", "the device was shaken hard enough")],
                    configuration={"threshold": 2.0})

    @plugin.on_install
    def start(config, state):
        state["shakes"] = 0

    @plugin.on("motion")
    def motion(event, state, config):
        a = event["userAcceleration"]
        ...
        return [emit("undo.requested", magnitude=m), animate(0.2, {"title.alpha": 0.5})]

    if __name__ == "__main__":
        plugin.run()

`rehearse run` starts the file from a scenario's `plugins:` entry (`command: [python3, file.py]`);
`plugin.run()` connects to the address it was given, registers, answers until the run ends and
returns. The same handlers run without Rehearse too: `plugin.install()`, `plugin.deliver(...)` and
`plugin.wake(...)` are the protocol's three methods as Python calls, for unit tests of a plugin,
and `run_scenario` runs a scenario file with the real `rehearse` for end-to-end ones.

A plugin that reads the scene declares the paths (`Plugin(..., reads=["list.contentInset.top"])`;
a scenario's `reads:` adds more) and reads their values, as they were when the call was made, with
`plugin.read(path)` in any handler; secure text reads as `<redacted>`.

Values cross D-Bus as `rehearse.values` says: each Python type as its D-Bus type, and back.
"""
from __future__ import annotations

import json
import math
import numbers
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import count
from types import TracebackType
from typing import Any, ClassVar, NamedTuple, Union

from jeepney import Endianness, Header, HeaderFields, Message, MessageFlag, MessageType, Parser
from jeepney import DBusAddress, new_error, new_method_call, new_method_return
from jeepney.bus import get_connectable_addresses
from jeepney.io.blocking import prep_socket

from .event import Event
from .values import Fields, from_dbus, to_fields, to_variant

__all__ = [
    "Plugin", "Event", "Wake", "Answer", "Effect",
    "emit", "set_value", "animate", "activate", "schedule", "target_offset",
    "to_variant", "to_fields", "from_dbus",
    "PeerConnection", "peer_method_call", "RegistrationRefused", "ScenarioRun", "run_scenario",
]

PLUGIN_PATH = "/org/rehearse/Plugin"
PLUGIN_INTERFACE = "org.rehearse.Plugin1"
HOST_PATH = "/org/rehearse/Simulator"
HOST_INTERFACE = "org.rehearse.PluginHost1"
SERVICE_NAME = "org.rehearse.Simulator"
SIMULATOR_INTERFACE = "org.rehearse.Simulator1"
PLUGIN_ERROR = "org.rehearse.Plugin.Error"
"""The error name of a reply to a call whose handler raised; the message is the exception."""
ANSWER_SIGNATURE = "a(sa{sv})a{sv}"
REGISTRATION_SIGNATURE = "ssa(sss)asa{sv}"
"""`RegisterPlugin`'s arguments; a plugin with `reads` adds `as` (and each `Deliver` and `Wake` an `a{sv}`)."""
CURVES = ("linear", "easeIn", "easeOut", "easeInEaseOut", "default", "keyboard")
"""The curves an `animate` effect may name."""

_INTROSPECTION = f"""<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<node>
  <interface name="{PLUGIN_INTERFACE}">
    <method name="Install"><arg name="configuration" type="a{{sv}}" direction="in"/>
      <arg name="effects" type="a(sa{{sv}})" direction="out"/><arg name="state" type="a{{sv}}" direction="out"/></method>
    <method name="Deliver"><arg name="sequence" type="t" direction="in"/><arg name="time" type="d" direction="in"/>
      <arg name="name" type="s" direction="in"/><arg name="fields" type="a{{sv}}" direction="in"/>
      <arg name="effects" type="a(sa{{sv}})" direction="out"/><arg name="state" type="a{{sv}}" direction="out"/></method>
    <method name="Wake"><arg name="tag" type="s" direction="in"/><arg name="time" type="d" direction="in"/>
      <arg name="details" type="a{{sv}}" direction="in"/>
      <arg name="effects" type="a(sa{{sv}})" direction="out"/><arg name="state" type="a{{sv}}" direction="out"/></method>
  </interface>
  <interface name="org.freedesktop.DBus.Introspectable">
    <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
  </interface>
  <interface name="org.freedesktop.DBus.Peer">
    <method name="Ping"/>
  </interface>
</node>
"""


# MARK: Effects

@dataclass(frozen=True)
class Effect:
    """One thing a plugin asks the simulation to do: `kind` and its `arguments`, as Python values.
    Build them with `emit`, `set_value`, `animate`, `activate`, `schedule` and `target_offset`; they compare equal
    when they ask for the same thing, so a test can assert on a handler's answer."""
    kind: str
    arguments: dict[str, Any]

    _SIGNATURES: ClassVar[dict[str, dict[str, str]]] = {
        "emit": {"name": "s", "fields": "a{sv}"},
        "set": {"path": "s", "value": "v"},
        "animate": {"duration": "d", "changes": "a{sv}", "delay": "d", "curve": "s", "completion": "s"},
        "activate": {"sets": "as"},
        "schedule": {"after": "d", "tag": "s"},
        "target-offset": {"target": "s", "offset": "a{sv}"},
    }

    def encode(self, where: str = "effect") -> tuple[str, Fields]:
        """The effect as the protocol's `(sa{sv})`, each argument with the type its table gives."""
        signatures = self._SIGNATURES[self.kind]
        arguments: Fields = {}
        for name, value in self.arguments.items():
            if value is None:
                continue
            signature = signatures[name]
            if signature == "v":
                arguments[name] = to_variant(value, f"{where} {self.kind} {name}")
            elif signature == "a{sv}":
                arguments[name] = ("a{sv}", to_fields(value, f"{where} {self.kind} {name}"))
            elif signature == "d":
                arguments[name] = ("d", float(value))
            else:
                arguments[name] = (signature, value)
        return (self.kind, arguments)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{what} must be a non-empty str, not {value!r}")
    return value


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= float(value) < math.inf:
        raise TypeError(f"{what} must be a number of seconds, 0 or more, not {value!r}")
    return float(value)


def emit(name: str, fields: Mapping[str, object] | None = None, /, **more: object) -> Effect:
    """Publishes event `name` after the current one: `emit("undo.requested", magnitude=2.5)`, or
    with a dict for keys that are not Python names (`emit("x", {"from": "a"})`); both merge."""
    fields = {**(fields or {}), **more}
    to_fields(fields, f"emit {name}: fields")
    return Effect("emit", {"name": _text(name, "emit: the event's name"), "fields": fields})


def set_value(path: str, value: object) -> Effect:
    """Sets a scene path at once, as a scenario's `set:` step: `set_value("title.alpha", 0.5)`."""
    to_variant(value, f"set_value {path}: the value")
    return Effect("set", {"path": _text(path, "set_value: the path"), "value": value})


def animate(duration: float, changes: Mapping[str, object], *, delay: float | None = None,
            curve: str | None = None, completion: str | None = None) -> Effect:
    """Animates `changes` (path -> value) in one transaction over `duration` seconds, after `delay`,
    on a named curve (`CURVES`; the default is easeInEaseOut). With `completion`, the plugin's
    `on_wake(completion)` handler runs when the animations end (`wake.finished` is False when one
    was interrupted)."""
    if not isinstance(changes, Mapping) or not changes:
        raise TypeError(f"animate: changes must be a non-empty dict of path -> value, not {changes!r}")
    to_fields(changes, "animate: changes")
    if curve is not None and curve not in CURVES:
        raise ValueError(f"animate: unknown curve {curve!r}; the curves are {', '.join(CURVES)}")
    return Effect("animate", {
        "duration": _seconds(duration, "animate: duration"), "changes": dict(changes),
        "delay": None if delay is None else _seconds(delay, "animate: delay"),
        "curve": curve, "completion": None if completion is None else _text(completion, "animate: completion"),
    })


def activate(*sets: str) -> Effect:
    """Makes exactly these constraint sets active (none: all inactive) and lays the scene out."""
    return Effect("activate", {"sets": [_text(name, "activate: a set's name") for name in sets]})


def schedule(after: float, tag: str) -> Effect:
    """Calls the plugin's `on_wake(tag)` handler `after` seconds of virtual time from now."""
    return Effect("schedule", {"after": _seconds(after, "schedule: after"), "tag": _text(tag, "schedule: tag")})


def target_offset(target: str, x: float, y: float) -> Effect:
    """Makes the scroll view `target`, released just now, come to rest at content offset (x, y), as
    a delegate sets `targetContentOffset` in `scrollViewWillEndDragging`: valid only in the answer
    to `scroll.willEndDragging` (anywhere else it fails the plugin)."""
    offset: dict[str, float] = {}
    for axis, value in (("x", x), ("y", y)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise TypeError(f"target_offset: {axis} must be a finite number, not {value!r}")
        offset[axis] = float(value)
    return Effect("target-offset", {"target": _text(target, "target_offset: the scroll view"), "offset": offset})


# MARK: The plugin

@dataclass(frozen=True)
class Wake:
    """A wake-up: the `tag` of the `schedule` or `animate` effect that asked for it, the virtual time,
    and `details` (`{"finished": bool}` after an animation)."""
    tag: str
    time: float
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool | None:
        """After an animation: whether it ran to its end (False: interrupted); None otherwise."""
        finished: bool | None = self.details.get("finished")
        return finished


class Answer(NamedTuple):
    """What a call answers: the effects, in order, and the plugin's state (its public keys)."""
    effects: list[Effect]
    state: dict[str, Any]


Effects = Union[None, Effect, Iterable[Effect]]
"""What a handler returns: nothing, one effect, or any iterable of them (a list, its own generator)."""
InstallHandler = Callable[[dict[str, Any], dict[str, Any]], Effects]
"""`handler(config, state)`."""
EventHandler = Callable[[Event, dict[str, Any], dict[str, Any]], Effects]
"""`handler(event, state, config)`."""
WakeHandler = Callable[["Wake", dict[str, Any], dict[str, Any]], Effects]
"""`handler(wake, state, config)`."""


class Plugin:
    """A plugin: who it is, the events it defines, its default configuration and its handlers.

    `id` is the name it goes by when it runs on its own; started by Rehearse, it registers under the
    id the scenario gave it. `events` are `(name, fields, summary)` triples, fields written as
    `rehearse events` lists them (`"magnitude, reason?"`). `configuration` holds the defaults; a
    scenario's `configuration:` is laid on top, key by key. `reads` are the scene paths whose
    values come with every call (`read(path)`); given (even empty), the plugin registers with
    them and the scenario may add its own; left out, it registers as before reads existed.

    The state is a dict the handlers change in place. All of it goes back with every answer (it is
    what `expect:` paths and invariants read), except keys starting with `_`, which stay in the
    process: a plugin keeps its private bookkeeping there.
    """

    def __init__(self, id: str, summary: str = "", *, events: Iterable[tuple[str, str, str]] = (),
                 configuration: Mapping[str, object] | None = None, reads: Iterable[str] | None = None) -> None:
        self.id = _text(id, "Plugin: id")
        self.summary = summary
        self.events: list[tuple[str, ...]] = [tuple(event) for event in events]
        for event in self.events:
            if len(event) != 3 or not all(isinstance(part, str) for part in event):
                raise TypeError(f"Plugin: an event is (name, fields, summary), three str, not {event!r}")
        self.configuration: dict[str, Any] = dict(configuration or {})
        to_fields(self.configuration, "Plugin: configuration")
        self.reads: list[str] | None = None if reads is None else [_text(path, "Plugin: a read path") for path in reads]
        self._values: dict[str, Any] = {}
        self._install: list[InstallHandler] = []
        self._events: dict[str, list[EventHandler]] = {}
        self._wakes: dict[str, WakeHandler] = {}
        self._any_wake: WakeHandler | None = None
        self.state: dict[str, Any] | None = None
        self.config: dict[str, Any] | None = None

    # Registering handlers.

    def on_install(self, handler: InstallHandler) -> InstallHandler:
        """Decorates `handler(config, state)`, run by every `Install` on a fresh, empty state:
        sets the state up and may return effects."""
        self._install.append(handler)
        return handler

    def on(self, *names: str) -> Callable[[EventHandler], EventHandler]:
        """Decorates `handler(event, state, config)`, run for each delivered event named one of
        `names`; the plugin subscribes to exactly the names its handlers take."""
        if not names:
            raise TypeError("on: name at least one event")

        def register(handler: EventHandler) -> EventHandler:
            for name in names:
                self._events.setdefault(_text(name, "on: an event's name"), []).append(handler)
            return handler
        return register

    def on_wake(self, *tags: str) -> Callable[[WakeHandler], WakeHandler]:
        """Decorates `handler(wake, state, config)`, run when a `schedule` or an `animate` effect
        with one of these tags comes due; with no tags, for every tag no other handler takes."""
        def register(handler: WakeHandler) -> WakeHandler:
            if not tags:
                self._any_wake = handler
            for tag in tags:
                self._wakes[_text(tag, "on_wake: a tag")] = handler
            return handler
        return register

    @property
    def subscriptions(self) -> list[str]:
        """The event names the handlers take, in the order they were first registered."""
        return list(self._events)

    # The protocol's methods, as Python calls.

    def install(self, configuration: Mapping[str, object] | None = None) -> Answer:
        """A new instance: the defaults with `configuration` on top (a key the defaults lack is
        refused), an empty state, then the install handlers. Returns their `Answer`."""
        given = dict(configuration or {})
        unknown = sorted(set(given) - set(self.configuration))
        if unknown:
            raise ValueError(f"{self.id} has no configuration key {', '.join(map(repr, unknown))}; "
                           f"it has {', '.join(map(repr, self.configuration)) or 'none'}")
        config: dict[str, Any] = {**self.configuration, **given}
        state: dict[str, Any] = {}
        self.config, self.state = config, state
        return self._answer(self._install, (config, state))

    def deliver(self, name: str, fields: Mapping[str, Any] | None = None, *, sequence: int = 0,
                time: float = 0.0, reads: Mapping[str, Any] | None = None) -> Answer:
        """Runs the handlers of event `name` with `fields`, `read(path)` giving `reads`; returns
        their `Answer`."""
        state, config = self._installed("Deliver")
        self._values = dict(reads or {})
        handlers = self._events.get(name)
        if not handlers:
            raise LookupError(f"{self.id} has no handler for event {name!r}; it takes {', '.join(self._events) or 'none'}")
        event = Event(sequence, time, name, dict(fields or {}))
        return self._answer(handlers, (event, state, config))

    def wake(self, tag: str, *, time: float = 0.0, details: Mapping[str, Any] | None = None,
             reads: Mapping[str, Any] | None = None) -> Answer:
        """Runs the wake handler of `tag` (or the catch-all one), `read(path)` giving `reads`;
        returns its `Answer`."""
        state, config = self._installed("Wake")
        self._values = dict(reads or {})
        handler = self._wakes.get(tag, self._any_wake)
        if handler is None:
            raise LookupError(f"{self.id} has no on_wake handler for tag {tag!r}")
        return self._answer([handler], (Wake(tag, time, dict(details or {})), state, config))

    @property
    def values(self) -> dict[str, Any]:
        """The values of the reads when the current call was made, path -> value (a copy)."""
        return dict(self._values)

    def read(self, path: str) -> Any:
        """The value of `path`, one of the reads, when the current call was made. A path that came
        without a value (not declared, or absent now, as `firstResponder` with none) raises
        LookupError."""
        if path not in self._values:
            raise LookupError(f"{self.id}: {path!r} came with no value in this call; it read "
                              f"{', '.join(map(repr, self._values)) or 'nothing'} (declare a path in reads= or the scenario's reads:)")
        return self._values[path]

    def public_state(self) -> dict[str, Any]:
        """The state as it is sent: without the keys starting with `_`."""
        return {key: value for key, value in (self.state or {}).items() if not key.startswith("_")}

    def _installed(self, method: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The state and configuration of the instance `install()` made."""
        if self.state is None or self.config is None:
            raise RuntimeError(f"{method} before Install: call install() first")
        return self.state, self.config

    def _answer(self, handlers: Iterable[Callable[..., Effects]], arguments: tuple[Any, ...]) -> Answer:
        """Runs the handlers in order: their effects, and the state after them."""
        effects: list[Effect] = []
        for handler in handlers:
            effects.extend(_effects(handler, handler(*arguments)))
        state = self.public_state()
        to_fields(state, "state")
        return Answer(effects, state)

    # Running under Rehearse.

    def run(self, address: str | None = None, plugin_id: str | None = None) -> None:
        """Connects to `address` (default: $REHEARSE_PLUGIN_ADDRESS), registers as `plugin_id`
        (default: $REHEARSE_PLUGIN_ID, else `self.id`), answers calls until Rehearse closes the
        connection, and returns. A refused registration exits with status 2 and Rehearse's reason."""
        address = address or os.environ.get("REHEARSE_PLUGIN_ADDRESS")
        if not address:
            raise SystemExit(f"{self.id}: REHEARSE_PLUGIN_ADDRESS is not set; "
                             "Rehearse starts this program from a scenario's plugins: entry (command:)")
        # Standard output goes to Rehearse's standard error: a line at a time, as it is written.
        if hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(line_buffering=True)
        with PeerConnection(address) as connection:
            try:
                self.serve(connection, plugin_id or os.environ.get("REHEARSE_PLUGIN_ID") or self.id)
            except RegistrationRefused as refusal:
                print(f"{self.id}: {refusal}", file=sys.stderr)
                raise SystemExit(2) from refusal

    def serve(self, connection: PeerConnection, plugin_id: str) -> None:
        """Registers as `plugin_id` on `connection` (peer to peer, as `run` connects) and answers
        its calls until it closes. Calls that come before the registration's answer are answered
        at once."""
        self._serve(connection, peer_method_call(HOST_PATH, HOST_INTERFACE, "RegisterPlugin", *self._registration(plugin_id)))

    def serve_session(self, connection: Any, session_path: str, plugin_id: str | None = None) -> None:
        """Registers with the created session at `session_path` of a `rehearse serve` on the bus
        (`connection`: a jeepney blocking connection to that bus, the session's owner, or any
        client of a shared session), and answers its calls until the connection closes. Calls made
        while waiting for answers of one's own would wait for this loop: drive the session from
        another connection. A plugin with `reads` registers with them, as with a command plugin's host."""
        address = DBusAddress(session_path, bus_name=SERVICE_NAME, interface=SIMULATOR_INTERFACE)
        self._serve(connection, new_method_call(address, "RegisterPlugin", *self._registration(plugin_id or self.id)))

    def _registration(self, plugin_id: str) -> tuple[str, tuple[Any, ...]]:
        """`RegisterPlugin`'s signature and arguments: with `reads` last when the plugin has them."""
        arguments = (plugin_id, self.summary, self.events, self.subscriptions, to_fields(self.configuration, "configuration"))
        if self.reads is None:
            return REGISTRATION_SIGNATURE, arguments
        return REGISTRATION_SIGNATURE + "as", (*arguments, self.reads)

    def _serve(self, connection: Any, registration_call: Message) -> None:
        if isinstance(connection, PeerConnection):
            registration = connection.send(registration_call)
        else:  # jeepney's own connection numbers what it sends, and says nothing of it
            registration = next(connection.outgoing_serial)
            connection.send(registration_call, serial=registration)
        while (message := connection.receive()) is not None:
            header = message.header
            if header.message_type is MessageType.method_call:
                reply = self._reply(message)
                if not header.flags & MessageFlag.no_reply_expected:
                    connection.send(reply)
            elif header.fields.get(HeaderFields.reply_serial) == registration:
                if header.message_type is MessageType.error:
                    raise RegistrationRefused(header.fields.get(HeaderFields.error_name), *message.body[:1])

    def _reply(self, call: Message) -> Message:
        """The reply to one method call: the answer, or an error naming what was wrong."""
        fields = call.header.fields
        path, interface, member = (fields.get(HeaderFields.path), fields.get(HeaderFields.interface),
                                   fields.get(HeaderFields.member))
        signature = fields.get(HeaderFields.signature, "")
        if path != PLUGIN_PATH:
            return new_error(call, "org.freedesktop.DBus.Error.UnknownObject", "s", (f"no object at {path}",))
        if member == "Introspect" and interface in (None, "org.freedesktop.DBus.Introspectable"):
            reply: Message = new_method_return(call, "s", (_INTROSPECTION,))
            return reply
        if member == "Ping" and interface in (None, "org.freedesktop.DBus.Peer"):
            pong: Message = new_method_return(call)
            return pong
        expected = {"Install": "a{sv}", "Deliver": "tdsa{sv}", "Wake": "sda{sv}"}.get(member)
        if expected is not None and member != "Install" and self.reads is not None:
            expected += "a{sv}"  # the values of the reads, last
        if expected is None or interface not in (None, PLUGIN_INTERFACE):
            return new_error(call, "org.freedesktop.DBus.Error.UnknownMethod", "s",
                             (f"no method {interface or PLUGIN_INTERFACE}.{member} at {PLUGIN_PATH}",))
        if signature != expected:
            return new_error(call, "org.freedesktop.DBus.Error.InvalidArgs", "s",
                             (f"{member} takes ({expected}), not ({signature})",))
        try:
            arguments = from_dbus(f"({signature})", call.body)
            if member == "Install":
                answer = self.install(*arguments)
            elif member == "Deliver":
                sequence, time, name, event_fields, *reads = arguments
                answer = self.deliver(name, event_fields, sequence=sequence, time=time, reads=reads[0] if reads else None)
            else:
                tag, time, details, *reads = arguments
                answer = self.wake(tag, time=time, details=details, reads=reads[0] if reads else None)
            body = ([effect.encode(f"effect {index}") for index, effect in enumerate(answer.effects)],
                    to_fields(answer.state, "state"))
        except Exception as error:
            traceback.print_exc()
            return new_error(call, PLUGIN_ERROR, "s", (f"{self.id} {member}: {type(error).__name__}: {error}",))
        return new_method_return(call, ANSWER_SIGNATURE, body)


def _effects(handler: Callable[..., Effects], returned: object) -> list[Effect]:
    """A handler's return value as a list of effects: None, one effect, or any iterable of them
    (a list, or the handler's own generator)."""
    if returned is None:
        return []
    if isinstance(returned, Effect):
        return [returned]
    if isinstance(returned, Iterable) and not isinstance(returned, (str, bytes, Mapping)):
        effects = list(returned)
        if all(isinstance(effect, Effect) for effect in effects):
            return effects
    raise TypeError(f"{getattr(handler, '__name__', handler)} returned {returned!r}: "
                    "return a list of effects (emit, set_value, animate, activate, schedule, target_offset) or None")


class RegistrationRefused(Exception):
    """Rehearse refused `RegisterPlugin`: `name` is the error's D-Bus name, `message` its reason."""

    def __init__(self, name: str, message: str = "") -> None:
        super().__init__(f"registration refused: {name}: {message}")
        self.name = name
        self.message = message


# MARK: The connection

def peer_method_call(path: str, interface: str | None, member: str, signature: str | None = None,
                     body: Iterable[Any] = ()) -> Message:
    """A method call to the peer at the other end of the connection: no destination, which
    jeepney's `new_method_call` insists on (on a bus, the destination is a bus name)."""
    fields: dict[Any, Any] = {HeaderFields.path: path, HeaderFields.member: member}
    if interface is not None:
        fields[HeaderFields.interface] = interface
    if signature:
        fields[HeaderFields.signature] = signature
    return Message(Header(Endianness.little, MessageType.method_call, flags=0, protocol_version=1,
                          body_length=-1, serial=-1, fields=fields), tuple(body))


class PeerConnection:
    """A D-Bus connection straight to one peer (a `unix:` address): authenticated with EXTERNAL,
    without the `Hello` a message bus wants, and so without a unique name or a bus daemon."""

    def __init__(self, address: str, timeout: float = 10.0) -> None:
        self.sock = prep_socket(next(get_connectable_addresses(address)), timeout=timeout)
        self._parser = Parser()
        self._serials = count(1)

    def __enter__(self) -> PeerConnection:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def send(self, message: Message) -> int:
        """Sends `message` and returns its serial."""
        serial = next(self._serials)
        self.sock.sendall(message.serialise(serial=serial))
        return serial

    def receive(self) -> Message | None:
        """The next message, waiting for it; None once the peer has closed the connection."""
        message: Message | None
        while (message := self._parser.get_next_message()) is None:
            try:
                data = self.sock.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                return None
            if not data:
                return None
            self._parser.add_data(data)
        return message

    def close(self) -> None:
        """Closes the socket."""
        self.sock.close()


# MARK: Scenarios end to end

@dataclass
class ScenarioRun:
    """What `rehearse run` did with one scenario file: its exit `status` (0 passed, 1 an expectation
    failed, 2 invalid input), the `events` it delivered, in order, its JSON `report`, and what it
    wrote on standard error (the plugins' own output goes there too)."""
    status: int
    events: list[Event]
    report: dict[str, Any]
    errors: str

    @property
    def passed(self) -> bool:
        """Whether every expectation held."""
        return self.status == 0

    def named(self, name: str) -> list[Event]:
        """The delivered events called `name`."""
        return [event for event in self.events if event.name == name]


def run_scenario(path: str | os.PathLike[str], rehearse: str | None = None, timeout: float = 120) -> ScenarioRun:
    """Runs one scenario file with `rehearse run --format json --trace ...` and returns a
    `ScenarioRun`. `rehearse` is the tool to run (default: $REHEARSE, else `rehearse` on the PATH)."""
    tool = rehearse or os.environ.get("REHEARSE") or "rehearse"
    with tempfile.TemporaryDirectory(prefix="rehearse-plugin-") as folder:
        trace = os.path.join(folder, "trace.jsonl")
        result = subprocess.run([tool, "run", os.fspath(path), "--format", "json", "--trace", trace],
                                capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        events: list[Event] = []
        if os.path.exists(trace):
            with open(trace, encoding="utf-8") as lines:
                for line in lines:
                    record = json.loads(line)
                    events.append(Event(record["seq"], record["time"], record["name"], record.get("fields", {})))
    try:
        report: dict[str, Any] = json.loads(result.stdout)
    except json.JSONDecodeError:
        report = {}
    return ScenarioRun(result.returncode, events, report, result.stderr)
