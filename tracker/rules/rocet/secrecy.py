"""What each reader of a Rocèt duel may see, decided here and nowhere else.

The readers (``AUDIENCES``): the GM's pages, each side's seat, the table display, the players'
recap and the JSON API. Two secrets: the hands the server dealt (virtual cards), and a card chosen
in secret before both sides have chosen (sealed: nobody sees it, the GM included; its own seat
sees it, so the player knows what they picked).
"""
from __future__ import annotations

from tracker.rules.text import join, t

# Every reader asks with one of these names; "seat:a" and "seat:b" are the duellists' seats.
AUDIENCES = ("gm", "seat:a", "seat:b", "display", "recap", "api")

HIDDEN_FROM_PLAYERS: tuple[str, ...] = ()  # every line says only what the table saw
GM_DETAILS: dict = {}

# The fields of an event no reader is ever shown, in the log's event pages or the API's answers:
# a sealed card is shown when it is laid (RocetCardsPlayed), never from the choice itself.
SEALED = {"RocetCardChosen": ("card", "dice")}


def seen_by(state: dict, audience: str) -> dict:
    """The state as ``audience`` may see it: sealed cards only as "has chosen", and each hand only
    to whoever may hold it (its own seat; the GM the NPCs' hands, or every hand when the GM records
    the cards)."""
    # Only what changes is copied (the sides, the decks, the sealed choices); the rest, the history
    # above all, is shared with ``state``: a long duel's read must not cost a copy of every line.
    shown = dict(state, sides={side: dict(duelist) for side, duelist in state["sides"].items()})
    seat = audience.removeprefix("seat:") if audience.startswith("seat:") else None
    sealed = shown.get("sealed") or {}
    shown["sealed"] = {side: ({"card": choice["card"], "dice": list(choice.get("dice", []))} if side == seat else {})
                       for side, choice in sealed.items()}
    shown["chosen"] = sorted(sealed)
    if shown.get("mode") != "virtual":
        for duelist in shown["sides"].values():
            duelist["hand"] = None  # physical cards: the server never sees a hand (hand_size counts it)
    else:
        for side, duelist in shown["sides"].items():
            if not _may_see_hand(shown, audience, side):
                duelist.pop("hand", None)
        if not _may_see_pile(shown, audience):
            shown["decks"] = {name: {k: v for k, v in deck.items() if k != "pile"}
                              for name, deck in shown["decks"].items()}
    return shown


def event_seen_by(event_type: str, data: dict, state: dict, audience: str) -> dict:
    """One event's data as ``audience`` may see it in the duel ``state``: a hand drawn, or a pile
    shuffled, only to whoever ``seen_by`` shows that hand or pile."""
    if not event_type.startswith("Rocet"):
        return data
    if event_type == "RocetCardsDrawn" and data.get("cards") and not (
            state.get("mode") == "virtual" and _may_see_hand(state, audience, data.get("side"))):
        return {**data, "cards": "hidden"}
    if event_type == "RocetDeckShuffled" and (data.get("cards") or data.get("order")) and not _may_see_pile(state, audience):
        return {**data, "cards": "hidden", "order": "hidden"}
    return data


def _may_see_pile(state: dict, audience: str) -> bool:
    return state.get("mode") == "virtual" and audience in ("gm", "api") and not _sealed_mode(state)


def _sealed_mode(state: dict) -> bool:
    return state["settings"].get("choices") == "sealed"


def played_on_a_seat(state: dict, side: str) -> bool:
    """True when a player's live seat makes ``side``'s choices in a sealed duel, as the other
    rulesets' sides in ``policy.seated_sides``: the reader that knows the seats says which sides
    (``state["seated"]``, from ``policy.as_seated``), so a player character with no seat, or whose
    seat was revoked, is the GM's to play, hand and all. Until the GM takes the seat over (the duel
    skeleton's ``taken_over``): then the GM holds the hand. A reader that does not know the seats
    (the log, time travel, the recap) keeps every player character's hand hidden."""
    if side in state.get("taken_over", ()) or not _sealed_mode(state):
        return False
    if "seated" in state:
        return side in state["seated"]
    return any(d["side"] == side and d.get("rank") == "pj" for d in state["duelists"])


def _may_see_hand(state: dict, audience: str, side: str) -> bool:
    if audience == f"seat:{side}":
        return True
    if audience in ("gm", "api"):
        return not played_on_a_seat(state, side)
    return False


def secrets(state: dict) -> list[str]:
    """The hands the state holds, in words (physical cards are in the players' own hands; a hand
    ``seen_by`` took out, a player's on their seat, is not told)."""
    if state.get("mode") != "virtual":
        return []
    sides = state.get("sides", {})
    return [t("{name}'s hand: {cards}", name=sides[side]["name"], cards=join(sides[side]["hand"]) if sides[side]["hand"]
              else t("empty")) for side in sorted(sides) if "hand" in sides[side]]
