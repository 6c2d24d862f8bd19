"""What every Rocèt state the rules can reach satisfies, written once: the property tests check it
after every command and retraction, and the fold checks an ending against the same words."""
from __future__ import annotations

from collections import Counter
from functools import partial

from tracker.rules.duel import SIDES, ending_problems, other
from tracker.rules.rocet.terms import HAND, deck_cards, effect

DECK_SIZES = {"shared": 36, "own": 18}  # the set-up's deck choice -> cards in each deck


def _clock(state: dict, winner: str) -> str:
    side = state["sides"][winner]
    return "" if side["clock"] >= state["clock_size"] else f"the clock stands at {side['clock']}/{state['clock_size']}"


def _superiority(state: dict, winner: str) -> str:
    end = state["meter_steps"] * (1 if winner == "a" else -1)
    return "" if state["meter"] == end else f"the meter stands at {state['meter']} of {state['meter_steps']}"


def _first_blood(state: dict, winner: str) -> str:
    last = state["last_turn"]
    if last and last["winner"] == winner and effect(last["card"]) == "attack":
        return ""
    return "the last turn was not won with an attack"


def _fell(condition: str):
    # pragma: no mutate block (runs only at import, building the ENDINGS/CHECKS tables)
    # The check is a module-level function, not a closure built at import, so that it runs (and
    # can be mutation-tested) on every call.
    return partial(_loser_fell, condition)


def _loser_fell(condition: str, state: dict, winner: str) -> str:
    fallen = state["fallen"].get(other(winner))
    if fallen == condition or (condition == "unconscious" and fallen == "dead"):
        return ""
    return f"the loser is not {condition}"


def _cards_out(state: dict, _winner: str | None) -> str:
    if any(state["sides"][side]["hand_size"] == 0 for side in SIDES):
        return ""
    return "both duelists still hold cards"


ENDINGS = {"clock": _clock, "superiority": _superiority, "first_blood": _first_blood,
           "unconscious": _fell("unconscious"), "death": _fell("dead"), "cards_out": _cards_out}


def invariants(state: dict) -> list[str]:
    """The violations of Rocèt's invariants in ``state`` (empty when it holds)."""
    problems = []
    sides = state["sides"]
    for side in SIDES:
        held = sides[side]
        if not 0 <= held["hand_size"] <= HAND:
            problems.append(f"side {side} holds {held['hand_size']} cards")
        if state["mode"] == "virtual" and len(held["hand"]) != held["hand_size"]:
            problems.append(f"side {side}'s hand lists {len(held['hand'])} cards but counts {held['hand_size']}")
        for track in ("pg", "pm"):
            if held[track] < 0:
                problems.append(f"side {side}'s {track.upper()} is {held[track]}")
    problems += _cards(state)
    problems += _clocks(state)
    return problems + ending_problems(state, ENDINGS)


def _cards(state: dict) -> list[str]:
    """Every card of each deck is in exactly one place: pile, discards, a hand or the table."""
    problems = []
    size = DECK_SIZES["shared" if "shared" in state["decks"] else "own"]
    table = state["table"] or {}
    for key, deck in state["decks"].items():
        owners = SIDES if key == "shared" else (key,)
        if state["mode"] == "virtual":
            if len(deck["pile"]) != deck["pile_size"] or len(deck["discard"]) != deck["discard_size"]:
                problems.append(f"deck {key}: the pile or discards miscount their cards")
            found = Counter(deck["pile"]) + Counter(deck["discard"])
            for side in owners:
                found += Counter(state["sides"][side]["hand"])
                if side in table:
                    found[table[side]] += 1
            if found != Counter(deck_cards(size)):
                problems.append(f"deck {key} holds {sum(found.values())} cards "
                                f"({dict(sorted(found.items()))}) instead of {size}, by kind")
        else:
            count = deck["pile_size"] + deck["discard_size"] + sum(
                state["sides"][side]["hand_size"] + (side in table) for side in owners)
            if count != size:
                problems.append(f"deck {key} holds {count} cards instead of {size}")
    return problems


def _clocks(state: dict) -> list[str]:
    problems = []
    variant, sides = state["variant"], state["sides"]
    won = state["outcome"] is not None or bool((state["pending_damage"] or {}).get("win"))
    if variant in ("relojes", "a_muerte"):
        size = state["clock_size"]
        for side in SIDES:
            clock = sides[side]["clock"]
            top = size if variant == "relojes" and won else size - 1
            if clock > top or (state["settings"]["clock_floor"] and clock < 0):
                problems.append(f"side {side}'s clock stands at {clock}/{size}")
    elif any(sides[side]["clock"] for side in SIDES):
        problems.append("a clock moved in a duel without clocks")
    if variant == "superioridad":
        limit = state["meter_steps"] if won else state["meter_steps"] - 1
        if abs(state["meter"]) > limit:
            problems.append(f"the meter stands at {state['meter']} of {state['meter_steps']}")
    elif state["meter"]:
        problems.append("the superiority meter moved in a duel without one")
    return problems
