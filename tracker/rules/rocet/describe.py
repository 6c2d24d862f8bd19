"""Rocèt in plain language: one line for the log per event."""
from __future__ import annotations

from tracker.rules.duel import DuelStarted, DuelWon, describe_ending, ending_label, other
from tracker.rules.rocet.events import (
    RocetCardChosen, RocetCardDiscarded, RocetCardsDrawn, RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined,
    RocetDeckShuffled, RocetDuelistFell, RocetTurnResolved, RocetTurnTied,
)
from tracker.rules.rocet.terms import VARIANT_NAMES, VENTAJA, advantage, label
from tracker.rules.text import N_, Text, join, t, tn

DECK_LABELS = {"shared": t("the shared deck"), "a": t("side A's deck"), "b": t("side B's deck")}
DECKS_SHUFFLED = {"shared": t("The shared deck ({count} cards) is shuffled."),
                  "a": t("Side A's deck ({count} cards) is shuffled."),
                  "b": t("Side B's deck ({count} cards) is shuffled.")}


# How a win the rules found is told, by its ending: the winner's deed, or what befell the loser.
WINNER_DID = {"clock": N_("{name} completed their clock"), "first_blood": N_("{name} first blood"),
              "superiority": N_("{name} reached their end of the superiority meter")}
LOSER_SUFFERED = {"unconscious": N_("{name} fell unconscious"), "death": N_("{name} died")}


def ending_detail(state: dict, ev) -> Text | None:
    """How a ``DuelWon`` the rules decided came about, told from the state before it (the event
    holds only its winner and ending); None when the GM's own words tell it."""
    if not isinstance(ev, DuelWon) or ev.detail:
        return None
    if ev.ending in WINNER_DID:
        return t(WINNER_DID[ev.ending], name=state["sides"][ev.side]["name"])
    if ev.ending in LOSER_SUFFERED:
        return t(LOSER_SUFFERED[ev.ending], name=state["sides"][other(ev.side)]["name"])
    return None


def describe(state: dict | None, ev) -> Text:
    """One line for the log, given the state before ``ev``."""
    if isinstance(ev, DuelStarted):
        return _started(ev)
    ending = describe_ending(state, ev, ending_detail)
    if ending is not None:
        return ending
    sides = state["sides"]
    if isinstance(ev, RocetDeckShuffled):
        if ev.reason == "reshuffle":
            return t("The pile of {deck} ran out: {count} discards shuffled into a new pile.",
                     deck=DECK_LABELS[ev.deck], count=ev.count)
        shuffled = DECKS_SHUFFLED[ev.deck]
        return t(shuffled.msgid, count=ev.count)
    if isinstance(ev, RocetCardsDrawn):
        return t("{name} draws {cards}.", name=sides[ev.side]["name"], cards=_cards(ev.count))
    if isinstance(ev, RocetCardChosen):  # sealed: the line never names the card
        if ev.side in (state.get("sealed") or {}):
            return t("{name} has changed their card for turn {turn}.", name=sides[ev.side]["name"], turn=ev.turn)
        return t("{name} has chosen a card for turn {turn}.", name=sides[ev.side]["name"], turn=ev.turn)
    if isinstance(ev, RocetCardsPlayed):
        return t("Turn {turn}: both duelists lay a card face down and draw back up to three.", turn=ev.turn)
    if isinstance(ev, RocetTurnResolved):
        return _turn(state, ev)
    if isinstance(ev, RocetTurnTied):
        bonus = advantage(state["table"]["a"], state["table"]["b"])
        ties = join([t("{a} against {b}", a=_roll(r[:2], "a", bonus), b=_roll(r[2:], "b", bonus)) for r in ev.rolls],
                    "; ")
        return t("Turn {turn}: the opposed roll ties ({rolls}): reroll it.", turn=ev.turn, rolls=ties)
    if isinstance(ev, RocetCardDiscarded):
        name = sides[ev.side]["name"]
        if not ev.card:
            return t("{name} owes a discard but holds no card: nothing is discarded.", name=name)
        return t("{name} discards {card} (shown): {cards} in hand.", name=name, card=ev.card,
                 cards=_cards(max(0, sides[ev.side]["hand_size"] - 1)))
    if isinstance(ev, RocetDamageDealt):
        dealer, target = sides[ev.side], sides[other(ev.side)]
        after = max(0, target["pg"] - ev.amount)
        weapon = dealer["weapon"]["name"]
        how = (t("TA {ta} + {weapon} {damage}", ta=ev.ta, weapon=weapon, damage=ev.weapon_damage)
               if ev.source == "attack"
               else t("completed clock: {weapon} {damage}, TA=0", weapon=weapon, damage=ev.weapon_damage))
        values = dict(dealer=dealer["name"], amount=ev.amount, target=target["name"], how=how, after=after,
                      maximum=target["pg_max"])
        if after == 0:
            return t("{dealer} deals {amount} PG damage to {target} ({how}): {after}/{maximum} PG — at 0 PG: "
                     "the GM must say whether unconscious or dead.", **values)
        return t("{dealer} deals {amount} PG damage to {target} ({how}): {after}/{maximum} PG.", **values)
    if isinstance(ev, RocetDamageDeclined):
        if ev.ended:
            return t("{name} did not deal the damage on offer: the duel ended, so it counts as declined.",
                     name=sides[ev.side]["name"])
        if ev.lapsed:
            return t("{name} did not deal the damage on offer: the next turn was played, so it counts as declined.",
                     name=sides[ev.side]["name"])
        return t("{name} chooses not to deal the damage on offer.", name=sides[ev.side]["name"])
    if isinstance(ev, RocetDuelistFell):
        if ev.condition == "dead":
            return t("{name} is dead.", name=sides[ev.side]["name"])
        return t("{name} is unconscious.", name=sides[ev.side]["name"])
    return type(ev).__name__


