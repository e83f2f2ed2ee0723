"""Tests of rehearse.plugin: its values, effects and dispatch in process, and its side of the
protocol over a real Unix socket against `PeerHost` (tests/peer_host.py), with the plugin in a
process of its own, started as Rehearse starts one.

Run from the repository's root: python3 -m unittest discover -s clients/python/tests
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from jeepney import HeaderFields, MessageFlag, MessageType  # noqa: E402

import rehearse.plugin as rp  # noqa: E402
from peer_host import PeerHost, error_name, is_error  # noqa: E402

ECHO = [sys.executable, os.path.join(HERE, "echo_plugin.py")]
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def answer_of(reply):
    """A reply's (effects, state) as plain Python values."""
    assert not is_error(reply), f"{error_name(reply)}: {reply.body}"
    assert reply.header.fields[HeaderFields.signature] == "a(sa{sv})a{sv}"
    effects, state = rp.from_dbus("(" + rp.ANSWER_SIGNATURE + ")", reply.body)
    return effects, state


class EffectTests(unittest.TestCase):
    def test_effects_encode_their_arguments_with_the_protocols_types(self):
        self.assertEqual(rp.emit("undo.requested", magnitude=2.5).encode(),
                         ("emit", {"name": ("s", "undo.requested"), "fields": ("a{sv}", {"magnitude": ("d", 2.5)})}))
        self.assertEqual(rp.set_value("title.hidden", True).encode(),
                         ("set", {"path": ("s", "title.hidden"), "value": ("b", True)}))
        # A whole number of seconds is still a `d`; the arguments not given are left out.
        self.assertEqual(rp.animate(1, {"title.frame.y": 70}).encode(),
                         ("animate", {"duration": ("d", 1.0), "changes": ("a{sv}", {"title.frame.y": ("x", 70)})}))
        self.assertEqual(rp.animate(0.3, {"a.alpha": 0}, delay=0, curve="keyboard", completion="done").encode()[1],
                         {"duration": ("d", 0.3), "changes": ("a{sv}", {"a.alpha": ("x", 0)}), "delay": ("d", 0.0),
                          "curve": ("s", "keyboard"), "completion": ("s", "done")})
        self.assertEqual(rp.activate("shown", "landscape").encode(), ("activate", {"sets": ("as", ["shown", "landscape"])}))
        self.assertEqual(rp.activate().encode(), ("activate", {"sets": ("as", [])}))
        self.assertEqual(rp.schedule(2, "again").encode(), ("schedule", {"after": ("d", 2.0), "tag": ("s", "again")}))

    def test_target_offset_encodes_the_offset_as_a_point_of_doubles(self):
        self.assertEqual(rp.target_offset("list", 0, -124).encode(),
                         ("target-offset", {"target": ("s", "list"), "offset": ("a{sv}", {"x": ("d", 0.0), "y": ("d", -124.0)})}))
        with self.assertRaisesRegex(TypeError, "target_offset: y must be a finite number, not nan"):
            rp.target_offset("list", 0, math.nan)
        with self.assertRaisesRegex(TypeError, "target_offset: x must be a finite number, not True"):
            rp.target_offset("list", True, 0)
        with self.assertRaisesRegex(TypeError, "target_offset: the scroll view must be a non-empty str"):
            rp.target_offset("", 0, 0)

    def test_emit_takes_keyword_fields_and_a_dict(self):
        self.assertEqual(rp.emit("focus.changed", {"from": "username"}, to="password"),
                         rp.Effect("emit", {"name": "focus.changed", "fields": {"from": "username", "to": "password"}}))

    def test_builders_refuse_what_the_simulation_would(self):
        with self.assertRaisesRegex(ValueError, "unknown curve 'bounce'"):
            rp.animate(0.3, {"a.alpha": 0}, curve="bounce")
        with self.assertRaisesRegex(TypeError, "duration must be a number of seconds"):
            rp.animate(-1, {"a.alpha": 0})
        with self.assertRaisesRegex(TypeError, "duration must be a number of seconds"):
            rp.animate(True, {"a.alpha": 0})
        with self.assertRaisesRegex(TypeError, "changes must be a non-empty dict"):
            rp.animate(0.3, {})
        with self.assertRaisesRegex(TypeError, "after must be a number of seconds"):
            rp.schedule(math.nan, "tag")
        with self.assertRaisesRegex(TypeError, "the event's name must be a non-empty str"):
            rp.emit("")
        with self.assertRaisesRegex(TypeError, "after must be a number of seconds"):
            rp.schedule(math.inf, "tag")
        # A value without a D-Bus form fails where the effect is made, not when it is sent.
        with self.assertRaisesRegex(TypeError, r"emit x.happened: fields\['when'\]: no D-Bus form for set"):
            rp.emit("x.happened", when={1})
        with self.assertRaisesRegex(TypeError, r"set_value title.text: the value: no D-Bus form for NoneType"):
            rp.set_value("title.text", None)


