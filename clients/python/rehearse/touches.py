"""The finger events of the scenario format's gesture steps, as `Session.touches` takes them."""
from __future__ import annotations

Point = tuple[float, float]
"""A point on the screen, in points: (x, y)."""

Touch = tuple[float, str, int, float, float]
"""One finger event: (time in seconds from the gesture's start, phase, finger, x, y); the phase is
"began", "moved", "ended" or "cancelled"."""

SWIPE_DURATION = 0.1
"""How long the `swipe:` step and `Session.swipe` take, in seconds."""
PINCH_SPAN = 100.0
"""How far apart a pinch's fingers start, in points."""


def drag_touches(start: Point, end: Point, duration: float, hold: float = 0.0, rate: int = 60,
                 finger: int = 0) -> list[Touch]:
    """The finger events of a drag: down at `start`, a move on each display frame `k / rate` (and
    at `duration` if that falls between frames) a fraction `k / (rate * duration)` of the way,
    lifted at `end` after `hold`."""
    (x0, y0), (x1, y1) = start, end
    events: list[Touch] = [(0.0, "began", finger, x0, y0)]
    frames = int(duration * rate + 1e-9)
    times = [(k / rate, k / (rate * duration)) for k in range(1, frames + 1)]
    if not times or abs(times[-1][0] - duration) > 1e-9:
        times.append((duration, 1.0))
    for time, progress in times:
        events.append((time, "moved", finger, x0 + (x1 - x0) * progress, y0 + (y1 - y0) * progress))
    events.append((duration + hold, "ended", finger, x1, y1))
    return events


def swipe_end(start: Point, direction: str, distance: float) -> Point:
    """Where a swipe of `distance` points in `direction` ("up", "down", "left", "right") ends."""
    steps = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
    if direction not in steps:
        raise ValueError(f"swipe: unknown direction {direction!r}; the directions are {', '.join(steps)}")
    dx, dy = steps[direction]
    return (start[0] + dx * distance, start[1] + dy * distance)


def pinch_touches(center: Point, scale: float, duration: float, rate: int = 60,
                  fingers: tuple[int, int] = (0, 1)) -> list[Touch]:
    """Two fingers `PINCH_SPAN` points apart across `center`, on a horizontal line, moved to
    `scale` times that over `duration` and lifted, in time order."""
    x, y = center
    start, end = PINCH_SPAN / 2, PINCH_SPAN * scale / 2
    left = drag_touches((x - start, y), (x - end, y), duration, 0.0, rate, fingers[0])
    right = drag_touches((x + start, y), (x + end, y), duration, 0.0, rate, fingers[1])
    return [event for pair in zip(left, right) for event in pair]
