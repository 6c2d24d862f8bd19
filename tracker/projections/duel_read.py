"""A duel as the JSON API answers it, for one audience: its row, the state that audience may see,
the numbers of every resolved step, the legal next actions and the assumptions in force.

The audience's view is the ruleset's own (``public`` for the table, as the table display draws
it), so the API never shows what the page would not: no hand, no hidden initiative skill.
"""
from __future__ import annotations

from tracker import rules
from tracker.projections import queries
from tracker.rules import legal


def duel_read(db, duel_id: str, audience: str = legal.GM) -> dict:
    """The duel for ``audience`` (``legal.GM`` or ``legal.TABLE``)."""
    row = queries.duel(db, duel_id)
    module = rules.get(row["ruleset"])
    state = row.pop("state")
    # The ruleset's one say on who sees what: the GM through the API never sees a sealed choice.
    shown = module.seen_by(state, "api") if audience == legal.GM else rules.table_view(module, state)
    return {**row, "audience": audience,
            "steps": steps(shown), "legal_actions": offered(module, shown, audience),
            "adjustable_tracks": module.adjustable_tracks(state)
            if audience == legal.GM and not state.get("outcome") else [],
            "assumptions": module.assumptions(state), "state": shown}


def offered(module, shown: dict, audience: str) -> list[dict]:
    """The legal next actions of a state as ``audience`` sees it (``shown``)."""
    return module.legal_actions(shown, audience)


def next_actions(db, duel_id: str) -> tuple[dict, list[dict], dict]:
    """The duel's row (its version, status), its legal next actions for the GM through the API as
    its read gives them (the GM's view, no steps: what a command's answer carries) and its whole
    state (for the policy's narrowing)."""
    row = queries.duel(db, duel_id)
    module = rules.get(row["ruleset"])
    state = row.pop("state")
    return row, offered(module, module.seen_by(state, "api"), legal.GM), state


def steps(state: dict) -> list[dict]:
    """Each resolved step's numbers, oldest first: ``at`` (the stream version of its event), the
    event type and the ruleset's fields (roll totals, hit or miss, degree of success…)."""
    return [{"at": line["at"], **line["result"]} for line in state.get("history", []) if line.get("result")]
