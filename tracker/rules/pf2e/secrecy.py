"""What only the GM knows in a PF2e duel: each duelist's secret initiative skill and tradition focus,
and which log lines would give them away."""
from __future__ import annotations

from tracker.rules.text import t

from .terms import HIDDEN_FROM_PLAYERS  # noqa: F401  (the ruleset's list; kept beside the vocabulary so the history's lines can read it)


# What the GM's narrative adds beside a line: the secret the event holds and the line omits.
GM_DETAILS = {"Pf2eInitiativeRolled": lambda data: t("rolled {skill}", skill=str(data.get("skill", "?")).capitalize())}


def secrets(state: dict) -> list:
    """The last round's initiative skills and each tradition focus, in words."""
    names = {d["id"]: d["name"] for d in state["duelists"]}
    found = [t("{name} rolled {skill} for initiative in the last round", name=names.get(who, who), skill=roll["skill"])
             for who, roll in sorted((state.get("rolls") or {}).items())
             if isinstance(roll, dict) and roll.get("skill")]
    found += [t("{name}'s tradition focus: {focus}", name=names.get(who, who), focus=focus)
              for who, focus in sorted((state.get("focus") or {}).items()) if focus]
    return found


# The fields of an event no reader is ever shown (the log's event pages, the API's answers): a skill
# chosen in secret is rolled by the next Pf2eInitiativeRolled, which the GM may read.
SEALED = {"Pf2eSkillChosen": ("skill", "die")}


def seen_by(state: dict, audience: str) -> dict:
    """The state as one reader may see it, decided here and nowhere else: a skill chosen in secret
    only as "has chosen" (its own seat sees it); the GM's pages and the API the rest; a seat the
    public state, plus its own duelists' rolled skills, reactions and a reaction prompt meant for
    them; the table display and the players' recap the public state."""
    from tracker.rules.pf2e.view import public

    sealed = state.get("sealed") or {}
    if audience in ("gm", "api"):
        shown = dict(state)
    else:
        shown = public(state)
    mine = set()
    if audience.startswith("seat:"):
        side = audience.removeprefix("seat:")
        mine = {d["id"] for d in state["duelists"] if d["side"] == side}
        shown["rolls"] = {who: (roll if who in mine else {"total": roll["total"]})
                          for who, roll in state["rolls"].items()}
        shown["reaction"] = {who: r for who, r in state["reaction"].items() if who in mine}
        shown["reacted"] = {who: r for who, r in state["reacted"].items() if who in mine}
        shown["readied"] = {who: r for who, r in (state.get("readied") or {}).items() if who in mine}
        shown["focus"] = {who: f for who, f in state["focus"].items() if who in mine}
        shown["refocus"] = {who: f for who, f in state["refocus"].items() if who in mine}
        pending = state.get("pending") or {}
        mine_to_answer = (pending.get("kind") == "strike" and pending.get("target") in mine) or \
            (pending.get("kind") == "spell" and pending.get("caster") not in mine)
        shown["pending"] = pending if pending and mine_to_answer else None
    dice = state.get("sealed_dice") or {}
    shown.pop("sealed_dice", None)
    shown["sealed"] = {who: ({"skill": skill, "die": dice.get(who, 0)} if who in mine else {})
                       for who, skill in sealed.items()}
    shown["chosen"] = sorted(sealed)
    return shown
