"""Tests of the pull-to-refresh plugin: its handlers in process, given the values Rehearse would
read for them (`reads=`), and its scenario end to end with the real `rehearse run`.

Run: python3 -m unittest discover -s Examples/RemotePlugins
(the end-to-end test runs $REHEARSE, else the checkout's .build/debug/rehearse)
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from pull_to_refresh import plugin  # noqa: E402  (it finds the rehearse package for us)
from rehearse.plugin import animate, emit, run_scenario, schedule, set_value, target_offset  # noqa: E402
from test_undo_shake import find_rehearse  # noqa: E402


def release(target="list"):
    """`scroll.willEndDragging` of `target`, lifted still."""
    return {"target": target, "velocity": {"x": 0.0, "y": 0.0}, "targetContentOffset": {"x": 0.0, "y": -64.0}}


def at(top, y):
    """The reads: the list's top inset and its offset."""
    return {"list.contentInset.top": top, "list.contentOffset.y": y}


class PullToRefreshTests(unittest.TestCase):
    def setUp(self):
        self.assertEqual(plugin.install().state, {"refreshing": False, "refreshes": 0})

    def test_a_short_pull_does_not_refresh(self):
        # 59 points past the resting offset of a list under a 64-point bar: under the threshold.
        self.assertEqual(plugin.deliver("scroll.willEndDragging", release(), reads=at(64.0, -123.0)).effects, [])

    def test_a_long_pull_holds_the_content_below_the_inset_it_read(self):
        effects, state = plugin.deliver("scroll.willEndDragging", release(), time=0.6, reads=at(64.0, -180.0))
        self.assertEqual(effects, [set_value("list.contentInset.top", 124.0), target_offset("list", 0.0, -124.0),
                                   emit("refresh.began", pulled=116.0), schedule(3.0, "refreshed")])
        self.assertEqual(state, {"refreshing": True, "refreshes": 0})
        # Another release while it refreshes changes nothing.
        self.assertEqual(plugin.deliver("scroll.willEndDragging", release(), reads=at(124.0, -250.0)).effects, [])
        effects, state = plugin.wake("refreshed", time=3.6, reads=at(124.0, -124.0))
        self.assertEqual(effects, [animate(0.3, {"list.contentInset.top": 64.0, "list.contentOffset.y": -64.0}),
                                   emit("refresh.ended", refreshes=1)])
        self.assertEqual(state, {"refreshing": False, "refreshes": 1})

    def test_another_scroll_view_is_left_alone(self):
        self.assertEqual(plugin.deliver("scroll.willEndDragging", release("feed"), reads=at(0.0, -200.0)).effects, [])


@unittest.skipUnless(find_rehearse(), "no rehearse tool: set REHEARSE or run swift build")
class PullToRefreshScenarioTests(unittest.TestCase):
    def test_the_scenario_passes(self):
        run = run_scenario(os.path.join(HERE, "pull-to-refresh.yaml"), rehearse=find_rehearse())
        self.assertTrue(run.passed, f"{run.report}\n{run.errors}")
        self.assertEqual(len(run.named("refresh.began")), 1)
        self.assertEqual([event["refreshes"] for event in run.named("refresh.ended")], [1])
        self.assertEqual(run.named("plugin.failed"), [])


if __name__ == "__main__":
    unittest.main()
