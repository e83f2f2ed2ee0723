"""Tests of the client (`rehearse.Simulator` and `Session`) against a real `rehearse serve` that
peers reach straight (`--no-bus --listen`), and of the finger events its gestures send.

Run from the repository's root: python3 -m unittest discover -s clients/python/tests
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import rehearse  # noqa: E402
from rehearse.touches import drag_touches, pinch_touches, swipe_end  # noqa: E402
from test_rehearse_plugin import find_rehearse  # noqa: E402


class TouchTests(unittest.TestCase):
    def test_a_drag_moves_once_a_frame_and_lifts_at_its_end(self):
        touches = drag_touches((0, 0), (0, -60), 0.05, rate=60)
        # 0.05 s at 60 Hz: frames at 1/60 and 2/60, then the drag's own end at 0.05.
        self.assertEqual([(round(t, 6), phase) for t, phase, *_ in touches],
                         [(0.0, "began"), (0.016667, "moved"), (0.033333, "moved"), (0.05, "moved"), (0.05, "ended")])
        self.assertAlmostEqual(touches[1][4], -60 * (1 / 60) / 0.05)
        self.assertEqual(touches[-1][3:], (0, -60))

    def test_a_hold_lifts_later_where_the_drag_ended(self):
        touches = drag_touches((10, 10), (20, 10), 0.1, hold=0.2, finger=3)
        self.assertEqual(touches[-1], (0.30000000000000004, "ended", 3, 20, 10))
        self.assertTrue(all(finger == 3 for _, _, finger, _, _ in touches))

    def test_a_swipe_goes_its_direction_and_an_unknown_one_is_refused(self):
        self.assertEqual(swipe_end((100, 100), "up", 50), (100, 50))
        self.assertEqual(swipe_end((100, 100), "left", 50), (50, 100))
        with self.assertRaisesRegex(ValueError, "unknown direction 'sideways'"):
            swipe_end((0, 0), "sideways", 10)

    def test_a_pinch_moves_both_fingers_apart_in_step(self):
        touches = pinch_touches((100, 200), 2.0, 0.1)
        lefts = [touch for touch in touches if touch[2] == 0]
        rights = [touch for touch in touches if touch[2] == 1]
        self.assertEqual([t for t, *_ in lefts], [t for t, *_ in rights])
        self.assertEqual((lefts[0][3], rights[0][3]), (100 - rehearse.PINCH_SPAN / 2, 100 + rehearse.PINCH_SPAN / 2))
        self.assertEqual((lefts[-1][3], rights[-1][3]), (0.0, 200.0))  # twice the span, about the centre
        self.assertEqual(touches[0][2], 0)  # interleaved: each instant's left finger first
        self.assertEqual(touches[1][2], 1)


@unittest.skipUnless(find_rehearse(), "no rehearse tool: set REHEARSE or run swift build")
class ClientTests(unittest.TestCase):
    """The client against `rehearse serve --no-bus --listen`, in manual mode."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="rehearse-client-")
        cls.address = f"unix:path={cls.folder.name}/rehearse.sock"
        cls.service = subprocess.Popen([find_rehearse(), "serve", "--no-bus", "--listen", cls.address, "--mode", "manual"],
                                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        ready = cls.service.stdout.readline()  # the readiness line: the service answers from here on
        assert ready.startswith("ready:"), ready

    @classmethod
    def tearDownClass(cls):
        cls.service.terminate()
        cls.service.wait(timeout=30)
        cls.service.stdout.close()
        cls.folder.cleanup()

    def setUp(self):
        self.simulator = rehearse.Simulator(self.address)
        self.addCleanup(self.simulator.close)

    def test_a_session_is_driven_and_its_values_come_back_as_python_values(self):
        with self.simulator.session(plugins=["login-animator"], mode="manual") as login:
            self.assertTrue(login.path.startswith(rehearse.DEFAULT_PATH + "/"), login.path)
            self.assertIs(login.get("keyboard.visible"), False)
            sequence = login.inject("tap", target="username")
            self.assertGreater(sequence, 0)
            self.assertEqual(login.advance(0.5), 0.5)
            self.assertIs(login.get("keyboard.visible"), True)
            frame = login.get("title.frame")
            self.assertIsInstance(frame, dict)
            self.assertEqual(set(frame), {"x", "y", "width", "height"})
            events = login.take_events()
            self.assertEqual(events[0].name, "tap")
            self.assertEqual(events[0]["target"], "username")
            self.assertEqual(events[0].sequence, sequence)
            self.assertIn("keyboard.willShow", [event.name for event in events])
            self.assertEqual(events, sorted(events, key=lambda event: event.sequence))

    def test_an_error_reply_is_a_rehearse_error_with_its_name(self):
        with self.simulator.session(mode="manual") as session:
            with self.assertRaises(rehearse.RehearseError) as refused:
                session.inject("no.such.event")
            self.assertEqual(refused.exception.name, rehearse.errors.UNKNOWN_EVENT)
            self.assertIn("no.such.event", refused.exception.message)
            self.assertEqual(session.advance(0.1), 0.1)  # the session keeps serving

    def test_a_node_is_tapped_by_what_it_shows_and_a_miss_is_node_not_found(self):
        with self.simulator.session(plugins=["login-animator"], mode="manual") as login:
            sequence = login.tap(label="Password")
            self.assertEqual(login.get("firstResponder"), "password")
            login.inject("text", target=rehearse.node(kind="textField", index=0), text="vijay")
            self.assertEqual(login.get("username.text"), "vijay")
            events = login.take_events()
            self.assertEqual([(event.name, event["target"]) for event in events if event.sequence == sequence], [("tap", "password")])
            with self.assertRaises(rehearse.RehearseError) as refused:
                login.tap(text="Log in")
            self.assertEqual(refused.exception.name, rehearse.errors.NODE_NOT_FOUND)
            self.assertIn('no node matches {text: "Log in"}; nearest: ', refused.exception.message)
            with self.assertRaises(rehearse.RehearseError) as several:
                login.tap(kind="textField")
            self.assertEqual(several.exception.name, rehearse.errors.NODE_NOT_FOUND)
            self.assertIn("2 nodes match {kind: textField}", several.exception.message)
            with self.assertRaises(rehearse.RehearseError) as malformed:
                login.tap(kind="knob")
            self.assertEqual(malformed.exception.name, rehearse.errors.INVALID_FIELD)
            self.assertEqual(login.advance(0.1), 0.1)  # the session keeps serving
            self.assertEqual(rehearse.node("save"), "save")
            self.assertEqual(rehearse.node("save", kind="button"), {"id": "save", "kind": "button"})

    def test_settle_and_wait_until_wait_for_the_simulation_and_time_out_by_name(self):
        with self.simulator.session(plugins=["login-animator"], mode="manual") as login:
            login.inject("tap", target="username")
            self.assertEqual(login.wait_until("title.presentation.frame.y <= 70"), 0.3)  # the form has lifted
            self.assertEqual(login.settle(), 0.5)  # and the keyboard has arrived
            self.assertEqual(login.settle(timeout=0), 0.5)  # already still
            login.inject("resign")
            with self.assertRaises(rehearse.RehearseError) as late:
                login.settle(timeout=0.1)
            self.assertEqual(late.exception.name, rehearse.errors.TIMEOUT)
            self.assertIn("the keyboard is moving until 1 s", late.exception.message)
            with self.assertRaises(rehearse.RehearseError) as never:
                login.wait_until("keyboard.visible == true", timeout=1)
            self.assertEqual(never.exception.name, rehearse.errors.TIMEOUT)
            self.assertIn("found keyboard.visible = false", never.exception.message)

    def test_gestures_are_finger_events_at_their_times(self):
        with self.simulator.session(mode="manual") as session:
            session.swipe((160, 400), "up")
            self.assertAlmostEqual(session.get("time"), rehearse.SWIPE_DURATION)
            touches = [event for event in session.take_events() if event.name.startswith("touch.")]
            expected = drag_touches((160, 400), (160, 200), rehearse.SWIPE_DURATION)
            self.assertEqual([(event.name, round(event.time, 9), event["x"], round(event["y"], 9)) for event in touches],
                             [("touch." + phase, round(time, 9), x, round(y, 9)) for time, phase, _, x, y in expected])

    LIST = """
name: a list
scene:
  nodes:
    - {id: list, kind: scrollView, frame: [0, 0, 320, 400], contentSize: [320, 3000]}
    - {id: row30, kind: label, parent: list, frame: [0, 1200, 320, 40], text: Row 30}
steps: []
"""

    def test_a_gesture_on_a_node_is_the_screen_point_gesture_from_its_visible_centre(self):
        with self.simulator.session(scenario=self.LIST, mode="manual") as session:
            self.assertEqual(session.drag(on="list", by=(0, -150)), 0.3)
            touches = [event for event in session.take_events() if event.name.startswith("touch.")]
            expected = drag_touches((160, 200), (160, 50), 0.3)
            # The clock keeps whole nanoseconds: times agree to 8 places.
            self.assertEqual([(event.name, round(event.time, 8), event["x"], round(event["y"], 9)) for event in touches],
                             [("touch." + phase, round(time, 8), x, round(y, 9)) for time, phase, _, x, y in expected])
            self.assertEqual(session.swipe(kind="scrollView", direction="down", distance=100), 0.3 + rehearse.SWIPE_DURATION)
            self.assertAlmostEqual(session.pinch(on=rehearse.node("list"), scale=1.5), 0.3 + rehearse.SWIPE_DURATION + 0.5)
            self.assertAlmostEqual(session.long_press(on="list", duration=0.6), 0.3 + rehearse.SWIPE_DURATION + 1.1)
            names = [event.name for event in session.take_events()]
            # A scroll view that cannot zoom has no pinch: the two fingers are its pan's.
            self.assertNotIn("gesture.pinch", names)
            self.assertIn("gesture.longPress", names)

    def test_a_fling_brings_a_row_into_view_and_visibility_says_why_not_before(self):
        with self.simulator.session(scenario=self.LIST, mode="manual") as session:
            self.assertEqual(session.visibility(text="Row 30"),
                             (False, "clipped away by list (its frame starts 800 pt below list's visible bounds)"))
            self.assertIs(session.is_visible("row30"), False)
            self.assertIs(session.is_visible("no-such-node"), False)
            session.fling(on="list", velocity=(0, -2000))
            session.settle()
            self.assertIs(session.is_visible(text="Row 30"), True)
            self.assertTrue(session.visibility("row30")[1].endswith(" pt of it at (0, 134.3336670004237), 100 %"))

    def test_a_refused_gesture_is_named_and_injects_nothing(self):
        with self.simulator.session(scenario=self.LIST, mode="manual") as session:
            refusals = [
                (lambda: session.drag(on="nope", by=(0, 1)), rehearse.errors.NODE_NOT_FOUND, "no node matches {id: \"nope\"}"),
                (lambda: session.drag(on="row30", by=(0, 1)), rehearse.errors.INVALID_FIELD, "row30: clipped away by list"),
                (lambda: session.fling(on="list", velocity=(0, 0)), rehearse.errors.INVALID_FIELD, "velocity must be at most"),
                (lambda: session.gesture("drog", on="list"), rehearse.errors.INVALID_FIELD, "unknown gesture 'drog' (did you mean 'drag'?)"),
                (lambda: session.is_visible(kind="label", index=3), rehearse.errors.NODE_NOT_FOUND, "index 3"),
            ]
            for call, name, message in refusals:
                with self.assertRaises(rehearse.RehearseError) as refused:
                    call()
                self.assertEqual(refused.exception.name, name)
                self.assertIn(message, refused.exception.message)
            with self.assertRaises(TypeError):
                session.drag(by=(0, 1))
            with self.assertRaises(TypeError):
                session.drag(on=rehearse.node(kind="label"), text="Row 30", by=(0, 1))
            self.assertEqual(session.take_events(), [])
            self.assertEqual(session.get("time"), 0.0)


if __name__ == "__main__":
    unittest.main()
