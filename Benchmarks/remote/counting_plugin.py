"""The Python twin of the C CountingPlugin that RemotePluginBenchmarks starts, on the repository's
`rehearse.plugin` module (jeepney): subscribes to the events named in its arguments
(`counting_plugin.py tick`), answers every Deliver with no effects and its state {deliveries}, the
deliveries since the last Install.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from rehearse.plugin import Plugin  # noqa: E402  (found through the path above)

plugin = Plugin("counter", summary="counts the events it subscribed to, with no effects")


@plugin.on_install
def start(config, state):
    state["deliveries"] = 0


@plugin.on(*sys.argv[1:])
def count(event, state, config):
    state["deliveries"] += 1


if __name__ == "__main__":
    plugin.run()
