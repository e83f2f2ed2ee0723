"""Tests of rehearse.values, the package's one encoder and decoder of D-Bus values, used by the
client and the plugin side alike.

Run from the repository's root: python3 -m unittest discover -s clients/python/tests
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from rehearse import values  # noqa: E402


class ValueTests(unittest.TestCase):
    def test_each_python_type_has_its_dbus_type(self):
        self.assertEqual(values.to_variant(True), ("b", True))  # a bool is an int in Python: not "x"
        self.assertEqual(values.to_variant(False), ("b", False))
        self.assertEqual(values.to_variant(3), ("x", 3))
        self.assertEqual(values.to_variant(2.5), ("d", 2.5))
        self.assertEqual(values.to_variant("go"), ("s", "go"))
        self.assertEqual(values.to_variant({"x": 1, "y": 0.5}), ("a{sv}", {"x": ("x", 1), "y": ("d", 0.5)}))

    def test_lists_take_the_most_specific_array_type(self):
        self.assertEqual(values.to_variant(["a", "b"]), ("as", ["a", "b"]))
        self.assertEqual(values.to_variant((1, 2)), ("ax", [1, 2]))
        self.assertEqual(values.to_variant([1, 2.5]), ("ad", [1.0, 2.5]))
        self.assertEqual(values.to_variant([True, False]), ("ab", [True, False]))
        # A bool among numbers is not a number: the list stays a list of variants.
        self.assertEqual(values.to_variant([1, True]), ("av", [("x", 1), ("b", True)]))
        self.assertEqual(values.to_variant([]), ("av", []))
        self.assertEqual(values.to_variant([{"a": 1}, "b"]), ("av", [("a{sv}", {"a": ("x", 1)}), ("s", "b")]))

    def test_none_leaves_a_key_out_and_is_refused_elsewhere(self):
        self.assertEqual(values.to_fields({"from": None, "to": "password"}), {"to": ("s", "password")})
        with self.assertRaisesRegex(TypeError, r"state\['peaks'\]\[1\]: no D-Bus form for NoneType"):
            values.to_fields({"peaks": [1, None]}, "state")

    def test_values_without_a_dbus_form_say_where_they_are(self):
        with self.assertRaisesRegex(TypeError, r"fields\['when'\]: no D-Bus form for object"):
            values.to_fields({"when": object()})
        with self.assertRaisesRegex(TypeError, r"key 1 is not a str"):
            values.to_fields({1: "one"})
        with self.assertRaisesRegex(TypeError, r"does not fit a 64-bit integer"):
            values.to_variant(2 ** 63)

    def test_what_comes_in_is_plain_python(self):
        fields = {"frame": ("a{sv}", {"x": ("d", 0.0), "height": ("x", 216)}),
                  "path": ("av", [("s", "a"), ("a{sv}", {"deep": ("v", ("b", True))})]),
                  "sizes": ("ad", [1.0, 2.0]), "pair": ("(sx)", ("a", 1))}
        self.assertEqual(values.from_dbus("a{sv}", fields), {
            "frame": {"x": 0.0, "height": 216}, "path": ["a", {"deep": True}], "sizes": [1.0, 2.0], "pair": ("a", 1)})

    def test_a_value_goes_out_and_comes_back_the_same(self):
        value = {"flag": True, "count": -4, "ratio": 0.25, "name": "x", "tags": ["a"], "nested": {"list": [1, "a"]}}
        signature, encoded = values.to_variant(value)
        self.assertEqual(values.from_dbus(signature, encoded), {**value, "nested": {"list": [1, "a"]}})
