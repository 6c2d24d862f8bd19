"""The legal next actions of a pirate duel as data (see ``tracker.rules.legal``): the commands
``view.actions`` names, each field narrowed to what the rules accept now."""
from __future__ import annotations

from tracker.rules.legal import GM, offer, roll

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
    return {"dice": {"dice": [20]}, "rolls": {"dice": [roll("attack", "1d20")]}}


def _offer(state: dict, name: str) -> dict:
    command = COMMANDS[name]
    if name in ("Attack", "Shoot", "Insult"):
        due = state["order"][state["turn"]]
        insults = {"insult": [i["name"] for i in state["settings"]["insults"]]} if name == "Insult" else {}
        dice = f"dice_{due}"
        return offer(command, name, for_side=due, side=[due], **insults, dice={dice: [20]},
                     rolls={dice: _strike_rolls(state, name, due)},
                     depends={dice: ["ventaja", "desventaja", *(["insult"] if insults else [])]})
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
        return offer(command, name, dice={"dice_a": [20], "dice_b": [20]},
                     rolls={f"dice_{side}": [roll("initiative", "1d20")] for side in "ab"})
    if name == "ThrowInsults":  # initiative, then each sealed insult (its damage sealed with it)
        return offer(command, name, rolls={f"dice_{side}": [roll("initiative", "1d20"), roll("attack", "1d20")]
                                           for side in "ab"})
    return offer(command, name)


def _strike_rolls(state: dict, name: str, side: str) -> list[dict]:
    """What the acting side's dice are rolled for: the d20 (two with Ventaja or Desventaja), then
    the damage of the weapon or of the first insult on a hit (an insult's backlash on a miss)."""
    settings = state["settings"]
    rolls = [roll("attack", "1d20")]
    if name == "Insult":
        entry = settings["insults"][0]
        rolls.append(roll("damage", entry["damage"], "hit"))
        if entry["backlash"]:
            rolls.append(roll("backlash", entry["backlash"], "miss"))
    elif name == "Attack" or settings.get("bullet") == "wounds":
        rolls.append(roll("damage", settings["weapons"][side]["damage"], "hit"))
    return rolls
