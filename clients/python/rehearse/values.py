"""Python values and D-Bus values, both ways: the one encoder and the one decoder of the package.

Going out, a value becomes a variant by its Python type: bool as `b`, int as `x`, float as `d`,
str as `s`, a dict as `a{sv}`, a list or tuple of str as `as`, of bools `ab`, of ints `ax`, of
numbers with a float among them `ad`, and any other list (mixed, nested, empty) as `av`. A `None`
in a dict leaves the key out (an absent optional field); anything else without a D-Bus form is a
`TypeError` naming where it was. Coming in, every value of a known signature becomes the plain
Python value again (`from_dbus`).
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

Variant = tuple[str, Any]
"""A D-Bus variant as jeepney reads and writes it: (signature, value)."""

Fields = dict[str, Variant]
"""An `a{sv}` as jeepney writes it: each value a variant."""

_INT64 = range(-(2 ** 63), 2 ** 63)


def to_variant(value: object, where: str = "value") -> Variant:
    """`value` as a D-Bus variant, `(signature, value)` as jeepney writes it (see the module's
    table). `where` names the value in the `TypeError` raised for one without a D-Bus form."""
    # bool first: True is an int too.
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, numbers.Integral):
        if int(value) not in _INT64:
            raise TypeError(f"{where}: {value} does not fit a 64-bit integer (x)")
        return ("x", int(value))
    if isinstance(value, numbers.Real):
        return ("d", float(value))
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, Mapping):
        return ("a{sv}", to_fields(value, where))
    if isinstance(value, (list, tuple)):
        return _array(value, where)
    raise TypeError(f"{where}: no D-Bus form for {type(value).__name__} {value!r}")


def _array(items: list[Any] | tuple[Any, ...], where: str) -> Variant:
    """A list as the most specific array a reader expects: `as`, `ab`, `ax`, `ad`, else `av`."""
    if items and all(isinstance(item, str) for item in items):
        return ("as", list(items))
    if items and all(isinstance(item, bool) for item in items):
        return ("ab", list(items))
    if items and not any(isinstance(item, bool) for item in items):
        if all(isinstance(item, numbers.Integral) for item in items):
            return ("ax", [to_variant(item, f"{where}[{index}]")[1] for index, item in enumerate(items)])
        if all(isinstance(item, numbers.Real) for item in items):
            return ("ad", [float(item) for item in items])
    return ("av", [to_variant(item, f"{where}[{index}]") for index, item in enumerate(items)])


def to_fields(mapping: Mapping[Any, object], where: str = "fields") -> Fields:
    """A dict with str keys as `a{sv}`; keys whose value is None are left out."""
    fields: Fields = {}
    for key, value in mapping.items():
        if not isinstance(key, str):
            raise TypeError(f"{where}: key {key!r} is not a str (a{{sv}} keys are strings)")
        if value is not None:
            fields[key] = to_variant(value, f"{where}[{key!r}]")
    return fields


def complete_types(signature: str) -> list[str]:
    """A signature's complete types, in order: "sa{sv}(dd)" -> ["s", "a{sv}", "(dd)"]."""
    types: list[str] = []
    start, depth = 0, 0
    for index, character in enumerate(signature):
        depth += (character in "({") - (character in ")}")
        if depth == 0 and character != "a":
            types.append(signature[start:index + 1])
            start = index + 1
    return types


def from_dbus(signature: str, value: Any) -> Any:
    """A value of D-Bus type `signature`, as jeepney read it, as plain Python: variants unwrapped
    (however deep), dictionaries as dicts, arrays as lists, structs as tuples."""
    if signature == "v":
        inner_signature, inner = value
        return from_dbus(inner_signature, inner)
    if signature.startswith("a{"):
        _, value_signature = complete_types(signature[2:-1])
        return {key: from_dbus(value_signature, item) for key, item in value.items()}
    if signature.startswith("a") and not isinstance(value, bytes):
        return [from_dbus(signature[1:], item) for item in value]
    if signature.startswith("("):
        return tuple(from_dbus(part, item) for part, item in zip(complete_types(signature[1:-1]), value))
    return value
