"""Drive `rehearse serve` over D-Bus from Python, with jeepney (pure Python: `pip install jeepney`).

A session of your own, in a pytest fixture:

    @pytest.fixture
    def login():
        with rehearse.Simulator().session(plugins=["login-animator"], mode="manual") as session:
            yield session

    def test_title_lifts(login):
        login.inject("tap", target="username")
        login.advance(0.3)
        assert login.get("title.presentation.frame.y") == 70

Each session is a simulation of its own on the service (`CreateSession`): parallel test workers
(pytest-xdist, a CI matrix) do not see each other, and a session ends when its connection closes.
Values go in as Python values (bool, int, float, str, lists, dicts) and come back the same way.
"""
import collections
import json

from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

SERVICE = "org.rehearse.Simulator"
DEFAULT_PATH = "/org/rehearse/Simulator"
INTERFACE = "org.rehearse.Simulator1"

Event = collections.namedtuple("Event", "sequence time name fields")


class RehearseError(Exception):
    """An error reply from the service: `name` is its D-Bus error name
    (org.rehearse.Error.UnknownEvent, org.freedesktop.DBus.Error.InvalidArgs, ...)."""

    def __init__(self, name, message):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def variant(value):
    """A Python value as a D-Bus variant (signature, value), as the service reads `a{sv}`."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        return ("x", value)
    if isinstance(value, float):
        return ("d", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, dict):
        return ("a{sv}", {key: variant(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return ("av", [variant(item) for item in value])
    raise TypeError(f"no D-Bus form for {value!r}")


def plain(value):
    """A value as jeepney decodes it (variants as (signature, value)) as a plain Python value."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return plain(value[1])
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


SWIPE_DURATION = 0.1
"""How long the `swipe:` step and `Session.swipe` take, in seconds."""
PINCH_SPAN = 100.0
"""How far apart a pinch's fingers start, in points."""


def drag_touches(start, end, duration, hold=0.0, rate=60, finger=0):
    """The finger events of a drag, as `Session.touches` takes them: down at `start`, a move on
    each display frame `k / rate` (and at `duration` if that falls between frames) a fraction
    `k / (rate * duration)` of the way, lifted at `end` after `hold`."""
    (x0, y0), (x1, y1) = start, end
    events = [(0.0, "began", finger, x0, y0)]
    frames = int(duration * rate + 1e-9)
    times = [(k / rate, k / (rate * duration)) for k in range(1, frames + 1)]
    if not times or abs(times[-1][0] - duration) > 1e-9:
        times.append((duration, 1.0))
    for time, progress in times:
        events.append((time, "moved", finger, x0 + (x1 - x0) * progress, y0 + (y1 - y0) * progress))
    events.append((duration + hold, "ended", finger, x1, y1))
    return events


