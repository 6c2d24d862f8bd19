"""The Rocèt state: a fold of the duel's events (never rolls, shuffles or reads the clock).

The fold never invents or loses a card, a clock step or an ending: an event the state could not
have produced (a card not in the hand, a draw the pile does not hold, a win the clocks do not
show) raises ``ImpossibleHistory``. ``decide`` never produces one, and a retraction takes every
later event of the duel with it, so a history built by the rules always folds.
"""
from __future__ import annotations

from tracker.rules.dispatch import by_type
from tracker.rules.rocet.adjust import adjustable_tracks, set_track


from tracker.rules.duel import DuelStarted, SIDES, evolver, impossible, initial, other, wound
from tracker.rules.rocet.events import (
    RocetCardChosen, RocetCardDiscarded, RocetCardsDrawn, RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined,
    RocetDeckShuffled, RocetDuelistFell, RocetTurnResolved, RocetTurnTied,
)
from tracker.rules.rocet.effects import turn_effect
from tracker.rules.rocet.invariants import ENDINGS
from tracker.rules.rocet.terms import A_MUERTE_CLOCK, HAND, VENTAJA, advantage, compare
from tracker.rules.rocet.describe import describe, ending_detail
from tracker.rules.rocet.results import result
from tracker.rules.text import t

QUIET = (RocetCardsDrawn, RocetCardsPlayed)  # folded into the turn's line in the history


def _working_copy(state: dict) -> dict:
    """A copy ``apply`` may change in place: new dicts for what it changes in place (the top,
    each side, each deck, the fallen); the lists inside are only ever replaced, never changed,
    so they are shared, and a long duel costs no more to fold per event than a short one."""
    return dict(state, sides={k: dict(v) for k, v in state["sides"].items()},
                decks={k: dict(v) for k, v in state["decks"].items()}, fallen=dict(state["fallen"]))


def offered(pending: dict | None) -> list[dict]:
    """The damage on offer, each ``{"source", "amount"}``. A state folded before the offers were
    keyed ``source`` (they said ``kind``) is read the same, so a duel stored mid-offer plays on."""
    return [{"source": o.get("source", o.get("kind")), "amount": o["amount"]} for o in (pending or {}).get("offers", [])]


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
        fallen={}, last_turn=None, tie=None, sealed={},
    )
    return state


def _mutate(ev, state: dict, at: int) -> dict:
    """The state after one of Rocèt's own events, changed on a working copy."""
    return apply(ev, _working_copy(state), at)


@by_type
def apply(ev, state: dict, at: int) -> dict:
    """Apply ``ev`` to the working copy ``state`` in place, and return it."""
    raise TypeError(f"not a Rocèt event: {type(ev).__name__}")


@apply.register
def _(ev: RocetDeckShuffled, state, at):
    deck = state["decks"][ev.deck]
    if ev.reason == "reshuffle":
        _reshuffled(state, deck, ev)
        deck.update(discard=[], discard_size=0)
    deck.update(pile=list(ev.cards), pile_size=ev.count)
    return state


@apply.register
def _(ev: RocetCardsDrawn, state, at):
    deck, hand = state["decks"][deck_of(state, ev.side)], state["sides"][ev.side]
    if ev.count > deck["pile_size"] or hand["hand_size"] + ev.count > HAND:
        impossible(f"{ev.count} cards drawn to a hand of {hand['hand_size']} from a pile of {deck['pile_size']}")
    if state["mode"] == "virtual" and list(ev.cards) != deck["pile"][:ev.count]:
        impossible(f"drew {', '.join(ev.cards)} but the pile's top holds {', '.join(deck['pile'][:ev.count])}")
    deck.update(pile=deck["pile"][ev.count:], pile_size=deck["pile_size"] - ev.count)
    hand.update(hand=hand["hand"] + list(ev.cards), hand_size=hand["hand_size"] + ev.count)
    return state


def _may_play(state: dict, turn: int) -> bool:
    return not (turn != state["turn"] + 1 or state["table"] or state["pending_discard"] or state["pending_down"]
                or (state["pending_damage"] or {}).get("win"))


