"""A plugin for the module's tests: it keeps what it is given in its state and answers with one
effect of each kind, so a test can check both directions of every value."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from rehearse.plugin import Plugin, activate, animate, emit, schedule, set_value  # noqa: E402

plugin = Plugin("echo", summary="answers with what it was given",
                events=[("echo.said", "what, count?", "echo, for each say event")],
                configuration={"scale": 2.0, "label": "title", "loud": False, "times": 3,
                               "sizes": [1, 2], "names": ["a", "b"]})


@plugin.on_install
def start(config, state):
    """Keeps the configuration it was installed with."""
    state["config"] = dict(config)
    state["delivered"] = 0


@plugin.on("say", "tap")
def say(event, state, config):
    """Keeps the event, and asks for one effect of each kind."""
    state["delivered"] += 1
    state["last"] = {"sequence": event.sequence, "time": event.time, "name": event.name, "fields": event.fields,
                     "types": {key: type(value).__name__ for key, value in event.fields.items()}}
    state["_secret"] = "stays in the process"
    return [
        emit("echo.said", what=event.get("what", ""), count=None),
        set_value(f"{config['label']}.alpha", 0.5),
        animate(1, {f"{config['label']}.frame.y": 70}, curve="easeOut", completion="moved"),
        activate("shown"),
        schedule(0.25, "later"),
    ]


@plugin.on("fail")
def fail(event, state, config):
    """Raises, as a plugin with a bug does."""
    raise ValueError(f"cannot say {event.get('what')!r}")


@plugin.on_wake("later", "moved")
def woke(wake, state, config):
    """Keeps the wake-up it was given; answers with nothing."""
    state["woke"] = {"tag": wake.tag, "time": wake.time, "finished": wake.finished}


if __name__ == "__main__":
    plugin.run()
