"""The duel rulesets: one module each behind the same small face, listed in one registry.

A ruleset module provides:

- ``NAME`` (stored in DuelStarted), ``TITLE``, ``KINDS`` (kind -> label);
- ``STATS``: the fields of the character stats block it needs, and ``validate_stats(raw)``
  returning clean stats or raising ``Invalid``; ``TRACKS``: the damage tracks it keeps
  ((track, label, stat holding the maximum));
- ``SETUP``: the fields of the duel set-up form, and ``start(setup, duelists, dice)``
  returning the first events of a duel (DuelStarted first) or raising ``Refused``;
- ``COMMANDS``: command name -> command class; ``decide(state, command, dice)`` returning
  the events that follow, or raising ``Refused``;
- ``evolve(state, event, at)`` -> new state (``at`` is the event's version in the duel stream);
- ``actions(state)``: the command names legal now; ``describe(state, event)``: the event in
  plain language (``state`` is the state before it); ``public(state)``: the state with
  secrets removed (hands, hidden skills, GM notes);
- ``retraction_carries(target, later)``: which later events a retraction must take with it.
  ``target`` is the first event of the command being retracted, ``later`` the (version, event)
  of every event still standing after that command; it returns the versions that go too (the
  core takes each of their commands whole). ``duel.whole_suffix`` (all of them: the duel
  rewinds to just before the command) unless the ruleset knows better; ``duel.suffix_except``
  names events nothing stands on (a note), taken back alone and left standing by a rewind;
- ``invariants(state)``: what a state the rules can reach always satisfies, as a list of the
  violations in plain language (empty when it holds): written once, checked by the property
  tests after every command and retraction. ``evolve`` raises ``ImpossibleHistory`` rather
  than fold an event the state could not have produced, and ``decide`` refuses to produce one.

Optional: ``MAX_PER_SIDE`` (duelists a side may field; 1 when absent) and
``CAMPAIGN_SETTINGS`` with ``validate_campaign_settings(raw)`` (what a campaign keeps for every
duel of the ruleset, e.g. the pirate insult table, pre-filling the set-up form).

The state is plain JSON-able data. It always holds ``outcome`` (None while the duel runs)
and ``wounds`` (the damage the duel dealt, each with the ``at`` of the event that dealt it).

Every ruleset package has the same files for the same roles (its ``__init__`` only gathers them):

- ``terms.py``: ``NAME``, ``TITLE``, ``KINDS`` and the game's vocabulary and constants;
- ``sheet.py``: ``STATS``, ``TRACKS``, ``validate_stats``;
- ``setup.py``: ``SETUP`` and ``start``;
- ``commands.py``: the command classes and ``COMMANDS``;
- ``events.py``: the ruleset's own events;
- ``decide.py``: ``decide``: the common endings, then a table command type -> handler;
- ``fold.py``: ``evolve``, built by ``duel.evolver`` from the ruleset's ``started(event)`` and its
  ``functools.singledispatch`` mutators: the skeleton (the start, the common endings and
  checks, the history line, never changing the input) is written once, in ``duel``;
- ``describe.py``: ``describe``, each event in plain language;
- ``view.py``: ``public``, ``actions``, ``progress``, ``assumptions`` (and what the page draws);
- ``invariants.py``: ``invariants`` and ``ENDINGS``, the checks an ending must pass.

Anything else in a package is a helper of one game (Rocèt's ``effects``, the pirate ``rolls``,
PF2e's ``checks``, ``table``, ``rounds``, ``strikes``, ``spells``, ``ending``). What every
ruleset shares lives beside them: ``base`` (the refusals), ``fields`` (form fields and commands
built from them), ``dice`` (the dice tray), ``dice_expr`` (damage expressions), ``state``
(copying a state) and ``duel`` (the common events, endings and the evolve skeleton).
"""
from __future__ import annotations

from types import ModuleType

RULESETS: dict[str, ModuleType] = {}


def register(module: ModuleType) -> ModuleType:
    RULESETS[module.NAME] = module
    return module


def get(name: str) -> ModuleType:
    return RULESETS[name]


def _load() -> None:
    from tracker.rules import pf2e, pirate, rocet

    for module in (rocet, pirate, pf2e):
        register(module)


_load()
