"""Rehearse from Python: drive `rehearse serve` over D-Bus (`rehearse.Simulator`, this module), and
write a plugin as a program of its own (`rehearse.plugin`). Both speak D-Bus with jeepney.

A session of your own, in a pytest fixture:

    @pytest.fixture
    def login():
        with rehearse.Simulator().session(plugins=["login-animator"], mode="manual") as session:
            yield session

    def test_title_lifts(login):
        login.inject("tap", target="username")
        login.advance(0.3)
        assert login.get("title.presentation.frame.y") == 70

Each session is a simulation of its own on the service (`CreateSession`): parallel test workers
(pytest-xdist, a CI matrix) do not see each other, and a session ends when its connection closes.
Values go in as Python values (bool, int, float, str, lists, dicts) and come back the same way
(`rehearse.values`).
"""
from . import errors
from .client import DEFAULT_PATH, INTERFACE, SERVICE, RehearseError, Session, Simulator
from .event import Event
from .query import node
from .touches import PINCH_SPAN, SWIPE_DURATION, drag_touches

__all__ = [
    "Simulator", "Session", "Event", "RehearseError", "errors", "node",
    "SERVICE", "DEFAULT_PATH", "INTERFACE", "SWIPE_DURATION", "PINCH_SPAN", "drag_touches",
]
