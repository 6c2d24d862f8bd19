"""Pirate duels: sword, pistol and duelo de labia (wit), d20 against a defence.

The face every ruleset shares (see ``tracker.rules``); the work is split by idea:
``sheet`` (stats, weapons, insult table), ``setup`` (terms and assumptions), ``commands``,
``events``, ``rolls`` (d20, Ventaja/Desventaja, initiative), ``play`` (decide) and
``fold`` (evolve and describe).
"""
from __future__ import annotations

from tracker.rules.duel import suffix_except

from .commands import COMMANDS
from .events import PirateWorthinessMarked
from .fold import describe, evolve, round_word
from .invariants import invariants
from .decide import ACTION, VERB, decide, fallen
from .setup import KINDS, NAME, SETUP, assumptions, start
from .sheet import DEFAULT_INSULTS, STATS, TRACKS, insult_lines, parse_insults, validate_stats

TITLE = "Pirate duels"

# A worthiness mark has no effect on the rules: it is taken back alone, and a rewind leaves it
# standing. Every other event stands on the ones before it (initiative, PV, CAR, shots).
retraction_carries = suffix_except(PirateWorthinessMarked)

# What a campaign keeps for every pirate duel it starts: its own insult table ([assumed]: an
# editable table per campaign), which pre-fills the set-up form; each duel stores the table it used.
CAMPAIGN_SETTINGS = tuple(f for f in SETUP if f.name == "insults")


def validate_campaign_settings(raw) -> dict:
    """The campaign's insult table, checked and written back as the text lines the form shows."""
    from tracker.rules.base import Invalid

    try:
        return {"insults": insult_lines(parse_insults(raw.get("insults")))}
    except ValueError as problem:
        raise Invalid({"insults": str(problem)}) from None

__all__ = ["NAME", "TITLE", "KINDS", "STATS", "TRACKS", "SETUP", "COMMANDS", "DEFAULT_INSULTS",
           "validate_stats", "start", "decide", "evolve", "actions", "describe", "public",
           "assumptions", "warnings", "progress", "retraction_carries", "invariants"]

ENDINGS = ["MarkWorthiness", "Yield", "Disqualify", "Abandon"]


def actions(state: dict) -> list[str]:
    """The command names legal now: a fall to rule on, initiative, or the next strike."""
    if state["outcome"]:
        return []
    if fallen(state):
        return ["RecordFall"] + ENDINGS
    if state["phase"] == "initiative":
        return ["RollInitiative"] + ENDINGS
    return [ACTION[state["kind"]]] + ENDINGS


def public(state: dict) -> dict:
    """Nothing is secret in a pirate duel: every roll is made in the open."""
    return dict(state)


def warnings(state: dict) -> list[str]:
    """Where the agreed terms can kill a duelist (fixed when the duel started)."""
    return list(state["settings"].get("warnings", []))


def progress(state: dict) -> str:
    """Where the duel stands, e.g. "Round 2: Lope to attack"."""
    if state["outcome"]:
        return "Over: " + state["outcome"]["summary"]
    word = round_word(state)
    sudden = " (sudden death)" if state["sudden_death"] else ""
    side = fallen(state)
    if side:
        return f"{word} {state['round']}: {state['fighters'][side]['name']} is at 0 PV"
    if state["phase"] == "initiative":
        return f"{word} {state['round'] + 1}{sudden}: initiative"
    due = state["order"][state["turn"]]
    return f"{word} {state['round']}{sudden}: {state['fighters'][due]['name']} to {VERB[state['kind']]}"
