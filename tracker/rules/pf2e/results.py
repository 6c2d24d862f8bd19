"""The numbers of each resolved PF2e step, as data: the structured twin of its history line
(the initiative skill is the GM's: ``view.public`` keeps only the total for the players)."""
from __future__ import annotations

from tracker.rules.duel import fields_of

from . import events as ev_
from .terms import HIDDEN_FROM_PLAYERS

WITH_NUMBERS = (ev_.Pf2eInitiativeRolled, ev_.Pf2eRoundOrdered, ev_.Pf2eTieBroken, ev_.Pf2eStrikeRolled,
                ev_.Pf2eSidestepUsed, ev_.Pf2eDamageDealt, ev_.Pf2eFrightened, ev_.Pf2eOffGuard,
                ev_.Pf2eSpellCast, ev_.Pf2eCounterAttempted, ev_.Pf2eVictoryProposed, ev_.Pf2eTagged)
PUBLIC_INITIATIVE = ("event", "round", "duelist", "total")


def result(state: dict, ev) -> dict | None:
    """The numbers of ``ev``: Strike die, modifier, total, AC and degree of success; a counteract
    check's total, DC, degree and outcome; damage and HP after…; None for a step without any."""
    if isinstance(ev, ev_.Pf2eStrikeRolled):
        return fields_of(ev, "pending", waiting_for_reaction=ev.pending)
    if isinstance(ev, ev_.Pf2eSpellCast):
        return fields_of(ev, "pending", waiting_for_reaction=ev.pending)
    if isinstance(ev, WITH_NUMBERS + SECRET_STEPS):
        return fields_of(ev)
    return None


# Steps only the GM's log tells (a reaction readied, withdrawn or declined names the secret skill
# behind it): the recap's own list, so the table display leaves out exactly the lines it does.
SECRET_STEPS = tuple(getattr(ev_, kind) for kind in HIDDEN_FROM_PLAYERS)


def secret_line(line: dict) -> bool:
    """Whether a history line is one of ``SECRET_STEPS``, which the players' views leave out."""
    return (line.get("result") or {}).get("event") in {t.__name__ for t in SECRET_STEPS}


def public_line(line: dict) -> dict:
    """A history line as the players may see it: an initiative roll's total, never its skill."""
    numbers = line.get("result")
    if numbers and numbers["event"] == "Pf2eInitiativeRolled":
        return dict(line, result={k: numbers[k] for k in PUBLIC_INITIATIVE})
    return line
