"""The Rocèt state: a fold of the duel's events (never rolls, shuffles or reads the clock).

The fold is total: after a retraction, later events are folded on top of a state they were
not decided against (a card no longer in hand, damage no longer on offer). Each applies what
still can be applied and never raises.
"""
from __future__ import annotations

from tracker.rules.duel import DuelStarted, SIDES, evolve_ending, initial, other, wound
from tracker.rules.rocet.events import (
    RocetCardDiscarded, RocetCardsDrawn, RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined,
    RocetDeckShuffled, RocetDuelistFell, RocetTurnResolved,
)
from tracker.rules.rocet.effects import turn_effect
from tracker.rules.rocet.terms import A_MUERTE_CLOCK
from tracker.rules.rocet.text import describe

QUIET = (RocetCardsDrawn, RocetCardsPlayed)  # folded into the turn's line in the history


def evolve(state: dict | None, ev, at: int) -> dict:
    """The state after ``ev`` (the input state is never changed)."""
    text = describe(state, ev)
    if isinstance(ev, DuelStarted):
        new = _started(ev)
    else:
        ended = evolve_ending(state, ev)
        new = ended if ended is not None else _apply(_working_copy(state), ev, at)
    if not isinstance(ev, QUIET):
        new = dict(new, history=new["history"] + [{"at": at, "text": text}])
    return new


def _working_copy(state: dict) -> dict:
    """A copy ``_apply`` may change in place: new dicts for what it changes in place (the top,
    each side, each deck, the fallen); the lists inside are only ever replaced, never changed,
    so they are shared, and a long duel costs no more to fold per event than a short one."""
    return dict(state, sides={k: dict(v) for k, v in state["sides"].items()},
                decks={k: dict(v) for k, v in state["decks"].items()}, fallen=dict(state["fallen"]))


def deck_of(state: dict, side: str) -> str:
    return "shared" if "shared" in state["decks"] else side


def _started(ev: DuelStarted) -> dict:
    state = initial(ev)
    settings, kind = ev.settings, ev.kind
    sides = {}
    for d in ev.duelists:
        stats, current = d["stats"], d.get("current") or {}
        sides[d["side"]] = {
            "id": d["id"], "name": d["name"], "weapon": dict(d["weapon"]),
            "des": stats["des"], "int": stats["int"],
            "pg": current.get("PG", stats["pg_max"]), "pg_max": stats["pg_max"],
            "pm": current.get("PM", stats["pm_max"]), "pm_max": stats["pm_max"],
            "clock": 0, "hand": [], "hand_size": 0,
        }
    decks = ("shared",) if settings["deck"] == "shared" else SIDES
    state.update(
        mode=settings["cards"], variant=kind, turn=0, sides=sides,
        decks={k: {"pile": [], "pile_size": 0, "discard": [], "discard_size": 0} for k in decks},
        clock_size={"relojes": settings["clock_size"], "a_muerte": A_MUERTE_CLOCK}.get(kind),
        meter=0, meter_steps=settings["meter_steps"] if kind == "superioridad" else None,
        table=None, pending_discard=None, pending_damage=None, pending_down=None,
        fallen={}, last_turn=None,
    )
    return state


