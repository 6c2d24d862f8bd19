"""What a won turn does to the clocks or the superiority meter, from the state it lands on.

Decide uses it to record the turn; the fold uses it again on the state as it is, so a turn
retracted earlier in the duel changes what every later turn added up to (the recorded clocks
are what the table saw at the time; the fold recomputes from the corrected state).
"""
from __future__ import annotations

from tracker.rules.duel import SIDES, other
from tracker.rules.rocet.terms import effect


def turn_effect(state: dict, card_a: str, card_b: str, winner: str) -> dict:
    """The clocks and meter after the winner's card takes effect, and what it won or offers."""
    cards = {"a": card_a, "b": card_b}
    loser = other(winner)
    does = effect(cards[winner])
    clocks = {side: state["sides"][side]["clock"] for side in SIDES}
    meter, variant, settings = state["meter"], state["variant"], state["settings"]
    toward = 1 if winner == "a" else -1
    win, completed, offers = "", False, []
    if does == "attack":
        offers.append("attack")
    steps = {"attack": 2, "discard": 1}.get(does, 0)
    if variant in ("relojes", "a_muerte"):
        clocks[winner] += steps
        if does == "insult":
            clocks[loser] -= 3
            if settings["clock_floor"]:
                clocks[loser] = max(0, clocks[loser])
        if clocks[winner] >= state["clock_size"]:
            if variant == "relojes":
                win = "clock"
                clocks[winner] = state["clock_size"]  # a full clock, never 7 of 6
            else:
                completed = True
                offers.append("clock")
                clocks[winner] = 0 if settings["restart"] == "zero" else clocks[winner] - state["clock_size"]
    elif variant == "superioridad":
        if does == "insult":
            # Insulto only takes back the loser's superiority; it never pushes past the middle.
            if meter * toward < 0:
                meter += toward * min(3, abs(meter))
        else:
            meter += toward * steps
        meter = max(-state["meter_steps"], min(state["meter_steps"], meter))
        if abs(meter) == state["meter_steps"]:
            win = "superiority"
    elif variant == "primera_sangre" and does == "attack":
        win = "first_blood"
    return {"clocks": clocks, "meter": meter, "win": win, "completed": completed, "offers": offers}
