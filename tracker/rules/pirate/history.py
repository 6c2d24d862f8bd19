"""What a pirate duel leaves in the duel history: every insult tried in a duelo de labia."""
from __future__ import annotations

from tracker.rules.contract import Fact, Headline, HistoryFacts, Statistic, Step

from .terms import VERB, round_word

TURNS_LABEL = "rounds"
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
    word = round_word(state)
    kind = type(event).__name__
    if kind == "PirateInitiativeRolled":
        return Step(f"{word} {state['round'] + 1}", "initiative")
    if kind in BLOWS and state["phase"] == "act" and state["order"]:
        who = state["fighters"][state["order"][state["turn"]]]["name"]
        return Step(f"{word} {state['round']}", f"{who} {VERB[state['kind']]}s")
    return Step(f"{word} {state['round']}" if state["round"] else "Before the first round")


def headline(state: dict, events) -> Headline:
    """DEPENDS ON the blows' ``round``, ``side``, ``d20``, ``hit``, ``damage`` (and an insult's
    ``insult``, a sword's or pistol's ``weapon``); ``fighters[side]["name"]``."""
    word = round_word(state).lower()
    names = {side: f["name"] for side, f in state["fighters"].items()}
    blows = [ev for _, ev in events if type(ev).__name__ in BLOWS]
    hits = [ev for ev in blows if ev.hit and ev.damage]
    wit = state["kind"] == "wit"
    track = "CAR" if wit else "PV"
    marks = [f"{names[ev.side]} rolled a natural {ev.d20} in {word} {ev.round}" for ev in blows if ev.d20 in (1, 20)]

    def told(ev) -> str:
        how = f"“{ev.insult}”" if wit else ev.weapon
        return f"{names[ev.side]}'s {how} for {ev.damage} {track} in {word} {ev.round}"

    biggest = max(hits, key=lambda ev: ev.damage, default=None)
    winner = (state.get("outcome") or {}).get("winner")
    deciding = next((ev for ev in reversed(hits) if ev.side == winner), None) if winner else None
    return Headline(decisive=told(deciding) if deciding else "", biggest=told(biggest) if biggest and not wit else "",
                    criticals=tuple(marks), best_line=told(biggest) if biggest and wit else "")
