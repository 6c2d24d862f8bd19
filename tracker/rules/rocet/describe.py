"""Rocèt in plain language: one line for the log per event."""
from __future__ import annotations

from tracker.rules.duel import DuelStarted, describe_ending, other
from tracker.rules.rocet.events import (
    RocetCardChosen, RocetCardDiscarded, RocetCardsDrawn, RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined,
    RocetDeckShuffled, RocetDuelistFell, RocetTurnResolved, RocetTurnTied,
)
from tracker.rules.rocet.terms import KINDS, VENTAJA, advantage, label

DECK_LABELS = {"shared": "the shared deck", "a": "side A's deck", "b": "side B's deck"}


def describe(state: dict | None, ev) -> str:
    """One line for the log, given the state before ``ev``."""
    if isinstance(ev, DuelStarted):
        return _started(ev)
    ending = describe_ending(state, ev)
    if ending is not None:
        return ending
    sides = state["sides"]
    if isinstance(ev, RocetDeckShuffled):
        if ev.reason == "reshuffle":
            return f"The pile of {DECK_LABELS[ev.deck]} ran out: {ev.count} discards shuffled into a new pile."
        return f"{DECK_LABELS[ev.deck].capitalize()} ({ev.count} cards) is shuffled."
    if isinstance(ev, RocetCardsDrawn):
        return f"{sides[ev.side]['name']} draws {_cards(ev.count)}."
    if isinstance(ev, RocetCardChosen):  # sealed: the line never names the card
        again = ev.side in (state.get("sealed") or {})
        return f"{sides[ev.side]['name']} has {'changed their' if again else 'chosen a'} card for turn {ev.turn}."
    if isinstance(ev, RocetCardsPlayed):
        return f"Turn {ev.turn}: both duelists lay a card face down and draw back up to three."
    if isinstance(ev, RocetTurnResolved):
        return _turn(state, ev)
    if isinstance(ev, RocetTurnTied):
        bonus = advantage(state["table"]["a"], state["table"]["b"])
        ties = "; ".join(f"{_roll(r[:2], 'a', bonus)} against {_roll(r[2:], 'b', bonus)}" for r in ev.rolls)
        return f"Turn {ev.turn}: the opposed roll ties ({ties}): reroll it."
    if isinstance(ev, RocetCardDiscarded):
        name = sides[ev.side]["name"]
        if not ev.card:
            return f"{name} owes a discard but holds no card: nothing is discarded."
        return f"{name} discards {ev.card} (shown): {_cards(max(0, sides[ev.side]['hand_size'] - 1))} in hand."
    if isinstance(ev, RocetDamageDealt):
        dealer, target = sides[ev.side], sides[other(ev.side)]
        after = max(0, target["pg"] - ev.amount)
        how = (f"TA {ev.ta} + {dealer['weapon']['name']} {ev.weapon_damage}" if ev.source == "attack"
               else f"completed clock: {dealer['weapon']['name']} {ev.weapon_damage}, TA=0")
        down = " — at 0 PG: the GM must say whether unconscious or dead" if after == 0 else ""
        return (f"{dealer['name']} deals {ev.amount} PG damage to {target['name']} ({how}): "
                f"{after}/{target['pg_max']} PG{down}.")
    if isinstance(ev, RocetDamageDeclined):
        if ev.lapsed:
            return (f"{sides[ev.side]['name']} did not deal the damage on offer: the next turn was "
                    "played, so it counts as declined.")
        return f"{sides[ev.side]['name']} chooses not to deal the damage on offer."
    if isinstance(ev, RocetDuelistFell):
        return f"{sides[ev.side]['name']} is {ev.condition}."
    return type(ev).__name__


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _started(ev: DuelStarted) -> str:
    s = ev.settings
    who = " vs ".join(f"{d['name']} ({d['weapon']['name']}, {d['weapon']['type']} {d['weapon']['damage']})"
                      for d in sorted(ev.duelists, key=lambda d: d["side"]))
    variant = KINDS[ev.kind].split(" (")[0]
    if ev.kind == "relojes":
        variant += f", {s['clock_size']} intervals"
    if ev.kind == "superioridad":
        variant += f", {s['meter_steps']} steps to each end"
    deck = "one 36-card deck shared" if s["deck"] == "shared" else "an 18-card deck each"
    return f"Rocèt duel ({variant}): {who}; {deck}, {s['cards']} cards."


def _roll(pair, side: str, bonus: str) -> str:
    """One side's roll: its total first, then the dice, e.g. "9 (3+2 +4)" or "12 (6+6 critical)"."""
    extra = VENTAJA if side == bonus else 0
    return f"{sum(pair) + extra} ({label(pair)}{f' +{extra}' if extra else ''})"


def _turn(state: dict, ev: RocetTurnResolved) -> str:
    sides = state["sides"]
    w, l = ev.winner, other(ev.winner)
    win_name, lose_name = sides[w]["name"], sides[l]["name"]
    plays = []
    for side, card, against in (("a", ev.card_a, ev.card_b), ("b", ev.card_b, ev.card_a)):
        bonus = f" (Ventaja +{VENTAJA} vs {against})" if advantage(ev.card_a, ev.card_b) == side else ""
        plays.append(f"{sides[side]['name']} plays {card}{bonus}")
    rolls = [f"{_roll(r[:2], 'a', ev.advantage)} vs {_roll(r[2:], 'b', ev.advantage)}" for r in ev.rolls]
    rolled = rolls[-1] + (f" (after ties rerolled: {'; '.join(rolls[:-1])})" if len(rolls) > 1 else "")
    card = ev.card_a if w == "a" else ev.card_b
    effects = _effects(state, ev, win_name, lose_name)
    return (f"Turn {ev.turn}: {', '.join(plays)}; {rolled}; {win_name} wins with {card} (TA {ev.ta})"
            + (": " + "; ".join(effects) if effects else "") + ".")


def _effects(state: dict, ev: RocetTurnResolved, win_name: str, lose_name: str) -> list[str]:
    parts, variant, size = [], state["variant"], state["clock_size"]
    clocks = {"a": ev.clock_a, "b": ev.clock_b}
    w, l = ev.winner, other(ev.winner)
    if variant in ("relojes", "a_muerte"):
        if ev.pm_damage:
            parts.append(f"{lose_name}'s clock {clocks[l]}/{size}")
        elif ev.completed:
            parts.append(f"{win_name}'s clock complete, starts again at {clocks[w]}/{size}")
        else:
            parts.append(f"{win_name}'s clock {clocks[w]}/{size}")
    if variant == "superioridad":
        parts.append("meter " + meter_text(state, ev.meter))
    if ev.pm_damage:
        parts.append(f"{lose_name} takes {ev.pm_damage} PM damage")
    if ev.discard_owed:
        parts.append(f"{lose_name} must discard a card")
    weapon = state["sides"][w]["weapon"]["damage"]
    offers = {"attack": f"{ev.ta + weapon} PG damage (TA {ev.ta} + {weapon})",
              "clock": f"{weapon} PG damage for the completed clock (TA=0)"}
    for kind in ev.offers:
        parts.append(f"{win_name} may deal {offers[kind]}")
    if ev.win:
        then = " once the damage is dealt or declined" if ev.offers else ""
        parts.append(f"{win_name} wins the duel ({ev.win.replace('_', ' ')}){then}")
    return parts


def meter_text(state: dict, meter: int) -> str:
    if meter == 0:
        return "at the middle"
    side = "a" if meter > 0 else "b"
    return f"{abs(meter)}/{state['meter_steps']} toward {state['sides'][side]['name']}"