@apply.register
def _(ev: RocetCardChosen, state, at):
    if not _may_play(state, ev.turn):
        impossible(f"a card chosen for turn {ev.turn} where the duel could not play it")
    held = state["sides"][ev.side]
    if not held["hand_size"] or (state["mode"] == "virtual" and ev.card not in held["hand"]):
        impossible(f"{held['name']} chose {ev.card}, not in hand")
    state["sealed"] = {**state.get("sealed", {}), ev.side: {"card": ev.card, "dice": list(ev.dice)}}
    return state


@apply.register
def _(ev: RocetCardsPlayed, state, at):
    if not _may_play(state, ev.turn):
        impossible(f"turn {ev.turn} played where the duel could not play it")
    sealed = state.get("sealed") or {}
    if sealed and {side: choice["card"] for side, choice in sealed.items()} != {"a": ev.card_a, "b": ev.card_b}:
        impossible(f"turn {ev.turn} laid cards that were not the ones chosen in secret")
    state["sealed"] = {}
    state.update(turn=ev.turn, table={"a": ev.card_a, "b": ev.card_b})
    for side, card in (("a", ev.card_a), ("b", ev.card_b)):
        _take(state["sides"][side], card, state["mode"])
    state.update(pending_damage=None)  # playing on lets the damage nobody dealt lapse
    return state


@apply.register
def _(ev: RocetTurnTied, state, at):
    bonus = {side: VENTAJA if advantage(**_cards_of(state)) == side else 0 for side in SIDES}
    if not state["table"] or ev.turn != state["turn"] or not ev.rolls or any(
            compare(r[:2], r[2:], bonus["a"], bonus["b"]) != "tie" for r in ev.rolls):
        impossible(f"turn {ev.turn} recorded as tied with rolls that do not tie")
    earlier = (state.get("tie") or {}).get("rolls", [])
    state["tie"] = {"turn": ev.turn, "rolls": earlier + [list(r) for r in ev.rolls]}
    return state


def _cards_of(state: dict) -> dict:
    return {"card_a": state["table"]["a"], "card_b": state["table"]["b"]}


@apply.register
def _(ev: RocetCardDiscarded, state, at):
    sides = state["sides"]
    if state["pending_discard"] != ev.side or (not ev.card and sides[ev.side]["hand_size"]):
        impossible("a discard nobody owed")
    if ev.card:
        _take(sides[ev.side], ev.card, state["mode"])
        _to_discard(state, ev.side, ev.card)
    state["pending_discard"] = None
    return state


@apply.register
def _(ev: RocetDamageDeclined, state, at):
    if not state["pending_damage"] or state["pending_damage"]["side"] != ev.side:
        impossible("damage declined that was not on offer")
    state["pending_damage"] = None
    return state


@apply.register
def _(ev: RocetDuelistFell, state, at):
    if state["pending_down"] != ev.side:
        impossible("a fall ruled on a duelist not at 0 PG")
    state["fallen"][ev.side] = ev.condition
    state["pending_down"] = None
    return state


def _reshuffled(state: dict, deck: dict, ev: RocetDeckShuffled) -> None:
    """A reshuffle forms the new pile from exactly the discards, once the pile ran out."""
    if deck["pile_size"] or ev.count != deck["discard_size"]:
        impossible(f"a reshuffle of {ev.count} cards with {deck['pile_size']} still in the pile "
                   f"and {deck['discard_size']} discarded")
    if state["mode"] == "virtual" and sorted(ev.cards) != sorted(deck["discard"]):
        impossible("a reshuffle of cards that were not the discards")


def _take(duelist: dict, card: str, mode: str) -> None:
    """Take ``card`` from the hand; a card that is not there is an impossible history."""
    if mode == "virtual":
        if card not in duelist["hand"]:
            impossible(f"{duelist['name']} played or discarded {card}, not in hand ({', '.join(duelist['hand'])})")
        hand = list(duelist["hand"])
        hand.remove(card)
        duelist.update(hand=hand, hand_size=len(hand))
        return
    if duelist["hand_size"] == 0:
        impossible(f"{duelist['name']} played or discarded a card from an empty hand")
    duelist["hand_size"] -= 1


