"""Rocèt's decisions: a command and the state give new events, or a refusal the GM reads."""
from __future__ import annotations

import dataclasses

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import (
    DuelDrawn, DuelWon, SIDES, decider, other,
)
from tracker.rules.rocet.commands import (
    ChooseCard, ConfirmDeath, ConfirmUnconscious, DealDamage, DeclineDamage, Discard, PlayTurn, RerollTie, RevealCards,
)
from tracker.rules.rocet.events import (
    RocetCardChosen, RocetCardDiscarded, RocetCardsDrawn, RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined,
    RocetDeckShuffled, RocetDuelistFell, RocetTurnResolved, RocetTurnTied,
)
from tracker.rules.rocet.effects import turn_effect
from tracker.rules.rocet.fold import deck_of, evolve, offered
from tracker.rules.rocet.terms import HAND, VENTAJA, advantage, compare, effect
from tracker.rules.text import Text, join, t

MAX_ROLLS = 50


def _name(state: dict, side: str) -> str:
    return state["sides"][side]["name"]


def _blocking(state: dict) -> Text | None:
    """Why no turn may be played yet, or None."""
    damage, down = state["pending_damage"], state["pending_down"]
    if state.get("tie"):
        return t("turn {turn}'s roll tied: reroll it first", turn=state["tie"]["turn"])
    if damage and damage["win"]:
        return t("first settle the damage: {name} may deal it or decline, then the duel is won",
                 name=_name(state, damage["side"]))
    if down:
        return t("{name} is at 0 PG: confirm whether they are unconscious or dead first", name=_name(state, down))
    if state["pending_discard"]:
        return t("{name} must first discard a card of their choice", name=_name(state, state["pending_discard"]))
    return None


# --- a turn ----------------------------------------------------------------------------

def _play(state: dict, cmd: PlayTurn, dice: Dice) -> list:
    if sealed_choices(state):
        raise Refused(t("in this duel each side chooses its card in secret (on a seat, or the NPC's on "
                        "this page): choose, then reveal"), field="card_a")
    blocked = _blocking(state)
    if blocked:
        raise Refused(blocked)
    cards = {"a": cmd.card_a, "b": cmd.card_b}
    for side in SIDES:
        _check_card(state, side, cards[side], f"card_{side}")
    return _turn(state, cards, dice)


def _check_card(state: dict, side: str, card: str, field: str) -> None:
    held = state["sides"][side]
    if held["hand_size"] == 0:
        raise Refused(t("{name} holds no card to play", name=held["name"]), field=field)
    if state["mode"] == "virtual" and card not in held["hand"]:
        raise Refused(t("that card is not in {name}'s hand", name=held["name"]), field=field)


def _turn(state: dict, cards: dict, dice: Dice) -> list:
    """Both cards turned over: damage still on offer lapses (recorded as declined), the cards are
    laid, both draw back up to three, the opposed roll resolves the turn."""
    events = _lapsed(state)
    events.append(RocetCardsPlayed(turn=state["turn"] + 1, card_a=cards["a"], card_b=cards["b"]))
    scratch = state
    for ev in events:
        scratch = evolve(scratch, ev, 0)
    for side in SIDES:
        scratch = _draw(scratch, side, dice, events)
    return events + _settle(scratch, cards, dice, ())


def _reroll(state: dict, cmd: RerollTie, dice: Dice) -> list:
    tie = state.get("tie")
    if not tie:
        raise Refused(t("no tie to reroll: only a turn whose opposed roll tied waits for a reroll"))
    return _settle(state, state["table"], dice, tuple(tuple(r) for r in tie["rolls"]))


def _settle(state: dict, cards: dict, dice: Dice, tied: tuple) -> list:
    """The turn on the table resolved by the opposed roll, or recorded as tied when the roll tied
    and no dice are left to reroll it (typed ones used up, no server roll): the reroll comes next."""
    rolls, bonus, result = _roll_off(state, cards, dice)
    if result == "tie":
        return [RocetTurnTied(turn=state["turn"], rolls=tuple(rolls))]
    resolved = _resolve(state, cards, tied + tuple(rolls), bonus, result)
    if resolved.win and not resolved.offers:
        return [resolved, DuelWon(side=resolved.winner, ending=resolved.win)]
    return [resolved]


