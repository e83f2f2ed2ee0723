"""undo-shake: shake the phone to undo, as iOS offers "Undo Typing" on a shake.

When a `motion` sample's user acceleration is stronger than `threshold` (in g), the plugin emits
`undo.requested {magnitude}` and dims `node` for a moment as the acknowledgement; one shake
gesture asks once: samples within `cooldown` seconds of a shake are not another one.
Its state is `shakes`, the undos it asked for. c/undo_shake.c is the same plugin in C.

Rehearse starts it from a scenario (undo-shake.yaml). It needs the `rehearse` Python package,
from clients/python in the Rehearse repository: installed (pip), on PYTHONPATH, or found here.
"""
import math
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from rehearse.plugin import Plugin, animate, emit  # noqa: E402

plugin = Plugin(
    "undo-shake", summary="asks to undo when the device is shaken",
    events=[("undo.requested", "magnitude", "undo-shake, when the device is shaken hard enough")],
    configuration={"threshold": 2.0, "cooldown": 1.0, "node": "title"},
)


@plugin.on_install
def start(config, state):
    """No shake yet."""
    state["shakes"] = 0
    state["_quietUntil"] = 0.0


@plugin.on("motion")
def motion(event, state, config):
    """A strong enough sample, outside a shake's cooldown, asks to undo and dims the node."""
    acceleration = event.get("userAcceleration")
    if acceleration is None or event.time < state["_quietUntil"]:
        return None
    magnitude = math.sqrt(acceleration["x"] ** 2 + acceleration["y"] ** 2 + acceleration["z"] ** 2)
    if magnitude <= config["threshold"]:
        return None
    state["shakes"] += 1
    state["_quietUntil"] = event.time + config["cooldown"]
    return [
        emit("undo.requested", magnitude=magnitude),
        animate(0.15, {f"{config['node']}.alpha": 0.3}, curve="easeOut", completion="dimmed"),
    ]


@plugin.on_wake("dimmed")
def undimmed(wake, state, config):
    """Once dimmed, the node comes back."""
    return [animate(0.15, {f"{config['node']}.alpha": 1.0}, curve="easeIn")]


if __name__ == "__main__":
    plugin.run()
