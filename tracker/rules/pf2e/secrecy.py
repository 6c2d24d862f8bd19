"""What only the GM knows in a PF2e duel: each duelist's secret initiative skill and tradition focus,
and which log lines would give them away."""
from __future__ import annotations

# A declined reaction is only ever logged when the defender (or an opponent) could have
# reacted, so the line alone tells players which secret skill or focus was behind it.
HIDDEN_FROM_PLAYERS = ("Pf2eSidestepDeclined", "Pf2eCounterDeclined")

# What the GM's narrative adds beside a line: the secret the event holds and the line omits.
GM_DETAILS = {"Pf2eInitiativeRolled": lambda data: f"rolled {str(data.get('skill', '?')).capitalize()}"}


def secrets(state: dict) -> list[str]:
    """The last round's initiative skills and each tradition focus, in words."""
    names = {d["id"]: d["name"] for d in state["duelists"]}
    found = [f"{names.get(who, who)} rolled {roll['skill']} for initiative in the last round"
             for who, roll in sorted((state.get("rolls") or {}).items())
             if isinstance(roll, dict) and roll.get("skill")]
    found += [f"{names.get(who, who)}'s tradition focus: {focus}"
              for who, focus in sorted((state.get("focus") or {}).items()) if focus]
    return found


def seen_by(state: dict, audience: str) -> dict:
    """The state as one reader may see it: the GM's pages and the API everything, players the public state."""
    if audience in ("gm", "api"):
        return state
    from tracker.rules.pf2e.view import public

    return public(state)