def _to_discard(state: dict, side: str, card: str) -> None:
    deck = state["decks"][deck_of(state, side)]
    deck.update(discard=deck["discard"] + [card], discard_size=deck["discard_size"] + 1)


@apply.register
def _resolved(ev: RocetTurnResolved, state: dict, at: int) -> dict:
    sides, winner = state["sides"], ev.winner
    loser = other(winner)
    if state["table"] != {"a": ev.card_a, "b": ev.card_b} or ev.turn != state["turn"]:
        impossible(f"turn {ev.turn} resolved with cards that were not on the table")
    bonus = {side: VENTAJA if ev.advantage == side else 0 for side in SIDES}
    if ev.advantage != advantage(ev.card_a, ev.card_b) or not ev.rolls \
            or compare(ev.rolls[-1][:2], ev.rolls[-1][2:], bonus["a"], bonus["b"]) != winner:
        impossible(f"turn {ev.turn}'s rolls do not give it to side {winner}")
    tied = (state.get("tie") or {}).get("rolls", [])
    if [list(r) for r in ev.rolls[:len(tied)]] != tied:
        impossible(f"turn {ev.turn} resolved without the tied rolls it recorded")
    moved = turn_effect(state, ev.card_a, ev.card_b, winner)  # from the state as it is now
    if (moved["win"], list(moved["offers"]), moved["completed"]) != (ev.win, list(ev.offers), ev.completed):
        impossible(f"turn {ev.turn} recorded {ev.win or 'no win'} and offers {list(ev.offers)}, "
                   f"but from this state it gives {moved['win'] or 'no win'} and {moved['offers']}")
    sides["a"]["clock"], sides["b"]["clock"] = moved["clocks"]["a"], moved["clocks"]["b"]
    state["meter"] = moved["meter"]
    for side, card in (("a", ev.card_a), ("b", ev.card_b)):
        _to_discard(state, side, card)
    state["table"], state["tie"] = None, None
    if ev.pm_damage:
        target = sides[loser]
        taken = min(ev.pm_damage, target["pm"])
        target["pm"] -= taken
        state = wound(state, target["id"], "PM", taken, at, t("Insulto, turn {turn}", turn=ev.turn))
    state["pending_discard"] = loser if ev.discard_owed else None
    weapon = sides[winner]["weapon"]["damage"]
    amounts = {"attack": ev.ta + weapon, "clock": weapon}
    state["pending_damage"] = None if not ev.offers else {
        "side": winner, "target": loser, "ta": ev.ta, "win": ev.win,
        "offers": [{"source": source, "amount": amounts[source]} for source in ev.offers],
    }
    card = ev.card_a if winner == "a" else ev.card_b
    state["last_turn"] = {"turn": ev.turn, "winner": winner, "card": card, "ta": ev.ta,
                          "cards": {"a": ev.card_a, "b": ev.card_b}, "advantage": ev.advantage,
                          "rolls": [list(r) for r in ev.rolls], "at": at}  # the turn's wounds come from ``at`` on
    return state


@apply.register
def _damage(ev: RocetDamageDealt, state: dict, at: int) -> dict:
    pending, loser = state["pending_damage"], other(ev.side)
    amounts = {o["source"]: o["amount"] for o in offered(pending)}
    if not pending or pending["side"] != ev.side or amounts.get(ev.source) != ev.amount:
        impossible(f"{ev.amount} {ev.source} damage dealt that was not on offer")
    target = state["sides"][loser]
    taken = min(ev.amount, target["pg"])
    target["pg"] -= taken
    note = t("{weapon}, turn {turn}", weapon=state["sides"][ev.side]["weapon"]["name"], turn=state["turn"])
    state = wound(state, target["id"], "PG", taken, at, note)
    left = [o for o in offered(pending) if o["source"] != ev.source]
    state["pending_damage"] = dict(pending, offers=left) if left else None
    if target["pg"] == 0 and loser not in state["fallen"]:
        state["pending_down"] = loser
    return state


evolve = evolver(_started, _mutate, describe, ENDINGS, quiet=QUIET, result=result,
                 adjustable=adjustable_tracks, set_track=set_track, ending_detail=ending_detail)