class DispatchTests(unittest.TestCase):
    """The plugin's three methods as Python calls, as an author's unit test uses them."""

    def plugin(self):
        plugin = rp.Plugin("counter", configuration={"step": 1, "limit": 3})

        @plugin.on_install
        def start(config, state):
            state["count"] = 0
            state["_calls"] = []

        @plugin.on("tap", "return")
        def count(event, state, config):
            state["count"] += config["step"]
            state["_calls"].append(event.name)
            if state["count"] >= config["limit"]:
                return rp.emit("counter.full", count=state["count"])

        @plugin.on("tap")
        def also(event, state, config):
            yield rp.set_value("title.text", event["target"])

        @plugin.on_wake("tick")
        def tick(wake, state, config):
            state["ticked"] = wake.time

        return plugin

    def test_handlers_read_the_values_of_the_call_they_run_in(self):
        plugin = rp.Plugin("reader", reads=["list.contentInset.top"])

        @plugin.on("tap")
        def tap(event, state, config):
            state["top"] = plugin.read("list.contentInset.top")

        @plugin.on_wake("later")
        def later(wake, state, config):
            state["seen"] = plugin.values

        plugin.install()
        self.assertEqual(plugin.deliver("tap", reads={"list.contentInset.top": 64.0}).state, {"top": 64.0})
        self.assertEqual(plugin.wake("later", reads={"password.text": "<redacted>"}).state["seen"], {"password.text": "<redacted>"})
        # A call without the value: the handler is told what it did get.
        with self.assertRaisesRegex(LookupError, "reader: 'list.contentInset.top' came with no value in this call; "
                                                 "it read 'title.alpha'"):
            plugin.deliver("tap", reads={"title.alpha": 1.0})

    def test_install_lays_the_scenarios_configuration_on_the_defaults(self):
        plugin = self.plugin()
        self.assertEqual(plugin.install({"limit": 2}), rp.Answer([], {"count": 0}))
        self.assertEqual(plugin.config, {"step": 1, "limit": 2})
        with self.assertRaisesRegex(ValueError, "counter has no configuration key 'stpe'; it has 'step', 'limit'"):
            plugin.install({"stpe": 2})

    def test_handlers_of_an_event_run_in_order_and_their_effects_add_up(self):
        plugin = self.plugin()
        plugin.install({"limit": 2})
        self.assertEqual(plugin.subscriptions, ["tap", "return"])
        self.assertEqual(plugin.deliver("return", {"target": "username"}), rp.Answer([], {"count": 1}))
        effects, state = plugin.deliver("tap", {"target": "title"}, sequence=4, time=0.5)
        self.assertEqual(effects, [rp.emit("counter.full", count=2), rp.set_value("title.text", "title")])
        # Keys starting with `_` stay in the process.
        self.assertEqual(state, {"count": 2})
        self.assertEqual(plugin.state["_calls"], ["return", "tap"])

    def test_install_starts_over(self):
        plugin = self.plugin()
        plugin.install()
        plugin.deliver("tap", {"target": "title"})
        self.assertEqual(plugin.install().state, {"count": 0})

    def test_wakes_go_to_their_tags_handler(self):
        plugin = self.plugin()
        plugin.install()
        self.assertEqual(plugin.wake("tick", time=1.5).state, {"count": 0, "ticked": 1.5})
        with self.assertRaisesRegex(LookupError, "no on_wake handler for tag 'tock'"):
            plugin.wake("tock")

        @plugin.on_wake()
        def any_other(wake, state, config):
            state["other"] = wake.tag
        self.assertEqual(plugin.wake("tock").state["other"], "tock")

    def test_calls_out_of_order_or_unsubscribed_say_so(self):
        plugin = self.plugin()
        with self.assertRaisesRegex(RuntimeError, "Deliver before Install"):
            plugin.deliver("tap", {})
        plugin.install()
        with self.assertRaisesRegex(LookupError, "counter has no handler for event 'motion'; it takes tap, return"):
            plugin.deliver("motion", {})

    def test_a_handler_returning_something_else_than_effects_is_an_error(self):
        plugin = rp.Plugin("wrong")
        plugin.on("tap")(lambda event, state, config: "emit")
        plugin.install()
        with self.assertRaisesRegex(TypeError, "returned 'emit': return a list of effects"):
            plugin.deliver("tap")

    def test_a_state_without_a_dbus_form_fails_the_call_that_made_it(self):
        plugin = self.plugin()
        plugin.install()
        plugin.on("return")(lambda event, state, config: state.update(since=object()))
        with self.assertRaisesRegex(TypeError, r"state\['since'\]: no D-Bus form for object"):
            plugin.deliver("return", {"target": "username"})

    def test_a_plugins_declarations_are_checked_when_it_is_made(self):
        with self.assertRaisesRegex(TypeError, "an event is \\(name, fields, summary\\)"):
            rp.Plugin("x", events=[("x.happened", "what")])
        with self.assertRaisesRegex(TypeError, r"configuration\['when'\]"):
            rp.Plugin("x", configuration={"when": object()})


