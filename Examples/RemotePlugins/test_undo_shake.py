"""Tests of the undo-shake plugin, as its author writes them: the handlers in process (no Rehearse,
no D-Bus: `plugin.install`, `plugin.deliver` and `plugin.wake`), and its scenario end to end with the
real `rehearse run`.

Run: python3 -m unittest discover -s Examples/RemotePlugins
(the end-to-end test runs $REHEARSE, else the checkout's .build/debug/rehearse)
"""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from undo_shake import plugin  # noqa: E402  (it finds the rehearse package for us)
from rehearse.plugin import animate, emit, run_scenario  # noqa: E402

AT_REST = {"x": 0.0, "y": 0.0, "z": 0.0}


def shake(x, y=0.0, z=0.0):
    return {"rotationRate": AT_REST, "userAcceleration": {"x": x, "y": y, "z": z}}


class UndoShakeTests(unittest.TestCase):
    def setUp(self):
        self.assertEqual(plugin.install({"threshold": 2}).state, {"shakes": 0})

    def test_a_gentle_move_is_not_a_shake(self):
        self.assertEqual(plugin.deliver("motion", shake(1.2, 0.5), time=0.0), ([], {"shakes": 0}))
        self.assertEqual(plugin.deliver("motion", {"rotationRate": AT_REST}, time=0.1), ([], {"shakes": 0}))

    def test_a_shake_asks_to_undo_and_dims_the_title_once_per_cooldown(self):
        effects, state = plugin.deliver("motion", shake(2.4, -1.0, 0.7), time=0.1)
        self.assertEqual(effects, [emit("undo.requested", magnitude=math.sqrt(7.25)),
                                   animate(0.15, {"title.alpha": 0.3}, curve="easeOut", completion="dimmed")])
        self.assertEqual(state, {"shakes": 1})
        self.assertEqual(plugin.deliver("motion", shake(-2.6), time=1.0).effects, [])
        self.assertEqual(plugin.deliver("motion", shake(-2.6), time=1.1).state, {"shakes": 2})

    def test_the_title_comes_back_when_dimmed(self):
        self.assertEqual(plugin.wake("dimmed", time=0.25, details={"finished": True}).effects,
                         [animate(0.15, {"title.alpha": 1.0}, curve="easeIn")])

    def test_the_node_is_configurable(self):
        plugin.install({"node": "username"})
        self.assertEqual(plugin.deliver("motion", shake(0, 0, 3)).effects[1].arguments["changes"], {"username.alpha": 0.3})


def find_rehearse():
    built = os.path.join(HERE, "..", "..", ".build", "debug", "rehearse")
    return os.environ.get("REHEARSE") or (built if os.access(built, os.X_OK) else None)


@unittest.skipUnless(find_rehearse(), "no rehearse tool: set REHEARSE or run swift build")
class UndoShakeScenarioTests(unittest.TestCase):
    def test_the_scenario_passes(self):
        run = run_scenario(os.path.join(HERE, "undo-shake.yaml"), rehearse=find_rehearse())
        self.assertTrue(run.passed, f"{run.report}\n{run.errors}")
        self.assertEqual([round(event["magnitude"], 4) for event in run.named("undo.requested")], [2.6926, 3.0])
        self.assertEqual(run.named("plugin.failed"), [])


if __name__ == "__main__":
    unittest.main()
