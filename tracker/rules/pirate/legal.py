"""The legal next actions of a pirate duel as data (see ``tracker.rules.legal``): the commands
``view.actions`` names, each field narrowed to what the rules accept now."""
from __future__ import annotations

from tracker.rules.legal import GM, offer

from .commands import COMMANDS
from .fold import fallen
from .view import actions


def legal_actions(state: dict, audience: str) -> list[dict]:
    """What ``audience`` may send now: the GM everything legal; nobody else anything (yet)."""
    if audience != GM:
        return []
    return [_offer(state, name) for name in actions(state)]


def _seat_die(state: dict) -> dict:
    """Where the seats roll, the chooser may type their insult's d20 with the choice (left out, the
    server rolls it at the throw)."""
    if state["settings"].get("dice_by") != "seats":
        return {}
    return {"dice": {"dice": [20]}}


def _offer(state: dict, name: str) -> dict:
    command = COMMANDS[name]
    if name in ("Attack", "Shoot", "Insult"):
        due = state["order"][state["turn"]]
        insults = {"insult": [i["name"] for i in state["settings"]["insults"]]} if name == "Insult" else {}
        return offer(command, name, for_side=due, side=[due], **insults)
    if name == "ChooseInsult":  # a sealed insult from the duel's table, for the coming exchange
        sealed = state.get("sealed") or {}
        return offer(command, name, side=sorted("ab", key=lambda side: side in sealed),
                     insult=[i["name"] for i in state["settings"]["insults"]],
                     round=[state["round"] + 1], depends={"insult": ["side"]},
                     **_seat_die(state))
    if name == "RecordFall":
        side = fallen(state)
        fates = ["dead"] if state["fighters"][side]["fate"] == "down" else ["down", "dead"]
        return offer(command, name, for_side=side, side=[side], fate=fates)
    if name == "RollInitiative":  # a d20 each (a tie asks for another)
        return offer(command, name, dice={"dice_a": [20], "dice_b": [20]})
    return offer(command, name)
