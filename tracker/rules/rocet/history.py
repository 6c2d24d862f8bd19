"""What a Rocèt duel leaves in the duel history: every card laid, and whether it won its turn."""
from __future__ import annotations

from tracker.rules.contract import Fact, Headline, HistoryFacts, Statistic, Step

from .terms import critical, fumble
from tracker.rules.text import t, tn

TURNS_LABEL = t("turns")


def count_turns(count: int):
    """How many turns a duel lasted, in words ("1 turn", "3 turns")."""
    return tn("{count} turn", "{count} turns", count)
HISTORY_EVENTS = ("RocetTurnResolved",)
STATISTICS = (Statistic("cards"),)


def history_facts(state: dict, events: list) -> HistoryFacts:
    """DEPENDS ON the state's ``turn`` and ``sides[side]["id"]`` and RocetTurnResolved (``turn``,
    ``card_a``, ``card_b``, ``winner``)."""
    cards = [Fact("cards", state["sides"][side]["id"], card, round=ev.turn, won=ev.winner == side)
             for ev in events for side, card in (("a", ev.card_a), ("b", ev.card_b))]
    return HistoryFacts(state["turn"], tuple(cards))


# --- time travel and the recap's headline -------------------------------------------------------

TURN_OPENERS = ("RocetCardsPlayed", "RocetTurnResolved")  # a command starting with one plays a new turn


def step_of(state: dict, event) -> Step:
    """A Rocèt turn is its own round: cards laid and resolved open the next turn; damage, a
    discard or a fall belong to the turn just resolved. Damage that lapsed was recorded by the next
    turn's cards, so it opens that turn."""
    if type(event).__name__ in TURN_OPENERS or getattr(event, "lapsed", False):
        return Step(t("Turn {turn}", turn=state["turn"] + 1))
    return Step(t("Turn {turn}", turn=state["turn"]) if state["turn"] else t("Before the first turn"))


def headline(state: dict, events) -> Headline:
    """DEPENDS ON RocetTurnResolved (``turn``, ``card_a``, ``card_b``, ``winner``, ``rolls``,
    ``pm_damage``, ``win``) and RocetDamageDealt (``side``, ``amount``); ``sides[side]["name"]``."""
    names = {side: s["name"] for side, s in state["sides"].items()}
    turns = [ev for _, ev in events if type(ev).__name__ == "RocetTurnResolved"]
    hits = []  # (amount, track, turn, who)
    turn, marks = 0, []
    for _, ev in events:
        kind = type(ev).__name__
        if kind == "RocetTurnResolved":
            turn = ev.turn
            if ev.pm_damage:
                hits.append((ev.pm_damage, "PM", turn, names[ev.winner], t("Insulto")))
            last = ev.rolls[-1] if ev.rolls else ()
            for side, pair in (("a", tuple(last[:2])), ("b", tuple(last[2:4]))):
                if len(pair) == 2 and critical(pair):
                    marks.append(t("{name} rolled a critical (double {value}) in turn {turn}", name=names[side],
                                   value=pair[0], turn=turn))
                elif len(pair) == 2 and fumble(pair):
                    marks.append(t("{name} fumbled (double 1s) in turn {turn}", name=names[side], turn=turn))
        elif kind == "RocetDamageDealt":
            hits.append((ev.amount, "PG", turn, names[ev.side], t("their weapon")))
    decisive = ""
    # The turn that won it; after a yield or a disqualification, the winner's last turn won.
    winner = (state.get("outcome") or {}).get("winner")
    deciding = next((ev for ev in reversed(turns) if ev.win), None) or \
        next((ev for ev in reversed(turns) if winner and ev.winner == winner), None)
    if deciding is not None:
        card = deciding.card_a if deciding.winner == "a" else deciding.card_b
        beaten = deciding.card_b if deciding.winner == "a" else deciding.card_a
        decisive = t("turn {turn}: {name}'s {card} against {beaten}", turn=deciding.turn,
                     name=names[deciding.winner], card=card, beaten=beaten)
    biggest = ""
    if hits:
        amount, track, at, who, how = max(hits, key=lambda h: h[0])  # the first of equal hits
        biggest = t("{name} dealt {amount} {track} with {how} in turn {turn}", name=who, amount=amount, track=track,
                    how=how, turn=at)
    return Headline(decisive=decisive, biggest=biggest, criticals=tuple(marks))
