"""pull-to-refresh: a list pulled down far enough stays open while it refreshes, as UIKit's
UIRefreshControl holds it.

When the finger lets go of `list` (`scroll.willEndDragging`) pulled at least `threshold` points
past its resting offset, the plugin adds `height` to the list's top content inset and sets the
target content offset so the content comes to rest `height` points further down (the `target-offset`
effect, a delegate's `targetContentOffset`), and emits `refresh.began {pulled}`. After `duration`
seconds the refresh ends: the inset and the offset go back over 0.3 s and `refresh.ended
{refreshes}` is emitted. It reads the list's `contentInset.top` and `contentOffset.y` from the scene
(`reads`), so a list under a navigation bar (an inset of 64) rests at -64 and is held at -124.
Its state is `refreshing` and `refreshes`. PullToRefresh in Tests/RehearseDBusTests is the same
plugin in Swift, and gives the same trace.

Rehearse starts it from a scenario (pull-to-refresh.yaml). It needs the `rehearse` Python package,
from clients/python in the Rehearse repository: installed (pip), on PYTHONPATH, or found here.
"""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from rehearse.plugin import Plugin, animate, emit, schedule, set_value, target_offset  # noqa: E402

INSET, OFFSET = "list.contentInset.top", "list.contentOffset.y"

plugin = Plugin(
    "pull-to-refresh", summary="holds a list pulled down far enough open while it refreshes",
    events=[("refresh.began", "pulled", "pull-to-refresh, when a pull starts a refresh"),
            ("refresh.ended", "refreshes", "pull-to-refresh, when a refresh ends")],
    configuration={"threshold": 60.0, "height": 60.0, "duration": 3.0},
    reads=[INSET, OFFSET],
)


@plugin.on_install
def start(config, state):
    """Not refreshing."""
    state["refreshing"] = False
    state["refreshes"] = 0


@plugin.on("scroll.willEndDragging")
def released(event, state, config):
    """A release far enough past the resting offset starts a refresh and holds the content open."""
    top = plugin.read(INSET)
    pulled = -plugin.read(OFFSET) - top
    if event["target"] != "list" or state["refreshing"] or pulled < config["threshold"]:
        return None
    state["refreshing"] = True
    state["_top"] = top
    return [
        set_value(INSET, top + config["height"]),
        target_offset("list", event["targetContentOffset"]["x"], -(top + config["height"])),
        emit("refresh.began", pulled=pulled),
        schedule(config["duration"], "refreshed"),
    ]


@plugin.on_wake("refreshed")
def refreshed(wake, state, config):
    """The refresh is over: the content goes back to its resting offset."""
    state["refreshing"] = False
    state["refreshes"] += 1
    top = state["_top"]
    return [
        animate(0.3, {INSET: top, OFFSET: -top}),
        emit("refresh.ended", refreshes=state["refreshes"]),
    ]


if __name__ == "__main__":
    plugin.run()