def _left_by_an_ending(state: dict) -> list:
    """Damage still on offer when the duel ends another way (a yield, an abandonment…) is
    recorded as declined first, in the ending's own command."""
    return [dataclasses.replace(ev, lapsed=False, ended=True) for ev in _lapsed(state)]


def _lapsed(state: dict) -> list:
    """Nothing lapses silently: damage still on offer when the next turn is played, or when the
    duel ends another way (a yield, an abandonment…), is recorded as declined, in the same command,
    so the log and the recap say it was not dealt."""
    pending = state["pending_damage"]
    if not pending:
        return []
    return [RocetDamageDeclined(side=pending["side"], sources=tuple(o["source"] for o in offered(pending)),
                                lapsed=True)]


# --- sealed choices: each side chooses in secret, both are turned over at once ----------------

def sealed_choices(state: dict) -> bool:
    """True when this duel's cards are chosen in secret, side by side, rather than recorded by the GM."""
    return state["settings"].get("choices") == "sealed"


def _choose(state: dict, cmd: ChooseCard, dice: Dice) -> list:
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records both cards as they are revealed (Play a turn)"), field="card")
    blocked = _blocking(state)
    if blocked:
        raise Refused(blocked, field="card")
    turn = state["turn"] + 1
    if cmd.turn is not None and cmd.turn != turn:
        raise Refused(t("that choice was for turn {chosen}, and the duel is now at turn {turn}: choose again",
                        chosen=cmd.turn, turn=turn), field="card")
    _check_card(state, cmd.side, cmd.card, "card")
    by_seat = state["settings"].get("dice_by") == "seats"
    if by_seat and len(cmd.dice or ()) != 2:
        raise Refused(t("type what your DES and INT dice showed, e.g. “5 3” (ties are rerolled by the server)"),
                      field="dice")
    if by_seat:
        # Checked now, on the seat that typed them: found only at the reveal, a die no d{sides} shows
        # refused the rival's tap instead, told the rival the die, and wedged the duel.
        duelist = state["sides"][cmd.side]
        for sides, value, stat in zip((duelist["des"], duelist["int"]), cmd.dice, ("DES", "INT")):
            if not 1 <= value <= sides:
                raise Refused(t("your {stat} die is a d{sides}: it cannot show {value}", stat=stat, sides=sides,
                                value=value), field="dice")
    chosen = RocetCardChosen(turn=turn, side=cmd.side, card=cmd.card, dice=tuple(cmd.dice or ()) if by_seat else ())
    after = evolve(state, chosen, 0)
    if len(after["sealed"]) < 2 or not reveals_itself(state):
        return [chosen]
    return [chosen] + _reveal_sealed(after, dice)


def reveals_itself(state: dict) -> bool:
    """True when both sealed cards turn over the moment the second is chosen (no GM press, no table dice)."""
    settings = state["settings"]
    return settings.get("reveal", "auto") == "auto" and settings.get("dice_by", "server") != "table"


def _reveal(state: dict, cmd: RevealCards, dice: Dice) -> list:
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records both cards as they are revealed (Play a turn)"))
    blocked = _blocking(state)
    if blocked:
        raise Refused(blocked)
    waiting = [_name(state, side) for side in SIDES if side not in state.get("sealed", {})]
    if waiting:
        if len(waiting) == 2:
            raise Refused(t("waiting for {first} and {second} to choose", first=waiting[0], second=waiting[1]))
        raise Refused(t("waiting for {name} to choose", name=waiting[0]))
    return _reveal_sealed(state, dice)


def _reveal_sealed(state: dict, dice: Dice) -> list:
    sealed = state["sealed"]
    rolled = {side: sealed[side].get("dice") or () for side in SIDES}
    return _turn(state, {side: sealed[side]["card"] for side in SIDES}, dice.with_typed(rolled))