class ProtocolTests(unittest.TestCase):
    """The module's side of the protocol, over a real socket, with the plugin in its own process."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(prefix="rehearse-plugin-test-")
        self.host = PeerHost(self.folder.name)
        self.addCleanup(self.folder.cleanup)
        self.addCleanup(self.host.__exit__)

    def start(self, command=ECHO, plugin_id="echo-1"):
        self.host.start(command, plugin_id=plugin_id)
        registration = self.host.registration()
        self.host.answer(registration)
        return registration

    def test_it_authenticates_and_registers_without_hello(self):
        registration = self.start()
        self.assertEqual(self.host.sasl[0], "AUTH EXTERNAL " + str(os.getuid()).encode().hex())
        self.assertEqual(self.host.sasl[-1], "BEGIN")
        fields = registration.header.fields
        self.assertEqual(registration.header.message_type, MessageType.method_call)
        # Its very first message: no Hello to a bus, no destination.
        self.assertEqual((fields[HeaderFields.path], fields[HeaderFields.interface], fields[HeaderFields.member]),
                         ("/org/rehearse/Simulator", "org.rehearse.PluginHost1", "RegisterPlugin"))
        self.assertNotIn(HeaderFields.destination, fields)
        self.assertEqual(fields[HeaderFields.signature], "ssa(sss)asa{sv}")
        plugin_id, summary, events, subscriptions, configuration = registration.body
        self.assertEqual(plugin_id, "echo-1")  # the id it was given, not its own name
        self.assertEqual(summary, "answers with what it was given")
        self.assertEqual(events, [("echo.said", "what, count?", "echo, for each say event")])
        self.assertEqual(subscriptions, ["say", "tap", "fail"])
        self.assertEqual(configuration, {"scale": ("d", 2.0), "label": ("s", "title"), "loud": ("b", False),
                                         "times": ("x", 3), "sizes": ("ax", [1, 2]), "names": ("as", ["a", "b"])})

    def test_install_deliver_and_wake_answer_effects_and_state(self):
        self.start()
        configuration = rp.to_fields({"scale": 3, "label": "username", "loud": True, "times": 3,
                                      "sizes": [1.5], "names": []})
        effects, state = answer_of(self.host.call("Install", "a{sv}", configuration))
        self.assertEqual(effects, [])
        self.assertEqual(state, {"delivered": 0, "config": {"scale": 3, "label": "username", "loud": True, "times": 3,
                                                           "sizes": [1.5], "names": []}})

        fields = rp.to_fields({"target": "title", "what": "hi", "isControl": False, "x": 160.0, "n": 2,
                               "frame": {"x": 0, "y": 352.5}, "path": ["a", 1]})
        effects, state = answer_of(self.host.call("Deliver", "tdsa{sv}", 7, 0.25, "say", fields))
        self.assertEqual(state["last"], {
            "sequence": 7, "time": 0.25, "name": "say",
            "fields": {"target": "title", "what": "hi", "isControl": False, "x": 160.0, "n": 2,
                       "frame": {"x": 0, "y": 352.5}, "path": ["a", 1]},
            "types": {"target": "str", "what": "str", "isControl": "bool", "x": "float", "n": "int",
                      "frame": "dict", "path": "list"}})
        self.assertNotIn("_secret", state)
        self.assertEqual(effects, [
            ("emit", {"name": "echo.said", "fields": {"what": "hi"}}),
            ("set", {"path": "username.alpha", "value": 0.5}),
            ("animate", {"duration": 1.0, "changes": {"username.frame.y": 70}, "curve": "easeOut", "completion": "moved"}),
            ("activate", {"sets": ["shown"]}),
            ("schedule", {"after": 0.25, "tag": "later"}),
        ])

        effects, state = answer_of(self.host.call("Wake", "sda{sv}", "moved", 1.25, {"finished": ("b", False)}))
        self.assertEqual((effects, state["woke"]), ([], {"tag": "moved", "time": 1.25, "finished": False}))
        effects, state = answer_of(self.host.call("Wake", "sda{sv}", "later", 1.5, {}))
        self.assertEqual(state["woke"], {"tag": "later", "time": 1.5})  # `finished` None: left out

    def test_a_plugin_with_reads_registers_them_and_takes_their_values_with_each_call(self):
        registration = self.start([sys.executable, os.path.join(ROOT, "Tests", "rehearseTests", "reads_plugin.py"), "title.alpha"])
        self.assertEqual(registration.header.fields[HeaderFields.signature], "ssa(sss)asa{sv}as")
        self.assertEqual(registration.body[5], ["title.alpha"])
        self.host.call("Install", "a{sv}", {})
        reads = rp.to_fields({"title.alpha": 0.5, "password.text": "<redacted>"})
        effects, _ = answer_of(self.host.call("Deliver", "tdsa{sv}a{sv}", 1, 0.0, "tap", {"target": ("s", "title")}, reads))
        self.assertEqual(effects, [("emit", {"name": "reads.seen", "fields": {"values": {"title.alpha": 0.5, "password.text": "<redacted>"}}}),
                                   ("schedule", {"after": 0.1, "tag": "later"})])
        effects, _ = answer_of(self.host.call("Wake", "sda{sv}a{sv}", "later", 0.1, {}, rp.to_fields({"title.alpha": 0.25})))
        self.assertEqual(effects, [("emit", {"name": "reads.seen", "fields": {"values": {"title.alpha": 0.25}}})])
        # Having registered with reads, it takes the calls with them only.
        reply = self.host.call("Deliver", "tdsa{sv}", 2, 0.2, "tap", {})
        self.assertEqual(reply.body, ("Deliver takes (tdsa{sv}a{sv}), not (tdsa{sv})",))

    def test_the_answer_carries_the_declared_dbus_types(self):
        self.start()
        self.host.call("Install", "a{sv}", {})
        reply = self.host.call("Deliver", "tdsa{sv}", 1, 0.0, "tap", {"target": ("s", "title")})
        effects, state = reply.body
        self.assertEqual(effects[2], ("animate", {"duration": ("d", 1.0), "changes": ("a{sv}", {"title.frame.y": ("x", 70)}),
                                                  "curve": ("s", "easeOut"), "completion": ("s", "moved")}))
        self.assertEqual(state["delivered"], ("x", 1))

    def test_a_handler_that_raises_gets_an_error_reply_and_the_plugin_keeps_serving(self):
        self.start()
        self.host.call("Install", "a{sv}", {})
        reply = self.host.call("Deliver", "tdsa{sv}", 3, 0.5, "fail", {"what": ("s", "boom")})
        self.assertEqual(error_name(reply), "org.rehearse.Plugin.Error")
        self.assertEqual(reply.body, ("echo Deliver: ValueError: cannot say 'boom'",))
        reply = self.host.call("Wake", "sda{sv}", "unknown", 0.5, {})
        self.assertEqual(reply.body, ("echo Wake: LookupError: echo has no on_wake handler for tag 'unknown'",))
        self.assertEqual(answer_of(self.host.call("Deliver", "tdsa{sv}", 4, 0.5, "say", {}))[1]["delivered"], 1)
        self.assertEqual(self.host.close_and_wait(), 0)
        self.assertIn("ValueError: cannot say 'boom'", self.host.process.stderr.read())

    def test_wrong_calls_get_the_standard_errors(self):
        self.start()
        self.assertEqual(error_name(self.host.call("Forget")), "org.freedesktop.DBus.Error.UnknownMethod")
        self.assertEqual(error_name(self.host.call("Deliver", "tdsa{sv}", 1, 0.0, "tap", {}, address=("/org/rehearse/Plugin", "org.rehearse.Plugin2"))),
                         "org.freedesktop.DBus.Error.UnknownMethod")
        reply = self.host.call("Deliver", "sa{sv}", "tap", {})
        self.assertEqual(error_name(reply), "org.freedesktop.DBus.Error.InvalidArgs")
        self.assertEqual(reply.body, ("Deliver takes (tdsa{sv}), not (sa{sv})",))
        self.assertEqual(error_name(self.host.call("Install", "a{sv}", {}, address=("/org/rehearse/Other", None))),
                         "org.freedesktop.DBus.Error.UnknownObject")
        introspectable = ("/org/rehearse/Plugin", "org.freedesktop.DBus.Introspectable")
        self.assertIn('<method name="Deliver">', self.host.call("Introspect", address=introspectable).body[0])
        # Without an interface, a member names the plugin's method, as D-Bus allows.
        self.assertFalse(is_error(self.host.call("Install", "a{sv}", {}, address=("/org/rehearse/Plugin", None))))

    def test_a_call_that_wants_no_reply_gets_none(self):
        self.start()
        call = rp.peer_method_call("/org/rehearse/Plugin", "org.rehearse.Plugin1", "Install", "a{sv}", ({},))
        call.header.flags |= MessageFlag.no_reply_expected
        self.host.send(call)
        # The next reply the host gets is the one to the following call.
        reply = self.host.call("Deliver", "tdsa{sv}", 1, 0.0, "say", {})
        self.assertEqual(answer_of(reply)[1]["delivered"], 1)

    def test_calls_before_the_registrations_answer_are_answered(self):
        self.host.start(ECHO)
        registration = self.host.registration()
        effects, state = answer_of(self.host.call("Install", "a{sv}", {}))
        self.assertEqual(state["delivered"], 0)
        self.host.answer(registration)
        self.assertEqual(answer_of(self.host.call("Deliver", "tdsa{sv}", 1, 0.0, "say", {}))[1]["delivered"], 1)

    def test_it_exits_0_when_the_connection_closes(self):
        self.start()
        self.host.call("Install", "a{sv}", {})
        self.assertEqual(self.host.close_and_wait(), 0)

    def test_a_refused_registration_exits_2_with_the_reason(self):
        self.host.start(ECHO)
        self.host.answer(self.host.registration(), error=("org.rehearse.Error.UnknownEvent", "no event 'say'; nearest: 'tap'"))
        self.assertEqual(self.host.process.wait(timeout=5), 2)
        self.assertIn("echo: registration refused: org.rehearse.Error.UnknownEvent: no event 'say'; nearest: 'tap'",
                      self.host.process.stderr.read())

    def test_without_an_address_it_says_how_it_is_started(self):
        environment = {key: value for key, value in os.environ.items() if not key.startswith("REHEARSE_PLUGIN_")}
        result = subprocess.run(ECHO, env=environment, capture_output=True, text=True, timeout=10)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("REHEARSE_PLUGIN_ADDRESS is not set", result.stderr)


def find_rehearse():
    """The rehearse tool to run: $REHEARSE, else this checkout's debug build, else None."""
    built = os.path.join(ROOT, ".build", "debug", "rehearse")
    return os.environ.get("REHEARSE") or (built if os.access(built, os.X_OK) else None)


