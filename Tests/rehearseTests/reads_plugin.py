"""A remote plugin that reads the scene (docs/remote-plugins.md, "Reads"), written with
`rehearse.plugin` (clients/python), for the tests of what a plugin reads and of `target-offset`.

    python3 reads_plugin.py [PATH ...]

It registers with the reads PATH ... (a number N stands for N paths, `title.frame.x0` on; none:
it still registers with reads, and takes the
scenario's), subscribes to `tap` and `scroll.willEndDragging`, and emits, for each tap and wake, what it read:
`reads.seen {values}`, `values` mapping each path it got to its value. A tap answers with
`target-offset` for `list` (valid only in the answer to `scroll.willEndDragging`, so it fails the
plugin) when the tap's target is `offset-button`, and with `schedule {after: 0.1, tag: later}`
otherwise; the wake answers `target-offset` when the scenario configures `offsetOnWake: true`. A release
of a scroll view answers `target-offset` for the node `offsetTarget` (default `list`) at (0, 100).
"""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from rehearse.plugin import Plugin, emit, schedule, target_offset  # noqa: E402

plugin = Plugin("reads", summary="says what it reads", configuration={"offsetOnWake": False, "offsetTarget": "list"}, reads=[path for word in sys.argv[1:] for path in
                                      ([f"title.frame.x{n}" for n in range(int(word))] if word.isdigit() else [word])],
                events=[("reads.seen", "values", "reads, for each tap and wake: the values it read")])


@plugin.on("tap")
def tap(event, state, config):
    seen = emit("reads.seen", values=plugin.values)
    if event.get("target") == "offset-button":
        return [seen, target_offset("list", 0, 100)]
    return [seen, schedule(0.1, "later")]


@plugin.on_wake("later")
def later(wake, state, config):
    seen = emit("reads.seen", values=plugin.values)
    return [seen, target_offset("list", 0, 100)] if config["offsetOnWake"] else seen


@plugin.on("scroll.willEndDragging")
def released(event, state, config):
    return target_offset(config["offsetTarget"], 0, 100)


if __name__ == "__main__":
    plugin.run()