def _draw(state: dict, side: str, dice: Dice, events: list) -> dict:
    """Draw ``side`` back up to three, reshuffling the discards when the pile runs out."""
    while state["sides"][side]["hand_size"] < HAND:
        deck_key = deck_of(state, side)
        deck = state["decks"][deck_key]
        if deck["pile_size"] == 0:
            if not state["settings"]["reshuffle"] or deck["discard_size"] == 0:
                return state
            events.append(_reshuffle(state, deck_key, dice))
            state = evolve(state, events[-1], 0)
            continue
        count = min(HAND - state["sides"][side]["hand_size"], deck["pile_size"])
        cards = tuple(deck["pile"][:count]) if state["mode"] == "virtual" else ()
        events.append(RocetCardsDrawn(side=side, count=count, cards=cards))
        state = evolve(state, events[-1], 0)
    return state


def _reshuffle(state: dict, deck_key: str, dice: Dice) -> RocetDeckShuffled:
    discard = state["decks"][deck_key]["discard"]
    count = state["decks"][deck_key]["discard_size"]
    if state["mode"] != "virtual":
        return RocetDeckShuffled(deck=deck_key, count=count, reason="reshuffle")
    order = dice.permutation(count)
    return RocetDeckShuffled(deck=deck_key, count=count, reason="reshuffle", order=tuple(order),
                             cards=tuple(discard[i] for i in order))


def _roll_off(state: dict, cards: dict, dice: Dice) -> tuple[list, str, str]:
    """The opposed 【DES+INT】 rolls, ties rerolled while dice are given: (every roll, the side with
    Ventaja, the winner or "tie" when the last roll tied and neither side has a die left)."""
    bonus = advantage(cards["a"], cards["b"])
    rolls = []
    for _ in range(MAX_ROLLS):
        if rolls and not any(dice.can_roll(side) for side in SIDES):
            return rolls, bonus, "tie"
        pairs = {}
        for side in SIDES:
            duelist = state["sides"][side]
            what = t("a tie reroll") if rolls or state.get("tie") else t("{name}'s roll", name=duelist["name"])
            pairs[side] = (dice.roll(duelist["des"], side, t("DES, {what}", what=what)),
                           dice.roll(duelist["int"], side, t("INT, {what}", what=what)))
        rolls.append(pairs["a"] + pairs["b"])
        result = compare(pairs["a"], pairs["b"], VENTAJA if bonus == "a" else 0,
                         VENTAJA if bonus == "b" else 0)
        if result != "tie":
            return rolls, bonus, result
    raise Refused(t("{count} ties in a row: roll again", count=MAX_ROLLS))


def _resolve(state: dict, cards: dict, rolls: tuple, bonus: str, w: str) -> RocetTurnResolved:
    last = rolls[-1]
    ta = max(last[:2] if w == "a" else last[2:])
    moved = turn_effect(state, cards["a"], cards["b"], w)
    clocks, meter, win = moved["clocks"], moved["meter"], moved["win"]
    completed, offers, does = moved["completed"], moved["offers"], effect(cards[w])
    return RocetTurnResolved(
        turn=state["turn"], card_a=cards["a"], card_b=cards["b"], advantage=bonus,
        rolls=tuple(rolls), winner=w, ta=ta, clock_a=clocks["a"], clock_b=clocks["b"], meter=meter,
        pm_damage=ta if does == "insult" else 0, completed=completed,
        discard_owed=does == "discard" and not win, offers=tuple(offers), win=win)


# --- after the turn ----------------------------------------------------------------------

def _discard(state: dict, cmd: Discard, dice: Dice) -> list:
    owed = state["pending_discard"]
    if owed is None:
        raise Refused(t("no discard is owed: only the loser of a Treta or Finta turn discards"))
    if cmd.side != owed:
        raise Refused(t("{name} owes no discard: it is {owed}'s to make", name=_name(state, cmd.side),
                        owed=_name(state, owed)), field="side")
    held = state["sides"][owed]
    if held["hand_size"] == 0:
        return [RocetCardDiscarded(side=owed, card="")]
    if not cmd.card:
        raise Refused(t("say which card {name} discards (it is shown to all)", name=held["name"]), field="card")
    if state["mode"] == "virtual" and cmd.card not in held["hand"]:
        raise Refused(t("that card is not in {name}'s hand", name=held["name"]), field="card")
    return [RocetCardDiscarded(side=owed, card=cmd.card)]