@unittest.skipUnless(find_rehearse(), "no rehearse tool: set REHEARSE or run swift build")
class RunScenarioTests(unittest.TestCase):
    """run_scenario with the real tool, on scenarios without a remote plugin."""

    def test_a_passing_scenario_gives_its_status_events_and_report(self):
        run = rp.run_scenario(os.path.join(ROOT, "Scenarios", "panner", "tap-toggle.yaml"), rehearse=find_rehearse())
        self.assertTrue(run.passed, run.errors)
        self.assertEqual(run.report["passed"], 1)
        taps = run.named("tap")
        self.assertEqual(len(taps), 2)
        self.assertEqual((taps[0].sequence, taps[0].time, taps[0]["target"]), (1, 0, "scrollBar"))
        self.assertEqual([event.sequence for event in run.events], list(range(1, len(run.events) + 1)))

    def test_an_invalid_scenario_gives_status_2_and_where(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "invalid.yaml")
            with open(path, "w", encoding="utf-8") as file:
                file.write("name: invalid\nscene: paper-login\nsteps:\n  - tap: nowhere-at-all\n")
            run = rp.run_scenario(path, rehearse=find_rehearse())
        self.assertEqual(run.status, 2)
        self.assertFalse(run.passed)
        self.assertEqual(run.report["scenarios"][0]["status"], "invalid")
        self.assertEqual(run.events, [])


if __name__ == "__main__":
    unittest.main()