class Session:
    """One simulation on the service: the default one, or one of your own from
    `Simulator.session()`. Its `Event` signals are collected from the moment it is opened."""

    def __init__(self, simulator, path):
        self.simulator = simulator
        self.path = path
        self._address = DBusAddress(path, bus_name=simulator.name, interface=INTERFACE)
        self._rule = MatchRule(type="signal", interface=INTERFACE, member="Event", path=path)
        # A bus delivers what matches; `serve --listen` sends a peer its sessions' signals and
        # accepts the rule.
        simulator.call(message_bus.AddMatch(self._rule))
        self._filter = simulator.connection.filter(self._rule, bufsize=1_000_000)
        self._events = self._filter.__enter__()

    def call(self, method, signature=None, *arguments):
        """Calls `method` on this session and returns the reply's arguments."""
        return self.simulator.call(new_method_call(self._address, method, signature, arguments))

    def inject(self, name, **fields):
        """Injects the event now; returns its sequence number (0: swallowed)."""
        return self.call("Inject", "sa{sv}", name, {key: variant(value) for key, value in fields.items()})[0]

    def inject_at(self, time, name, **fields):
        """Injects the event at simulated `time` (seconds)."""
        return self.call("InjectAt", "dsa{sv}", float(time), name, {key: variant(value) for key, value in fields.items()})[0]

    def advance(self, seconds):
        """Moves the clock on (manual and virtual modes); returns the time now."""
        return self.call("Advance", "d", float(seconds))[0]

    def get(self, path):
        """A path's value, as scenario files name them (`title.frame.y`, `keyboard.visible`)."""
        return plain(self.call("Get", "s", path)[0])

    def snapshot(self):
        """The scene now, as a dict."""
        return json.loads(self.call("Snapshot")[0])

    def load_scenario(self, yaml):
        """Sets the session up from a scenario file's text (device, scene, plugins)."""
        self.call("LoadScenario", "s", yaml)

    def reset(self):
        """Starts the current set-up over."""
        self.call("Reset")

    def configure(self, plugin, **settings):
        """Installs or reconfigures a plugin (the simulation starts over)."""
        self.call("Configure", "sa{sv}", plugin, {key: variant(value) for key, value in settings.items()})

    def events(self, timeout=1.0):
        """The session's delivered events, in order, as `Event(sequence, time, name, fields)`;
        ends when none comes for `timeout` seconds. Events of calls already answered are all
        in: read them after the calls."""
        while True:
            try:
                # Pops the oldest queued signal, or waits for one: it returns what it popped.
                signal = self.simulator.connection.recv_until_filtered(self._events, timeout=timeout)
            except TimeoutError:
                return
            sequence, time, name, fields = signal.body
            yield Event(sequence, time, name, plain(fields))

    def take_events(self):
        """The events delivered so far, without waiting: a round trip makes sure every signal
        sent before it has arrived."""
        self.call("Get", "s", "time")
        return list(self.events(timeout=0))

    def touches(self, events, advance=True):
        """Injects finger events `(time, phase, finger, x, y)` (`time` in seconds from now, in
        order; `phase` "began", "moved", "ended" or "cancelled"; screen points), as a scenario's
        `touches:` step, and with `advance` moves the clock on to the last one (manual and virtual
        modes; in realtime mode pass `advance=False` and let the clock get there)."""
        start = self.get("time")
        for time, phase, finger, x, y in events:
            self.inject_at(start + time, "touch." + phase, id=finger, x=float(x), y=float(y))
        if advance and events:
            self.advance(events[-1][0])

    def drag(self, start, end, duration, hold=0.0, rate=60, finger=0, advance=True):
        """A finger down at `start` (x, y), moved to `end` once a display frame (`rate` Hz) over
        `duration` seconds, held still `hold` seconds and lifted: the `drag:` step. It lifts with
        the drag's velocity, or none after a hold of 0.05 s or more."""
        self.touches(drag_touches(start, end, duration, hold, rate, finger), advance)

    def swipe(self, start, direction, distance=200.0, rate=60, finger=0, advance=True):
        """A drag of `distance` points in `direction` ("up", "down", "left", "right") over 0.1 s:
        the `swipe:` step (a `gesture.swipe`, or a fling on a scroll view)."""
        step = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
        end = (start[0] + step[0] * distance, start[1] + step[1] * distance)
        self.drag(start, end, SWIPE_DURATION, rate=rate, finger=finger, advance=advance)

    def long_press(self, point, duration, finger=0, advance=True):
        """A finger held still at `point` for `duration` seconds: the `long-press:` step."""
        self.touches([(0.0, "began", finger, *point), (duration, "ended", finger, *point)], advance)

    def pinch(self, center, scale, duration, rate=60, fingers=(0, 1), advance=True):
        """Two fingers 100 points apart across `center`, on a horizontal line, moved to `scale`
        times that over `duration` and lifted: the `pinch:` step."""
        x, y = center
        start, end = PINCH_SPAN / 2, PINCH_SPAN * scale / 2
        left = drag_touches((x - start, y), (x - end, y), duration, 0.0, rate, fingers[0])
        right = drag_touches((x + start, y), (x + end, y), duration, 0.0, rate, fingers[1])
        self.touches([event for pair in zip(left, right) for event in pair], advance)

    def record(self, name):
        """Writes the session's recording, as a scenario file, as `name.yaml` in the folder the
        service records into (`serve --record DIR`); returns the file's path."""
        return self.call("Record", "s", name)[0]

    def close(self):
        """Ends a session of your own (the default session lasts as long as the service), and
        stops collecting its events: the bus forgets the match rule, so a client may open any
        number of sessions one after another."""
        self._filter.__exit__(None, None, None)
        try:
            if self.path != DEFAULT_PATH:
                self.call("Close")
        finally:
            self.simulator.call(message_bus.RemoveMatch(self._rule))

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


class Simulator:
    """A connection to `rehearse serve`: `bus` is "SESSION", "SYSTEM" or a D-Bus address
    (`unix:path=/tmp/rehearse.sock` for `serve --listen`)."""

    def __init__(self, bus="SESSION", name=SERVICE):
        self.name = name
        self.connection = open_dbus_connection(bus=bus)

    def call(self, message):
        reply = self.connection.send_and_get_reply(message, timeout=30)
        if reply.header.message_type == MessageType.error:
            message = reply.body[0] if reply.body else ""
            raise RehearseError(reply.header.fields[HeaderFields.error_name], message)
        return reply.body

    def session(self, plugins=(), device=None, scenario=None, mode=None, share=False):
        """A new session of your own: `plugins` (ids) and `device`, or `scenario` (a scenario
        file's text); `mode` "manual", "virtual" or "realtime" (the service's when None). Only
        this connection may call it and get its events, unless `share` is true."""
        setup = {}
        if share:
            setup["share"] = ("b", True)
        if plugins:
            setup["plugins"] = ("as", list(plugins))
        if device is not None:
            setup["device"] = ("s", device)
        if scenario is not None:
            setup["scenario"] = ("s", scenario)
        if mode is not None:
            setup["mode"] = ("s", mode)
        default = DBusAddress(DEFAULT_PATH, bus_name=self.name, interface=INTERFACE)
        path = self.call(new_method_call(default, "CreateSession", "a{sv}", (setup,)))[0]
        return Session(self, path)

    def default_session(self):
        """The shared default session at /org/rehearse/Simulator."""
        return Session(self, DEFAULT_PATH)

    def close(self):
        self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()
