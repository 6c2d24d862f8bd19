"""Which Rocèt tracks the GM may correct by hand mid-duel: each side's PG and PM."""
from __future__ import annotations

from tracker.rules.duel import SIDES

_TRACKS = (("PG", "pg"), ("PM", "pm"))  # the sheet's track -> the side's key in the state


def adjustable_tracks(state: dict) -> list[dict]:
    """Each duelist's PG and PM with its value and maximum."""
    return [{"character": s["id"], "name": s["name"], "side": side, "track": track, "label": track,
             "value": s[key], "max": s[f"{key}_max"]}
            for side in SIDES for s in [state["sides"][side]] for track, key in _TRACKS]


def set_track(state: dict, character: str, track: str, value: int) -> dict:
    """The state with the duelist's track at ``value`` (a new state; the input is never changed)."""
    key = dict(_TRACKS)[track]
    sides = {side: (dict(s, **{key: value}) if s["id"] == character else s) for side, s in state["sides"].items()}
    return dict(state, sides=sides)
