"""Which pirate tracks the GM may correct by hand mid-duel: PV in a sword or pistol duel, CAR
(what humiliation has left) in a wit duel, for each duelist."""
from __future__ import annotations

from tracker.rules.duel import SIDES


def adjustable_tracks(state: dict) -> list[dict]:
    """Each duelist's track that this kind of duel spends, with its value and maximum."""
    track, key, label = ("CAR", "car", "CAR") if state["kind"] == "wit" else ("PV", "pv", "PV")
    by_id = {d["id"]: d for d in state["duelists"]}
    return [{"character": f["id"], "name": f["name"], "side": side, "track": track, "label": label,
             "value": f[key], "max": by_id[f["id"]]["stats"][key]}
            for side in SIDES for f in [state["fighters"][side]]]


def set_track(state: dict, character: str, track: str, value: int) -> dict:
    """The state with the duelist's track at ``value`` (a new state; the input is never changed)."""
    key = track.lower()
    fighters = {side: (dict(f, **{key: value}) if f["id"] == character else f)
                for side, f in state["fighters"].items()}
    return dict(state, fighters=fighters)
