"""Conditions the GM adds or removes by hand: frightened N and off-guard, when the table says so
(a spell the tracker does not model, a ruling, a forgotten effect). The command, its event, its
decision, its line and its fold, in one place; the rules' own conditions (Bullying Press, Sense
Weakness, the drop at the end of a turn) stay where they are decided."""
from __future__ import annotations

from tracker.domain.events import event
from tracker.rules.base import Refused
from tracker.rules.duel import impossible
from tracker.rules.fields import Field, command

from .commands import COMMANDS
from .describe import _line
from .events import DUELIST
from .fold import fold
from .table import name
from tracker.rules.text import t

CONDITIONS = {"frightened": t("Frightened"), "off_guard": t("Off-guard (−2 AC)")}
CONDITION_CHOICES = tuple(CONDITIONS.items())


@command
class SetCondition:
    """Add a condition (frightened N, off-guard) to a duelist, or remove it (value 0), by hand."""

    FIELDS = (Field("duelist", t("Duelist"), "character"),
              Field("condition", t("Condition"), "choice", choices=CONDITION_CHOICES),
              Field("value", t("Value"), "int", default=1, minimum=0, maximum=4,
                    help=t("frightened 1 to 4; 0 removes the condition (off-guard: 1 adds, 0 removes)")),
              Field("reason", t("Why"), "text", required=False, maximum=200,
                    help=t("e.g. the dragon's frightful presence")))
    TITLE = t("Set a condition by hand")
    duelist: str
    condition: str
    value: int = 1
    reason: str | None = None


@event
class Pf2eConditionSet:
    """The GM set a duelist's condition by hand: frightened to ``value``, off-guard on (1) or off (0)."""

    LABEL = t("PF2e: condition set")

    REFERENCES = {"duelist": DUELIST}

    duelist: str
    condition: str  # "frightened" or "off_guard"
    value: int
    reason: str = ""


def decide(state: dict, cmd: SetCondition) -> list:
    """Set the condition, or refuse: a duelist of this duel, a known condition, a real change."""
    if cmd.duelist not in state["hp"]:
        raise Refused(t("choose a duelist of this duel"), field="duelist")
    value = cmd.value if cmd.condition == "frightened" else min(cmd.value, 1)
    now = state["frightened"][cmd.duelist] if cmd.condition == "frightened" \
        else int(cmd.duelist in state["off_guard"])
    if value == now:
        who = name(state, cmd.duelist)
        if cmd.condition == "frightened":
            reason = (t("{name} is already frightened {value}", name=who, value=now) if now
                      else t("{name} is already not frightened", name=who))
        else:
            reason = t("{name} is already off-guard", name=who) if now else t("{name} is already not off-guard", name=who)
        raise Refused(reason, field="value")
    return [Pf2eConditionSet(duelist=cmd.duelist, condition=cmd.condition, value=value, reason=cmd.reason or "")]


@fold.register
def _(e: Pf2eConditionSet, state, at):
    if e.duelist not in state["hp"] or e.condition not in CONDITIONS or not 0 <= e.value <= 4:
        impossible(f"a condition set on {e.duelist} the duel does not know")
    if e.condition == "frightened":
        return dict(state, frightened={**state["frightened"], e.duelist: e.value})
    others = [i for i in state["off_guard"] if i != e.duelist]
    return dict(state, off_guard=sorted(others + ([e.duelist] if e.value else [])))


@_line.register
def _(e: Pf2eConditionSet, state):
    who = name(state, e.duelist)
    if e.condition == "frightened":
        what = t("{name} is frightened {value}", name=who, value=e.value) if e.value \
            else t("{name} is no longer frightened", name=who)
    else:
        what = t("{name} is off-guard (−2 AC)", name=who) if e.value else t("{name} is no longer off-guard", name=who)
    if e.reason:
        return t("{what} (set by hand: {reason}).", what=what, reason=e.reason)
    return t("{what} (set by hand).", what=what)


COMMANDS["SetCondition"] = SetCondition