def _apply(state: dict, ev, at: int) -> dict:
    sides = state["sides"]
    if isinstance(ev, RocetDeckShuffled):
        deck = state["decks"][ev.deck]
        deck.update(pile=list(ev.cards), pile_size=ev.count)
        if ev.reason == "reshuffle":
            deck.update(discard=[], discard_size=0)
    elif isinstance(ev, RocetCardsDrawn):
        deck = state["decks"][deck_of(state, ev.side)]
        deck.update(pile=deck["pile"][len(ev.cards):], pile_size=max(0, deck["pile_size"] - ev.count))
        hand = sides[ev.side]
        hand.update(hand=hand["hand"] + list(ev.cards), hand_size=hand["hand_size"] + ev.count)
    elif isinstance(ev, RocetCardsPlayed):
        state.update(turn=ev.turn, table={"a": ev.card_a, "b": ev.card_b})
        for side, card in (("a", ev.card_a), ("b", ev.card_b)):
            _take(sides[side], card, state["mode"])
        # Playing on lets the damage nobody dealt lapse. A discard is owed before the next
        # turn; one still owed here had its discard retracted, so it lapses too.
        state.update(pending_damage=None, pending_discard=None)
    elif isinstance(ev, RocetTurnResolved):
        state = _resolved(state, ev, at)
    elif isinstance(ev, RocetCardDiscarded):
        if ev.card and _take(sides[ev.side], ev.card, state["mode"]):
            _to_discard(state, ev.side, ev.card)
        state["pending_discard"] = None
    elif isinstance(ev, RocetDamageDealt):
        state = _damage(state, ev, at)
    elif isinstance(ev, RocetDamageDeclined):
        state["pending_damage"] = None
    elif isinstance(ev, RocetDuelistFell):
        state["fallen"][ev.side] = ev.condition
        state["pending_down"] = None
    return state


def _take(duelist: dict, card: str, mode: str) -> bool:
    """Take ``card`` from the hand; False when it is no longer there (after a retraction)."""
    if mode == "virtual":
        if card not in duelist["hand"]:
            return False
        hand = list(duelist["hand"])
        hand.remove(card)
        duelist.update(hand=hand, hand_size=len(hand))
        return True
    duelist["hand_size"] = max(0, duelist["hand_size"] - 1)
    return True


def _to_discard(state: dict, side: str, card: str) -> None:
    deck = state["decks"][deck_of(state, side)]
    deck.update(discard=deck["discard"] + [card], discard_size=deck["discard_size"] + 1)


def _resolved(state: dict, ev: RocetTurnResolved, at: int) -> dict:
    sides, winner = state["sides"], ev.winner
    loser = other(winner)
    moved = turn_effect(state, ev.card_a, ev.card_b, winner)  # from the state as it is now
    sides["a"]["clock"], sides["b"]["clock"] = moved["clocks"]["a"], moved["clocks"]["b"]
    state["meter"] = moved["meter"]
    for side, card in (("a", ev.card_a), ("b", ev.card_b)):
        _to_discard(state, side, card)
    state["table"] = None
    if ev.pm_damage:
        target = sides[loser]
        taken = min(ev.pm_damage, target["pm"])
        target["pm"] -= taken
        state = wound(state, target["id"], "PM", taken, at, f"Insulto, turn {ev.turn}")
    state["pending_discard"] = loser if ev.discard_owed else None
    weapon = sides[winner]["weapon"]["damage"]
    amounts = {"attack": ev.ta + weapon, "clock": weapon}
    state["pending_damage"] = None if not ev.offers else {
        "side": winner, "target": loser, "ta": ev.ta, "win": ev.win,
        "offers": [{"kind": kind, "amount": amounts[kind]} for kind in ev.offers],
    }
    card = ev.card_a if winner == "a" else ev.card_b
    state["last_turn"] = {"turn": ev.turn, "winner": winner, "card": card, "ta": ev.ta,
                          "cards": {"a": ev.card_a, "b": ev.card_b}, "advantage": ev.advantage,
                          "rolls": [list(r) for r in ev.rolls]}
    return state


def _damage(state: dict, ev: RocetDamageDealt, at: int) -> dict:
    # The event names the dealer; the offer it answered may be gone after a retraction.
    pending, loser = state["pending_damage"], other(ev.side)
    target = state["sides"][loser]
    taken = min(ev.amount, target["pg"])
    target["pg"] -= taken
    note = f"{state['sides'][ev.side]['weapon']['name']}, turn {state['turn']}"
    state = wound(state, target["id"], "PG", taken, at, note)
    left = [o for o in (pending or {}).get("offers", []) if o["kind"] != ev.kind]
    state["pending_damage"] = dict(pending, offers=left) if left else None
    if target["pg"] == 0 and loser not in state["fallen"]:
        state["pending_down"] = loser
    return state
