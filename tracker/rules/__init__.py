"""The duel rulesets: one package each behind the same face, listed in one registry.

The face (names, stats block, set-up, commands, ``decide``, ``evolve``, what the pages and the
table display show, retraction dependencies, invariants, history facts, statistics, secrets and
sample duels) is declared once in ``tracker.rules.contract``; ``register`` refuses a module that
lacks part of it. Adding a ruleset means its package, its docs and one line in ``_load`` below.

A duel's state is plain JSON-able data. It always holds ``outcome`` (None while the duel runs)
and ``wounds`` (the damage the duel dealt, each with the ``at`` of the event that dealt it).
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


def _load() -> None:
    from tracker.rules import pf2e, pirate, rocet

    for module in (rocet, pirate, pf2e):
        register(module)


_load()
