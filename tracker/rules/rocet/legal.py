"""The legal next actions of a Rocèt duel as data (see ``tracker.rules.legal``): the commands
``view.actions`` names, each field narrowed to what the rules accept now."""
from __future__ import annotations

from tracker.rules.legal import GM, offer
from tracker.rules.rocet.commands import COMMANDS
from tracker.rules.rocet.fold import offered
from tracker.rules.rocet.secrecy import played_on_a_seat
from tracker.rules.rocet.terms import CARDS
from tracker.rules.rocet.view import actions


def legal_actions(state: dict, audience: str) -> list[dict]:
    """What ``audience`` may send now: the GM everything legal; nobody else anything (yet)."""
    if audience != GM:
        return []
    return [_offer(state, name) for name in actions(state)]


def _held(state: dict, side: str) -> list[str]:
    """The cards ``side`` may lay or discard: their hand (virtual), any card (physical, or a hand
    this reader may not see: a player's, on their own seat)."""
    hand = state["sides"][side].get("hand")
    if state["mode"] != "virtual" or hand is None:
        return list(CARDS)
    return [card for card in CARDS if card in hand]


def _dice(state: dict) -> dict:
    """Each side's DES die then INT die (a tie asks for another pair)."""
    return {f"dice_{side}": [state["sides"][side]["des"], state["sides"][side]["int"]] for side in ("a", "b")}


def _offer(state: dict, name: str) -> dict:
    command = COMMANDS[name]
    if name == "PlayTurn":
        return offer(command, name, dice=_dice(state), card_a=_held(state, "a"), card_b=_held(state, "b"))
    if name == "ChooseCard":
        # The GM chooses only for a side no player's seat plays (an NPC), from that side's hand:
        # a player's hand and sealed card stay on their own seat.
        sealed = state.get("sealed") or {}
        mine = sorted((side for side in ("a", "b") if not played_on_a_seat(state, side)),
                      key=lambda side: side in sealed)  # who has not chosen yet, first
        cards = _held(state, mine[0]) if len(mine) == 1 else list(CARDS)
        # The cards are those of the first side offered (another side holds others), for this
        # turn; where the seats roll, the chooser types their DES and INT dice.
        by_seat = state["settings"].get("dice_by") == "seats"
        first = mine[0] if mine else "a"
        return offer(command, name, for_side=mine[0] if len(mine) == 1 else None, side=mine,
                     card=(_held(state, first) if len(mine) > 1 else cards) if mine else [],
                     turn=[state["turn"] + 1], depends={"card": ["side"], "dice": ["side"]},
                     needed=("dice",) if by_seat else (),
                     dice={"dice": [state["sides"][first]["des"], state["sides"][first]["int"]]} if by_seat else None)
    if name == "RerollTie":
        return offer(command, name, dice=_dice(state))
    if name == "Discard":
        owed = state["pending_discard"]
        # The card is required while the hand holds one (an empty hand discards nothing).
        empty = state["sides"][owed]["hand_size"] == 0
        return offer(command, name, for_side=owed, side=[owed], card=[] if empty else _held(state, owed),
                     needed=() if empty else ("card",))
    if name in ("DealDamage", "DeclineDamage"):
        damage = state["pending_damage"]
        sources = {"source": [o["source"] for o in offered(damage)]} if name == "DealDamage" else {}
        return offer(command, name, for_side=damage["side"], **sources)
    if name in ("ConfirmUnconscious", "ConfirmDeath"):
        return offer(command, name, for_side=state["pending_down"])
    return offer(command, name)