def _no_damage(state: dict, declining: bool = False) -> Text:
    last = state["last_turn"]
    if last is None:
        return t("no damage to decline: no turn has been won yet") if declining else \
            t("no damage to deal: no turn has been won yet")
    if effect(last["card"]) != "attack":
        if declining:
            return t("no damage to decline: the winner's card was not an attack ({card})", card=last["card"])
        return t("no damage to deal: the winner's card was not an attack ({card})", card=last["card"])
    if declining:
        return t("no damage to decline: the damage of turn {turn} was already dealt or declined", turn=last["turn"])
    return t("no damage to deal: the damage of turn {turn} was already dealt or declined", turn=last["turn"])


def _deal(state: dict, cmd: DealDamage, dice: Dice) -> list:
    pending = state["pending_damage"]
    if pending is None:
        raise Refused(_no_damage(state), field="source")
    sources = [o["source"] for o in offered(pending)]
    source = cmd.source or sources[0]
    if source not in sources:
        raise Refused(t("no {source} damage on offer (on offer: {offers})", source=source, offers=join(sources)),
                      field="source")
    amount = next(o["amount"] for o in offered(pending) if o["source"] == source)
    weapon = state["sides"][pending["side"]]["weapon"]["damage"]
    events = [RocetDamageDealt(side=pending["side"], source=source, amount=amount,
                               ta=pending["ta"] if source == "attack" else 0, weapon_damage=weapon)]
    if pending["win"] and len(sources) == 1:
        events.append(_won(state, pending))
    return events


def _decline(state: dict, cmd: DeclineDamage, dice: Dice) -> list:
    pending = state["pending_damage"]
    if pending is None:
        raise Refused(_no_damage(state, declining=True))
    events = [RocetDamageDeclined(side=pending["side"], sources=tuple(o["source"] for o in offered(pending)))]
    if pending["win"]:
        events.append(_won(state, pending))
    return events


def _won(state: dict, pending: dict) -> DuelWon:
    return DuelWon(side=pending["side"], ending=pending["win"])


def _fallen(state: dict) -> str:
    down = state["pending_down"]
    if down is None:
        raise Refused(t("nobody is at 0 PG"))
    return down


def _unconscious(state: dict, cmd: ConfirmUnconscious, dice: Dice) -> list:
    down = _fallen(state)
    if state["variant"] == "a_muerte":
        raise Refused(t("a duel to the death ends only by death, yield or disqualification: "
                        "confirm the death, or record a yield"))
    return [RocetDuelistFell(side=down, condition="unconscious"),
            DuelWon(side=other(down), ending="unconscious")]


def _death(state: dict, cmd: ConfirmDeath, dice: Dice) -> list:
    down = _fallen(state)
    return [RocetDuelistFell(side=down, condition="dead"),
            DuelWon(side=other(down), ending="death")]


def _cards_out(state: dict, events: list) -> list:
    """[assumed] With no reshuffle, a duelist may be left with no card to play and none to draw:
    once nothing is left to settle (a tie, damage on offer, a discard, a fall), the duel ends
    there, a draw, because no further turn can be played."""
    after = state
    for ev in events:
        after = evolve(after, ev, 0)
    if (after["outcome"] or after.get("tie") or after["pending_damage"] or after["pending_discard"]
            or after["pending_down"]):
        return []
    if all(after["sides"][side]["hand_size"] for side in SIDES):
        return []
    return [DuelDrawn(ending="cards_out")]


def _then_cards_out(handler):
    # pragma: no mutate block (runs only at import, building HANDLERS)
    def handle(state: dict, cmd, dice: Dice) -> list:
        events = handler(state, cmd, dice)
        return events + _cards_out(state, events)

    return handle


HANDLERS = {command: _then_cards_out(handler) for command, handler in {
    PlayTurn: _play, RerollTie: _reroll, ChooseCard: _choose, RevealCards: _reveal, Discard: _discard,
    DealDamage: _deal, DeclineDamage: _decline, ConfirmUnconscious: _unconscious, ConfirmDeath: _death}.items()}
# The common endings first, then the command's own handler.
decide = decider(HANDLERS, left_behind=_left_by_an_ending)
