"""The undo-shake example in Python (Examples/RemotePlugins/undo_shake.py) and in C
(Examples/RemotePlugins/c/undo_shake.c), each started as Rehearse starts a plugin and driven by
`PeerHost` through the same calls: each answer is the one the protocol's tables say, and the two
programs answer every call alike, down to the D-Bus types of their values. With the real
`rehearse`, the example's scenario gives the same trace with either.

Run from the repository's root: python3 -m unittest discover -s clients/python/tests
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from jeepney import HeaderFields  # noqa: E402

from peer_host import PeerHost, error_name, is_error  # noqa: E402
from rehearse.plugin import run_scenario  # noqa: E402
from test_rehearse_plugin import find_rehearse  # noqa: E402

COMPILER = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang")
CAN_BUILD_C = bool(COMPILER and shutil.which("pkg-config"))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "Examples", "RemotePlugins"))


def build_c_plugin(folder):
    """Compiles c/undo_shake.c into `folder`, warnings as errors; returns the program's path."""
    binary = os.path.join(folder, "undo_shake")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "dbus-1"], capture_output=True, text=True, check=True)
    subprocess.run([COMPILER, "-Wall", "-Wextra", "-Werror", "-o", binary, os.path.join(EXAMPLES, "c", "undo_shake.c"),
                    *flags.stdout.split(), "-lm"], check=True)
    return binary


def motion(x, y, z):
    """A motion event's fields, as Rehearse delivers them: at rest but for the user acceleration."""
    axes = lambda a, b, c: ("a{sv}", {"x": ("d", a), "y": ("d", b), "z": ("d", c)})  # noqa: E731
    return {"rotationRate": axes(0.0, 0.0, 0.0), "userAcceleration": axes(x, y, z)}


CALLS = [
    ("Install", "a{sv}", {"threshold": ("x", 2)}),                     # YAML's `threshold: 2` is an integer
    ("Deliver", "tdsa{sv}", 1, 0.0, "motion", motion(1.2, 0.5, 0.0)),  # gentle: nothing
    ("Deliver", "tdsa{sv}", 2, 0.1, "motion", motion(2.4, -1.0, 0.7)),  # a shake
    ("Deliver", "tdsa{sv}", 3, 0.2, "motion", motion(-2.6, 0.3, 0.0)),  # the same shake, in its cooldown
    ("Wake", "sda{sv}", "dimmed", 0.25, {"finished": ("b", True)}),
    ("Deliver", "tdsa{sv}", 4, 1.2, "motion", {"rotationRate": motion(0, 0, 0)["rotationRate"]}),  # no acceleration
    ("Deliver", "tdsa{sv}", 5, 1.25, "motion", motion(0.0, 0.0, -3.0)),  # a second shake
    ("Wake", "sda{sv}", "never-asked", 1.3, {}),                        # a tag it did not ask for: an error
]


def dimming(to, curve, completion=None):
    """The undo-shake's animate effect on the title's alpha, as it is sent."""
    arguments = {"duration": ("d", 0.15), "changes": ("a{sv}", {"title.alpha": ("d", to)}), "curve": ("s", curve)}
    if completion:
        arguments["completion"] = ("s", completion)
    return ("animate", arguments)


def undo(magnitude):
    return ("emit", {"name": ("s", "undo.requested"), "fields": ("a{sv}", {"magnitude": ("d", magnitude)})})


EXPECTED = [
    ([], {"shakes": ("x", 0)}),
    ([], {"shakes": ("x", 0)}),
    ([undo(math.sqrt(2.4 ** 2 + 1.0 + 0.7 ** 2)), dimming(0.3, "easeOut", "dimmed")], {"shakes": ("x", 1)}),
    ([], {"shakes": ("x", 1)}),
    ([dimming(1.0, "easeIn")], {"shakes": ("x", 1)}),
    ([], {"shakes": ("x", 1)}),
    ([undo(3.0), dimming(0.3, "easeOut", "dimmed")], {"shakes": ("x", 2)}),
    "org.rehearse.Plugin.Error",
]


def talk(command, folder):
    """Starts `command` as a plugin, answers its registration, makes the CALLS and closes: returns
    the registration's body, each reply (a body, or an error's name) and the exit status."""
    with PeerHost(folder) as host:
        host.start(command, plugin_id="undo-shake", cwd=EXAMPLES)
        registration = host.registration()
        assert registration.header.fields[HeaderFields.member] == "RegisterPlugin", registration
        host.answer(registration)
        replies = []
        for member, signature, *body in CALLS:
            reply = host.call(member, signature, *body)
            replies.append(error_name(reply) if is_error(reply) else reply.body)
        return registration.body, replies, host.close_and_wait()


class UndoShakeExampleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="undo-shake-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def check(self, command):
        registration, replies, status = talk(command, self.folder)
        self.assertEqual(registration, (
            "undo-shake", "asks to undo when the device is shaken",
            [("undo.requested", "magnitude", "undo-shake, when the device is shaken hard enough")], ["motion"],
            {"threshold": ("d", 2.0), "cooldown": ("d", 1.0), "node": ("s", "title")}))
        for index, (reply, expected) in enumerate(zip(replies, EXPECTED)):
            self.assertEqual(reply, expected if isinstance(expected, str) else tuple(expected), f"call {index}: {CALLS[index]}")
        self.assertEqual(len(replies), len(EXPECTED))
        self.assertEqual(status, 0)
        return registration, replies

    def test_the_python_plugin_answers_as_the_protocol_says(self):
        self.check([sys.executable, "undo_shake.py"])

    @unittest.skipUnless(CAN_BUILD_C, "no C compiler (cc, clang or $CC) or pkg-config")
    def test_the_c_plugin_answers_every_call_as_the_python_one(self):
        self.assertEqual(self.check([build_c_plugin(self.folder)]), self.check([sys.executable, "undo_shake.py"]))


@unittest.skipUnless(CAN_BUILD_C and find_rehearse(), "no C compiler, or no rehearse tool (set REHEARSE or run swift build)")
class UndoShakeTraceTests(unittest.TestCase):
    def test_the_c_and_the_python_plugin_make_one_trace_with_the_real_rehearse(self):
        """undo-shake.yaml run by `rehearse run` with each plugin: the same events, byte for byte."""
        with open(os.path.join(EXAMPLES, "undo-shake.yaml"), encoding="utf-8") as file:
            scenario = file.read()
        python = "command: [python3, undo_shake.py]"
        self.assertIn(python, scenario)
        with tempfile.TemporaryDirectory(prefix="undo-shake-") as folder:
            commands = {"python": [sys.executable, os.path.join(EXAMPLES, "undo_shake.py")], "c": [build_c_plugin(folder)]}
            runs = {}
            for language, command in commands.items():
                path = os.path.join(folder, f"undo-shake-{language}.yaml")
                with open(path, "w", encoding="utf-8") as file:
                    file.write(scenario.replace(python, "command: " + json.dumps(command)))
                runs[language] = run_scenario(path, rehearse=find_rehearse())
                self.assertTrue(runs[language].passed, f"{language}: {runs[language].report}\n{runs[language].errors}")
        self.assertEqual(len(runs["c"].named("undo.requested")), 2)
        self.assertEqual(runs["c"].events, runs["python"].events)


if __name__ == "__main__":
    unittest.main()
