"""The client of `rehearse serve`: a connection (`Simulator`) and its sessions (`Session`)."""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

from jeepney import DBusAddress, HeaderFields, MatchRule, Message, MessageType, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

from .event import Event
from .query import Target, target_of, node
from .touches import SWIPE_DURATION, Point, Touch, drag_touches, pinch_touches, swipe_end
from .values import from_dbus, to_fields, to_variant

SERVICE = "org.rehearse.Simulator"
DEFAULT_PATH = "/org/rehearse/Simulator"
INTERFACE = "org.rehearse.Simulator1"


class RehearseError(Exception):
    """An error reply from the service: `name` is its D-Bus error name
    (org.rehearse.Error.UnknownEvent, org.freedesktop.DBus.Error.InvalidArgs, ...)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


class Session:
    """One simulation on the service: the default one, or one of your own from
    `Simulator.session()`. Its `Event` signals are collected from the moment it is opened."""

    def __init__(self, simulator: Simulator, path: str) -> None:
        self.simulator = simulator
        self.path = path
        self._address = DBusAddress(path, bus_name=simulator.name, interface=INTERFACE)
        self._rule = MatchRule(type="signal", interface=INTERFACE, member="Event", path=path)
        # A bus delivers what matches; `serve --listen` sends a peer its sessions' signals and
        # accepts the rule.
        simulator.call(message_bus.AddMatch(self._rule))
        self._filter = simulator.connection.filter(self._rule, bufsize=1_000_000)
        self._events = self._filter.__enter__()

    def call(self, method: str, signature: str | None = None, *arguments: Any) -> tuple[Any, ...]:
        """Calls `method` on this session and returns the reply's arguments, as jeepney reads them."""
        return self.simulator.call(new_method_call(self._address, method, signature, arguments))

    def inject(self, name: str, **fields: object) -> int:
        """Injects the event now; returns its sequence number (0: swallowed)."""
        sequence: int = self.call("Inject", "sa{sv}", name, to_fields(fields))[0]
        return sequence

    def tap(self, id: str | None = None, *, text: str | None = None, label: str | None = None,
            kind: str | None = None, traits: Sequence[str] | None = None, index: int | None = None) -> int:
        """Taps a node by id or by what it shows (`tap(text="Log in")`, `tap(kind="button", index=1)`:
        `rehearse.node`); returns the sequence number. A query that finds no node, or several
        without `index`, raises `RehearseError` named `errors.NODE_NOT_FOUND`."""
        return self.inject("tap", target=node(id, text=text, label=label, kind=kind, traits=traits, index=index))

    def inject_at(self, time: float, name: str, **fields: object) -> int:
        """Injects the event at simulated `time` (seconds)."""
        sequence: int = self.call("InjectAt", "dsa{sv}", float(time), name, to_fields(fields))[0]
        return sequence

    def advance(self, seconds: float) -> float:
        """Moves the clock on (manual and virtual modes); returns the time now."""
        now: float = self.call("Advance", "d", float(seconds))[0]
        return now

    def settle(self, timeout: float = 10.0) -> float:
        """Moves the clock on frame by frame until nothing moves (manual and virtual modes); returns
        the time now. Past `timeout` seconds, a `RehearseError` named `errors.TIMEOUT` says what still moves."""
        now: float = self.call("Settle", "d", float(timeout))[0]
        return now

    def wait_until(self, condition: str, timeout: float = 10.0) -> float:
        """Moves the clock on until `condition` (`PATH OP VALUE`, as invariants write it) holds; returns
        the time now. Past `timeout` seconds, a `RehearseError` named `errors.TIMEOUT` gives both sides."""
        now: float = self.call("WaitUntil", "sd", condition, float(timeout))[0]
        return now

    def get(self, path: str) -> Any:
        """A path's value, as scenario files name them (`title.frame.y`, `keyboard.visible`)."""
        return from_dbus("v", self.call("Get", "s", path)[0])

    def snapshot(self) -> Any:
        """The scene now, as a dict."""
        return json.loads(self.call("Snapshot")[0])

    def load_scenario(self, yaml: str) -> None:
        """Sets the session up from a scenario file's text (device, scene, plugins)."""
        self.call("LoadScenario", "s", yaml)

    def reset(self) -> None:
        """Starts the current set-up over."""
        self.call("Reset")

    def configure(self, plugin: str, **settings: object) -> None:
        """Installs or reconfigures a plugin (the simulation starts over)."""
        self.call("Configure", "sa{sv}", plugin, to_fields(settings))

    def events(self, timeout: float = 1.0) -> Iterator[Event]:
        """The session's delivered events, in order; ends when none comes for `timeout` seconds.
        Events of calls already answered are all in: read them after the calls."""
        while True:
            try:
                # Pops the oldest queued signal, or waits for one: it returns what it popped.
                signal = self.simulator.connection.recv_until_filtered(self._events, timeout=timeout)
            except TimeoutError:
                return
            sequence, time, name, fields = signal.body
            yield Event(sequence, time, name, from_dbus("a{sv}", fields))

    def take_events(self) -> list[Event]:
        """The events delivered so far, without waiting: a round trip makes sure every signal
        sent before it has arrived."""
        self.call("Get", "s", "time")
        return list(self.events(timeout=0))

    def touches(self, events: Sequence[Touch], advance: bool = True) -> None:
        """Injects finger events `(time, phase, finger, x, y)` (`time` in seconds from now, in
        order; `phase` "began", "moved", "ended" or "cancelled"; screen points), as a scenario's
        `touches:` step, and with `advance` moves the clock on to the last one (manual and virtual
        modes; in realtime mode pass `advance=False` and let the clock get there)."""
        start = self.get("time")
        for time, phase, finger, x, y in events:
            self.inject_at(start + time, "touch." + phase, id=finger, x=float(x), y=float(y))
        if advance and events:
            self.advance(events[-1][0])

    def drag(self, start: Point | None = None, end: Point | None = None, duration: float | None = None, hold: float = 0.0,
             rate: int = 60, finger: int = 0, advance: bool = True, *, on: Target | None = None, by: Point | None = None,
             at: Point | None = None, text: str | None = None, label: str | None = None, kind: str | None = None,
             traits: Sequence[str] | None = None, index: int | None = None) -> float | None:
        """A finger down at `start` (x, y), moved to `end` once a display frame (`rate` Hz) over
        `duration` seconds, held still `hold` seconds and lifted: the `drag:` step. It lifts with
        the drag's velocity, or none after a hold of 0.05 s or more.

        Or on a node, `drag(on="list", by=(0, -300))` (or `text=`, `label=`, `kind=`, `traits=`,
        `index=`, or `on=rehearse.node(...)`): from the centre of its visible part (or `at`, a point
        of the node) by `by`, over `duration` (default 0.3 s), as the `drag: {on:}` step does, run by
        the service (`Gesture`); returns the time after it."""
        target = target_of(on, text, label, kind, traits, index)
        if target is not None:
            return self.gesture("drag", on=target, by=by, at=at, duration=duration, hold=hold or None)
        if start is None or end is None or duration is None:
            raise TypeError("drag needs start, end and duration, or a node (on=, text=, ...) and by")
        self.touches(drag_touches(start, end, duration, hold, rate, finger), advance)
        return None

    def swipe(self, start: Point | None = None, direction: str | None = None, distance: float | None = None, rate: int = 60,
              finger: int = 0, advance: bool = True, *, on: Target | None = None, at: Point | None = None,
              text: str | None = None, label: str | None = None, kind: str | None = None, traits: Sequence[str] | None = None,
              index: int | None = None) -> float | None:
        """A drag of `distance` points (default 200) in `direction` ("up", "down", "left", "right")
        over `SWIPE_DURATION`: the `swipe:` step (a `gesture.swipe`, or a fling on a scroll view).
        From `start`, or from a node (`on=`, `text=`, ...; see `drag`) through `Gesture`, returning
        the time after it."""
        target = target_of(on, text, label, kind, traits, index)
        if target is not None:
            return self.gesture("swipe", on=target, direction=direction, distance=distance, at=at)
        if start is None or direction is None:
            raise TypeError("swipe needs start and direction, or a node (on=, text=, ...) and direction")
        self.drag(start, swipe_end(start, direction, 200.0 if distance is None else distance), SWIPE_DURATION, rate=rate,
                  finger=finger, advance=advance)
        return None

    def fling(self, on: Target | None = None, *, velocity: Point, at: Point | None = None, text: str | None = None,
              label: str | None = None, kind: str | None = None, traits: Sequence[str] | None = None,
              index: int | None = None) -> float:
        """A drag from a node that the finger lifts with `velocity` (vx, vy) points per second: a
        scroll view under it is flung with the opposite velocity. The `fling:` step, through
        `Gesture`; returns the time after it."""
        return self.gesture("fling", on=target_of(on, text, label, kind, traits, index), velocity=velocity, at=at)

    def long_press(self, point: Point | None = None, duration: float | None = None, finger: int = 0, advance: bool = True,
                   *, on: Target | None = None, at: Point | None = None, text: str | None = None, label: str | None = None,
                   kind: str | None = None, traits: Sequence[str] | None = None, index: int | None = None) -> float | None:
        """A finger held still at `point` for `duration` seconds: the `long-press:` step. Or on the
        centre of a node's visible part (or `at`, a point of the node; `on=`, `text=`, ...; `duration`
        default 1 s) through `Gesture`, returning the time after it."""
        target = target_of(on, text, label, kind, traits, index)
        if target is not None:
            return self.gesture("long-press", on=target, at=at, duration=duration)
        if point is None or duration is None:
            raise TypeError("long_press needs point and duration, or a node (on=, text=, ...)")
        x, y = point
        self.touches([(0.0, "began", finger, x, y), (duration, "ended", finger, x, y)], advance)
        return None

    def pinch(self, center: Point | None = None, scale: float | None = None, duration: float | None = None, rate: int = 60,
              fingers: tuple[int, int] = (0, 1), advance: bool = True, *, on: Target | None = None, at: Point | None = None,
              text: str | None = None, label: str | None = None, kind: str | None = None, traits: Sequence[str] | None = None,
              index: int | None = None) -> float | None:
        """Two fingers `PINCH_SPAN` points apart across `center`, on a horizontal line, moved to
        `scale` times that over `duration` and lifted: the `pinch:` step. Or across a node's
        visible centre (`on=`, `text=`, ...; `duration` default 0.5 s) through `Gesture`, returning
        the time after it."""
        target = target_of(on, text, label, kind, traits, index)
        if target is not None:
            return self.gesture("pinch", on=target, scale=scale, duration=duration, at=at)
        if center is None or scale is None or duration is None:
            raise TypeError("pinch needs center, scale and duration, or a node (on=, text=, ...) and scale")
        self.touches(pinch_touches(center, scale, duration, rate, fingers), advance)
        return None

    def gesture(self, kind: str, **arguments: object) -> float:
        """`Gesture`: the gesture step `kind` ("drag", "fling", "swipe", "pinch", "long-press") with
        the step's keys (`on` an id or `rehearse.node(...)`, `by`, `velocity`, `direction`, `scale`,
        `at`, `duration`, `hold`, `distance`; None leaves one out), run by the service as the step
        runs, the clock moved on through it (manual and virtual modes); returns the time after it."""
        now: float = self.call("Gesture", "sa{sv}", kind, to_fields(arguments))[0]
        return now

    def is_visible(self, id: str | None = None, *, text: str | None = None, label: str | None = None, kind: str | None = None,
                   traits: Sequence[str] | None = None, index: int | None = None) -> bool:
        """Whether the node is visible now (on screen, not hidden, transparent, clipped away or
        behind the keyboard: the `expect-visible` step's rule); `visibility` says why not."""
        return self.visibility(id, text=text, label=label, kind=kind, traits=traits, index=index)[0]

    def visibility(self, id: str | None = None, *, text: str | None = None, label: str | None = None, kind: str | None = None,
                   traits: Sequence[str] | None = None, index: int | None = None) -> tuple[bool, str]:
        """`IsVisible`: whether the node is visible now, and why not ("clipped away by list (...)")
        or how much of it is ("320 × 44 pt of it at (0, 80), 100 %"). An id the scene does not have
        is not visible; a query that finds no node, or several, raises `errors.NODE_NOT_FOUND`."""
        query = node(id, text=text, label=label, kind=kind, traits=traits, index=index)
        visible, why = self.call("IsVisible", "v", to_variant(query, "query"))
        return bool(visible), str(why)

    def record(self, name: str) -> str:
        """Writes the session's recording, as a scenario file, as `name.yaml` in the folder the
        service records into (`serve --record DIR`); returns the file's path."""
        path: str = self.call("Record", "s", name)[0]
        return path

    def close(self) -> None:
        """Ends a session of your own (the default session lasts as long as the service), and
        stops collecting its events: the bus forgets the match rule, so a client may open any
        number of sessions one after another."""
        self._filter.__exit__(None, None, None)
        try:
            if self.path != DEFAULT_PATH:
                self.call("Close")
        finally:
            self.simulator.call(message_bus.RemoveMatch(self._rule))

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class Simulator:
    """A connection to `rehearse serve`: `bus` is "SESSION", "SYSTEM" or a D-Bus address
    (`unix:path=/tmp/rehearse.sock` for `serve --listen`)."""

    def __init__(self, bus: str = "SESSION", name: str = SERVICE) -> None:
        self.name = name
        self.connection = open_dbus_connection(bus=bus)

    def call(self, message: Message) -> tuple[Any, ...]:
        """Sends a method call and returns its reply's arguments; an error reply raises `RehearseError`."""
        reply = self.connection.send_and_get_reply(message, timeout=30)
        if reply.header.message_type == MessageType.error:
            text = reply.body[0] if reply.body else ""
            raise RehearseError(reply.header.fields[HeaderFields.error_name], text)
        body: tuple[Any, ...] = reply.body
        return body

    def session(self, plugins: Sequence[str] = (), device: str | None = None, scenario: str | None = None,
                mode: str | None = None, share: bool = False) -> Session:
        """A new session of your own: `plugins` (ids) and `device`, or `scenario` (a scenario
        file's text); `mode` "manual", "virtual" or "realtime" (the service's when None). Only
        this connection may call it and get its events, unless `share` is true."""
        setup = to_fields({"share": share or None, "plugins": list(plugins) or None, "device": device,
                           "scenario": scenario, "mode": mode})
        default = DBusAddress(DEFAULT_PATH, bus_name=self.name, interface=INTERFACE)
        path: str = self.call(new_method_call(default, "CreateSession", "a{sv}", (setup,)))[0]
        return Session(self, path)

    def default_session(self) -> Session:
        """The shared default session at /org/rehearse/Simulator."""
        return Session(self, DEFAULT_PATH)

    def close(self) -> None:
        """Closes the connection: the service ends the sessions it created for it."""
        self.connection.close()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
