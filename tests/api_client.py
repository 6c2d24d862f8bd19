"""A client that knows only the API's data, as docs/api.md describes it: it picks each next
command from the duel read's ``legal_actions`` and fills every field from what the action offers,
never reading HTML or prose. Shared by the play-through tests (Flask client, real server)."""
from __future__ import annotations

from typing import Any, Callable

ENDINGS = {"Yield", "Disqualify", "Abandon"}
# What a bot that wants the duel to finish leaves aside while anything else is on offer.
LAST_RESORT = {"MarkWorthiness", "ActSecond", "Tag", "ChangeTraditionFocus", "DeclineVictory", "EscalateToCombat",
               "EndTurn", "DeclineDamage", "DeclineSidestep", "DeclineCounter",
               "OtherAction", "SetCondition"}  # a free action, a condition by hand: never what moves a duel on


def next_command(read: dict, roll: Callable[[int], int] | None = None) -> dict:
    """The command a plain bot sends next: the first legal action that is no ending (a by-the-way
    choice only when nothing else is offered), every field from the offered values; with ``roll``
    (a die of n sides), it rolls the dice a field names itself and types them, as a VTT would."""
    offered = [a for a in read["legal_actions"] if a["type"] not in ENDINGS]
    preferred = [a for a in offered if a["type"] not in LAST_RESORT] or offered
    action = preferred[0]
    command: dict[str, Any] = {"type": action["type"], "duel_id": read["id"], "expected_version": read["version"]}
    for name, field in action["fields"].items():
        value = fill(field)
        if value is not None:
            command[name] = value
    if roll is not None and any("dice" in field for field in action["fields"].values()):
        for name, field in action["fields"].items():
            if "dice" in field:
                command[name] = [roll(sides) for sides in field["dice"]]
        command["server_roll"] = False
    return command


def fill(field: dict) -> Any:
    """A value the field takes: the first offered choice, server rolls for dice, a minimum number,
    some text; nothing for an optional field without choices."""
    if field["kind"] == "bool":
        return True if field["label"].lower().startswith(("let the server", "server")) else field.get("default")
    if field.get("choices"):
        return next((c for c in field["choices"] if c != ""), field["choices"][0])
    if field.get("default") not in (None, ""):
        return field["default"]  # what the rules suggest (a spell's damage…)
    if not field["required"]:
        return None
    if field["kind"] == "int":
        return field.get("default", field.get("minimum", 1))
    return "A spell"  # free text the rules accept as is (a spell's name)


def play(read_duel: Callable[[], dict], send: Callable[[dict], Any], limit: int = 400,
         roll: Callable[[int], int] | None = None) -> dict:
    """Play the duel to its end from legal actions alone; the final read."""
    read = read_duel()
    for _ in range(limit):
        if read["status"] == "over" or not read["legal_actions"]:
            return read
        send(next_command(read, roll))
        read = read_duel()
    raise AssertionError(f"the duel did not end in {limit} commands: {read['progress']}")
