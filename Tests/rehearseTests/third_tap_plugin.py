"""A remote plugin with a bug for `rehearse explore` to find: the third tap hides the title
(alpha 0), which a scenario's invariant forbids. Written with `rehearse.plugin` (clients/python)."""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from rehearse.plugin import Plugin, set_value  # noqa: E402

plugin = Plugin("third-tap", summary="hides the title on the third tap")


@plugin.on_install
def start(config, state):
    state["taps"] = 0


@plugin.on("tap")
def tap(event, state, config):
    state["taps"] += 1
    return [set_value("title.alpha", 0)] if state["taps"] == 3 else None


if __name__ == "__main__":
    plugin.run()
