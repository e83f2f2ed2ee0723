"""Nodes named as a person sees them: `node(text="Log in")` is a query `Inject` takes as an event's
`target` (docs/dbus.md, "Node queries"), found in the scene when the call is made."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

Target = Union[str, Mapping[str, object]]
"""A node as a call names it: its id, or a query mapping (`node(...)`)."""


def node(id: str | None = None, *, text: str | None = None, label: str | None = None, kind: str | None = None,
         traits: Sequence[str] | None = None, index: int | None = None) -> str | dict[str, object]:
    """An event's `target`: the id alone as a string, or a query mapping of the parts given
    (exact text, accessibility label, kind, traits all held, `index` in reading order from 0)."""
    parts: dict[str, object] = {"text": text, "label": label, "kind": kind, "index": index}
    query: dict[str, object] = {key: value for key, value in parts.items() if value is not None}
    if traits is not None:
        query["traits"] = list(traits)
    if id is not None and not query:
        return id
    if id is not None:
        query["id"] = id
    return query


def target_of(on: Target | None, text: str | None, label: str | None, kind: str | None, traits: Sequence[str] | None,
            index: int | None) -> Target | None:
    """The node a gesture is aimed at: `on` (an id or a query), the query the keywords make (with
    `on` as its id), or None when none is given (the gesture's screen-point form)."""
    if text is None and label is None and kind is None and traits is None and index is None:
        return on
    if on is not None and not isinstance(on, str):
        raise TypeError("on= as a query takes no text=, label=, kind=, traits= or index= beside it")
    return node(on, text=text, label=label, kind=kind, traits=traits, index=index)
