"""Which PF2e tracks the GM may correct by hand mid-duel: each duelist's HP (a tag team's too)."""
from __future__ import annotations

from tracker.rules.text import t

from .setup import hp_at_start


def adjustable_tracks(state: dict) -> list[dict]:
    """Each duelist's HP with its value and maximum (the sheet's, or what they started with when
    that was more)."""
    return [{"character": d["id"], "name": d["name"], "side": d["side"], "track": "HP", "label": t("HP"),
             "value": state["hp"][d["id"]], "max": max(hp_at_start(d), (d["stats"] or {}).get("hp_max", 0))}
            for d in state["duelists"]]


def set_track(state: dict, character: str, track: str, value: int) -> dict:
    """The state with the duelist's HP at ``value`` (a new state; the input is never changed)."""
    return dict(state, hp={**state["hp"], character: value})
