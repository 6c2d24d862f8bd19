"""The duel rulesets: one package each behind the same face, listed in one registry.

The face (names, stats block, set-up, commands, ``decide``, ``evolve``, what the pages and the
table display show, retraction dependencies, invariants, history facts, statistics, secrets and
sample duels) is declared once in ``tracker.rules.contract``; ``register`` refuses a module that
lacks part of it. Adding a ruleset means its package, its docs and one line in ``_load`` below.

A duel's state is plain JSON-able data. It always holds ``outcome`` (None while the duel runs)
and ``wounds`` (the damage the duel dealt, each with the ``at`` of the event that dealt it).

Every ruleset package has the same files for the same roles (its ``__init__`` only gathers them):

- ``terms.py``: ``NAME``, ``TITLE``, ``KINDS`` and the game's vocabulary and constants;
- ``sheet.py``: ``STATS``, ``TRACKS``, ``validate_stats``;
- ``setup.py``: ``SETUP`` and ``start``;
- ``commands.py``: the command classes and ``COMMANDS``;
- ``events.py``: the ruleset's own events;
- ``decide.py``: ``decide``: the common endings, then a table command type -> handler;
- ``fold.py``: ``evolve``, built by ``duel.evolver`` from the ruleset's ``started(event)`` and its
  mutators dispatched by event type (``dispatch.by_type``, a ``singledispatch``): the skeleton (the start, the common endings and
  checks, the history line, never changing the input) is written once, in ``duel``;
- ``describe.py``: ``describe``, each event in plain language;
- ``view.py``: ``public``, ``actions``, ``progress``, ``assumptions`` (and what the page draws);
- ``legal.py``: ``legal_actions``, the legal next actions as data (the page's forms and the API);
- ``results.py``: ``result``, the numbers of each resolved step (its history line's ``result``);
- ``invariants.py``: ``invariants`` and ``ENDINGS``, the checks an ending must pass;
- ``history.py``: the facts its duels leave for the history and the statistics they feed, where
  each command falls among rounds and turns (``step_of``, for time travel) and the facts a
  recap's headline tells (``headline``);
- ``secrecy.py``: what stays secret from the players (the recap and the table display ask it);
- ``samples.py``: two sample duellists, set-ups and a scripted duel, for tests, benches and the demo.
- ``recovery.py``: ``RECOVERIES`` and ``recover``, how a character gets points back between duels
  (every ruleset has a ``rest``; each rule marked [base] or [assumed] as the rules page marks it).

Its page templates live in ``templates/duels/<NAME>/``, and its words in its own gettext catalog,
``translations/<lang>/LC_MESSAGES/messages.po`` (its Python and its templates; ``tracker.i18n.catalogs``
extracts and compiles it). Every word a ruleset gives a person to read is a ``text.Text``: a
message id with its values, read in the reader's language when rendered; game terms (card names,
PG, PV, Strike…) keep their original names in every language.

Anything else in a package is a helper of one game (Rocèt's ``effects``, the pirate ``rolls``,
PF2e's ``checks``, ``table``, ``rounds``, ``strikes``, ``spells``, ``ending``, ``conditions``). What every
ruleset shares lives beside them: ``base`` (the refusals), ``fields`` (form fields and commands
built from them), ``dice`` (the dice tray), ``dice_expr`` (damage expressions), ``state``
(copying a state), ``legal`` (legal actions as data) and ``duel`` (the common events, endings and
the evolve skeleton).
"""
from __future__ import annotations

from types import ModuleType

RULESETS: dict[str, ModuleType] = {}


def register(module: ModuleType) -> ModuleType:
    """List ``module`` as a ruleset, once it shows the whole face the core asks for."""
    from tracker.rules import contract

    lacking = contract.missing(module)
    if lacking:
        raise TypeError(f"ruleset {getattr(module, 'NAME', module.__name__)} lacks {', '.join(lacking)}")
    kinds = {s.kind for other in RULESETS.values() if other.NAME != module.NAME for s in other.STATISTICS}
    clash = kinds & {s.kind for s in module.STATISTICS}
    if clash:
        raise TypeError(f"ruleset {module.NAME} counts statistics another ruleset counts: {', '.join(sorted(clash))}")
    RULESETS[module.NAME] = module
    return module


def get(name: str) -> ModuleType:
    return RULESETS[name]


def shipped() -> list[ModuleType]:
    """The rulesets Touché ships, in registry order (tests may register more)."""
    return [module for module in RULESETS.values() if module.__name__.startswith(f"{__name__}.")]


def sealed_view(event_type: str, data: dict) -> dict:
    """An event's data as any reader may see it: the fields its ruleset seals (``SEALED``, e.g. a
    card chosen in secret) shown as "sealed", whoever asks."""
    for module in RULESETS.values():
        hidden = getattr(module, "SEALED", {}).get(event_type)
        if hidden:
            return {k: ("sealed" if k in hidden else v) for k, v in data.items()}
    return data


def table_view(module, state: dict) -> dict:
    """A duel's state as the table display may carry it, page and JSON alike: the ruleset's public
    view, less what no player reads on the display: the GM's notes (a public note is the recap's)
    and each duelist's stat block, narrowed to the stats the display draws (``TABLE_STATS``,
    else the tracks' maxima)."""
    shown = dict(module.public(state))
    shown["notes"] = [note for note in shown.get("notes", []) if note.get("public")]
    drawn = set(getattr(module, "TABLE_STATS", ())) | {track["max_stat"] for track in getattr(module, "TRACKS", ())}
    shown["duelists"] = [dict(d, stats={k: v for k, v in (d.get("stats") or {}).items() if k in drawn})
                         if "stats" in d else d for d in shown.get("duelists", [])]
    return shown


def event_seen_by(event_type: str, data: dict, audience: str, state: dict | None = None) -> dict:
    """An event's data as ``audience`` may see it, the one view every output of a single event
    (an event page, a command's answer) goes through: sealed fields as "sealed" for everyone
    (``sealed_view``), then what the event's ruleset hides from this reader in the duel's ``state``
    (``event_seen_by``: a hand dealt to a seat, a shuffled pile), as its pages hide it."""
    shown = sealed_view(event_type, data)
    if state is None:
        return shown
    for module in RULESETS.values():
        hide = getattr(module, "event_seen_by", None)
        if hide is not None:
            shown = hide(event_type, shown, state, audience)
    return shown


def _load() -> None:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    from tracker.rules import pf2e, pirate, rocet

    for module in (rocet, pirate, pf2e):
        register(module)


_load()