def _cards(n: int) -> Text:
    return tn("{count} card", "{count} cards", n)


def _started(ev: DuelStarted) -> Text:
    s = ev.settings
    who = join([t("{name} ({weapon}, {type} {damage})", name=d["name"], weapon=d["weapon"]["name"],
                  type=d["weapon"]["type"], damage=d["weapon"]["damage"])
                for d in sorted(ev.duelists, key=lambda d: d["side"])], " vs ")
    variant = VARIANT_NAMES[ev.kind]
    if ev.kind == "relojes":
        variant = t("{variant}, {count} intervals", variant=variant, count=s["clock_size"])
    if ev.kind == "superioridad":
        variant = t("{variant}, {count} steps to each end", variant=variant, count=s["meter_steps"])
    deck = t("one 36-card deck shared") if s["deck"] == "shared" else t("an 18-card deck each")
    cards = t("virtual cards") if s["cards"] == "virtual" else t("physical cards")
    return t("Rocèt duel ({variant}): {duelists}; {deck}, {cards}.", variant=variant, duelists=who, deck=deck,
             cards=cards)


def _roll(pair, side: str, bonus: str) -> Text:
    """One side's roll: its total first, then the dice, e.g. "9 (3+2 +4)" or "12 (6+6 critical)"."""
    extra = VENTAJA if side == bonus else 0
    if extra:
        return t("{total} ({dice} +{bonus})", total=sum(pair) + extra, dice=label(pair), bonus=extra)
    return t("{total} ({dice})", total=sum(pair), dice=label(pair))


def _turn(state: dict, ev: RocetTurnResolved) -> Text:
    sides = state["sides"]
    w, l = ev.winner, other(ev.winner)
    win_name, lose_name = sides[w]["name"], sides[l]["name"]
    plays = []
    for side, card, against in (("a", ev.card_a, ev.card_b), ("b", ev.card_b, ev.card_a)):
        if advantage(ev.card_a, ev.card_b) == side:
            plays.append(t("{name} plays {card} (Ventaja +{bonus} vs {against})", name=sides[side]["name"],
                           card=card, bonus=VENTAJA, against=against))
        else:
            plays.append(t("{name} plays {card}", name=sides[side]["name"], card=card))
    rolls = [t("{a} vs {b}", a=_roll(r[:2], "a", ev.advantage), b=_roll(r[2:], "b", ev.advantage)) for r in ev.rolls]
    rolled = (t("{roll} (after ties rerolled: {ties})", roll=rolls[-1], ties=join(rolls[:-1], "; "))
              if len(rolls) > 1 else rolls[-1])
    card = ev.card_a if w == "a" else ev.card_b
    effects = _effects(state, ev, win_name, lose_name)
    values = dict(turn=ev.turn, plays=join(plays), rolled=rolled, winner=win_name, card=card, ta=ev.ta)
    if effects:
        return t("Turn {turn}: {plays}; {rolled}; {winner} wins with {card} (TA {ta}): {effects}.",
                 effects=join(effects, "; "), **values)
    return t("Turn {turn}: {plays}; {rolled}; {winner} wins with {card} (TA {ta}).", **values)


def _effects(state: dict, ev: RocetTurnResolved, win_name: str, lose_name: str) -> list[Text]:
    parts, variant, size = [], state["variant"], state["clock_size"]
    clocks = {"a": ev.clock_a, "b": ev.clock_b}
    w, l = ev.winner, other(ev.winner)
    if variant in ("relojes", "a_muerte"):
        if ev.pm_damage:
            parts.append(t("{name}'s clock {clock}/{size}", name=lose_name, clock=clocks[l], size=size))
        elif ev.completed:
            parts.append(t("{name}'s clock complete, starts again at {clock}/{size}", name=win_name, clock=clocks[w],
                           size=size))
        else:
            parts.append(t("{name}'s clock {clock}/{size}", name=win_name, clock=clocks[w], size=size))
    if variant == "superioridad":
        parts.append(t("meter {meter}", meter=meter_text(state, ev.meter)))
    if ev.pm_damage:
        parts.append(t("{name} takes {amount} PM damage", name=lose_name, amount=ev.pm_damage))
    if ev.discard_owed:
        parts.append(t("{name} must discard a card", name=lose_name))
    weapon = state["sides"][w]["weapon"]["damage"]
    for kind in ev.offers:
        if kind == "attack":
            parts.append(t("{name} may deal {total} PG damage (TA {ta} + {weapon})", name=win_name,
                           total=ev.ta + weapon, ta=ev.ta, weapon=weapon))
        else:
            parts.append(t("{name} may deal {weapon} PG damage for the completed clock (TA=0)", name=win_name,
                           weapon=weapon))
    if ev.win:
        if ev.offers:
            parts.append(t("{name} wins the duel ({ending}) once the damage is dealt or declined", name=win_name,
                           ending=ending_label(ev.win)))
        else:
            parts.append(t("{name} wins the duel ({ending})", name=win_name, ending=ending_label(ev.win)))
    return parts


def meter_text(state: dict, meter: int) -> Text:
    if meter == 0:
        return t("at the middle")
    side = "a" if meter > 0 else "b"
    return t("{steps}/{size} toward {name}", steps=abs(meter), size=state["meter_steps"],
             name=state["sides"][side]["name"])
