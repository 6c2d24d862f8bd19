"""What every pirate duel state the rules can reach satisfies, written once: the property tests check
it after every command and retraction, and the fold checks an ending against the same words."""
from __future__ import annotations

from functools import partial

from tracker.rules.duel import SIDES, adjusted_by, ending_problems, other

from .setup import current_pv


def _hits(state: dict, winner: str) -> str:
    needed = state["settings"].get("hits") or 1
    hits = state["fighters"][winner]["hits"]
    return "" if hits >= needed else f"the winner landed {hits} of {needed} hits"


def _fate(*fates: str):
    # pragma: no mutate block (runs only at import, building the ENDINGS/CHECKS tables)
    # The check is a module-level function, not a closure built at import, so that it runs (and
    # can be mutation-tested) on every call.
    return partial(_loser_fate_in, fates)


def _loser_fate_in(fates: tuple[str, ...], state: dict, winner: str) -> str:
    fate = state["fighters"][other(winner)]["fate"]
    return "" if fate in fates else f"the loser's fate is {fate or 'not ruled'}"


def _pistol_hit(state: dict, winner: str) -> str:
    return "" if state["fighters"][winner].get("landed") or state["fighters"][other(winner)]["fate"] \
        else "the winner's pistol never hit"


def _humiliation(state: dict, winner: str) -> str:
    return "" if state["fighters"][other(winner)]["car"] == 0 else "the loser still has CAR"


def _points(state: dict, winner: str) -> str:
    f, s = state["fighters"], state["settings"]
    if state["round"] < s.get("exchanges", 0) or state["phase"] != "initiative":
        return "the agreed exchanges are not over"
    return "" if f[winner]["points"] > f[other(winner)]["points"] else "the winner does not lead on points"


def _out_of_shots(state: dict, winner) -> str:
    return "" if all(state["fighters"][s]["shots"] == 0 for s in SIDES) else "a pistol still has a shot"


def _points_tied(state: dict, winner) -> str:
    f = state["fighters"]
    return "" if f["a"]["points"] == f["b"]["points"] else "the points are not tied"


ENDINGS = {"first_blood": _hits, "hits": _hits, "death": _fate("dead"), "down": _fate("down", "dead"),
           "hit": _pistol_hit, "humiliation": _humiliation, "points": _points,
           "out_of_shots": _out_of_shots, "points_tied": _points_tied}


def invariants(state: dict) -> list[str]:
    """The violations of the pirate duel's invariants in ``state`` (empty when it holds)."""
    problems = []
    f, s = state["fighters"], state["settings"]
    for d in state["duelists"]:
        side, me = d["side"], f[d["side"]]
        lost = {track: sum(w["amount"] for w in state["wounds"] if w["character"] == d["id"] and w["track"] == track)
                for track in ("PV", "CAR")}
        lost = {track: n - adjusted_by(state, d["id"], track) for track, n in lost.items()}
        if me["pv"] != current_pv(d) - lost["PV"] or me["pv"] < 0:
            problems.append(f"{me['name']} has {me['pv']} PV, not what the wounds left")
        if me["car"] != d["stats"]["car"] - lost["CAR"] or me["car"] < 0:
            problems.append(f"{me['name']} has {me['car']} CAR, not what the insults left")
        dealt = sum(1 for w in state["wounds"] if w["track"] == "PV" and w["character"] == f[other(side)]["id"])
        if me["hits"] != dealt:
            problems.append(f"{me['name']} counts {me['hits']} hits but dealt {dealt} wounds")
        if state["kind"] == "pistol" and not 0 <= me["shots"] <= s["shots"]:
            problems.append(f"{me['name']} has {me['shots']} shots of {s['shots']}")
    if state["phase"] == "act" and not 0 <= state["turn"] < len(state["order"]):
        problems.append(f"turn {state['turn']} of an order of {len(state['order'])}")
    if state["kind"] == "wit" and s["wit_end"] == "points" and not state["outcome"] \
            and state["round"] > s["exchanges"] and not state["sudden_death"]:
        problems.append(f"exchange {state['round']} of {s['exchanges']} without sudden death")
    return problems + ending_problems(state, ENDINGS)
