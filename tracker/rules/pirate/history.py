"""What a pirate duel leaves in the duel history: every insult tried in a duelo de labia."""
from __future__ import annotations

from tracker.rules.contract import Fact, Headline, HistoryFacts, Statistic, Step

from .terms import ACTS, round_name
from tracker.rules.text import t, tn

TURNS_LABEL = t("rounds")
EXCHANGES_LABEL = t("exchanges")


def turns_label(kind: str):
    """What a duel of ``kind`` counts: a duelo de labia its exchanges, a fight its rounds."""
    return EXCHANGES_LABEL if kind == "wit" else TURNS_LABEL


def count_turns(count: int):
    """How many rounds a duel lasted, in words ("1 round", "3 rounds")."""
    return tn("{count} round", "{count} rounds", count)
HISTORY_EVENTS = ("PirateInsultTraded",)
STATISTICS = (Statistic("insults", sums={"damage": "amount"}),)


def history_facts(state: dict, events: list) -> HistoryFacts:
    """DEPENDS ON the state's ``round`` and ``fighters[side]["id"]`` and PirateInsultTraded
    (``side``, ``insult``, ``hit``, ``damage``); a miss deals no damage."""
    insults = [Fact("insults", state["fighters"][ev.side]["id"], ev.insult, won=ev.hit,
                    amount=ev.damage if ev.hit else 0) for ev in events]
    return HistoryFacts(state["round"], tuple(insults))


# --- time travel and the recap's headline -------------------------------------------------------

BLOWS = ("PirateSwordAttacked", "PirateShotFired", "PirateInsultTraded")


def step_of(state: dict, event) -> Step:
    """Initiative opens the next round (exchange); each blow, shot or insult is its duelist's turn;
    a fall or a mark belongs to the round it came in."""
    kind = type(event).__name__
    if kind == "PirateInitiativeRolled":
        return Step(round_name(state, state["round"] + 1), t("initiative"))
    if kind in BLOWS and state["phase"] == "act" and state["order"]:
        who = state["fighters"][state["order"][state["turn"]]]["name"]
        return Step(round_name(state, state["round"]), t(ACTS[state["kind"]], name=who))
    return Step(round_name(state, state["round"]) if state["round"] else t("Before the first round"))


def headline(state: dict, events) -> Headline:
    """DEPENDS ON the blows' ``round``, ``side``, ``d20``, ``hit``, ``damage`` (and an insult's
    ``insult``, a sword's or pistol's ``weapon``); ``fighters[side]["name"]``."""
    names = {side: f["name"] for side, f in state["fighters"].items()}
    blows = [ev for _, ev in events if type(ev).__name__ in BLOWS]
    hits = [ev for ev in blows if ev.hit and ev.damage]
    wit = state["kind"] == "wit"
    track = "CAR" if wit else "PV"
    marks = [t("{name} rolled a natural {roll} in {round}", name=names[ev.side], roll=ev.d20,
               round=round_name(state, ev.round, False)) for ev in blows if ev.d20 in (1, 20)]

    def told(ev):
        # The words the seat spoke are the line itself; the insult's kind says which it was.
        how = (f"“{ev.line}” ({ev.insult})" if ev.line else f"“{ev.insult}”") if wit else ev.weapon
        return t("{name}'s {how} for {damage} {track} in {round}", name=names[ev.side], how=how, damage=ev.damage,
                 track=track, round=round_name(state, ev.round, False))

    biggest = max(hits, key=lambda ev: ev.damage, default=None)
    winner = (state.get("outcome") or {}).get("winner")
    deciding = next((ev for ev in reversed(hits) if ev.side == winner), None) if winner else None
    return Headline(decisive=told(deciding) if deciding else "", biggest=told(biggest) if biggest and not wit else "",
                    criticals=tuple(marks), best_line=told(biggest) if biggest and wit else "")
