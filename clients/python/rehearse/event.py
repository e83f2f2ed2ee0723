"""An event as Rehearse delivers it, to a session's client and to a plugin alike."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """A delivered event: its sequence number, virtual time in seconds, name and fields.
    `event["key"]` and `event.get("key")` read its fields."""
    sequence: int
    time: float
    name: str
    fields: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        """A field, or `default` when the event does not carry it."""
        return self.fields.get(key, default)
