"""A duel as the JSON API answers it, for one audience: its row, the state that audience may see,
the numbers of every resolved step, the legal next actions and the assumptions in force.

The audience's view is the ruleset's own (``public`` for the table, as the table display draws
it), so the API never shows what the page would not: no hand, no hidden initiative skill.
"""
from __future__ import annotations

from collections.abc import Callable

from tracker import rules
from tracker.projections import queries, windows
from tracker.rules import legal


def duel_read(db, duel_id: str, audience: str = legal.GM, steps_since: int | None = None,
              history_before: int | None = None) -> dict:
    """The duel for ``audience`` (``legal.GM`` or ``legal.TABLE``); with ``steps_since``, only the
    steps (and the state's history lines, wounds and adjustments) logged after that version, so a client that follows a
    long duel is sent what is new, not the whole duel again (``steps_since`` in the read says so).
    Without it, the history lines and steps of the latest ``windows.SPAN`` versions (of those before
    version ``history_before``), and ``earlier`` the version to ask the lines before them with."""
    return read_and_state(db, duel_id, audience, steps_since, history_before)[0]


def read_and_state(db, duel_id: str, audience: str = legal.GM, steps_since: int | None = None,
                   history_before: int | None = None,
                   seated: Callable[[dict], dict] = lambda state: state) -> tuple[dict, dict]:
    """``duel_read`` and the whole state it was drawn from (its history trimmed as the read's),
    for the policy's narrowing without a second read of the duel. ``seated``: the state as it
    stands with its live seats (``policy.as_seated``, which this layer may not call)."""
    # Trimmed as it is read back (nothing but the steps reads the history), so a read late in a
    # long duel revives, copies and sends only a window of it, or what is new.
    if steps_since is not None:
        row = queries.duel_to_read(db, duel_id, since=steps_since)
    else:
        row = queries.duel_to_read(db, duel_id, before=history_before, span=windows.SPAN)
    module = rules.get(row["ruleset"])
    state, window = seated(dict(row.pop("state"))), row.pop("window")  # a copy: the state read is shared
    # The ruleset's one say on who sees what: the GM through the API never sees a sealed choice.
    shown = module.seen_by(state, "api") if audience == legal.GM else rules.table_view(module, state)
    return {**row, "audience": audience, "steps_since": steps_since, "history_before": history_before,
            "earlier": window.earlier,
            "steps": steps(shown, steps_since), "legal_actions": offered(module, shown, audience),
            "adjustable_tracks": module.adjustable_tracks(state)
            if audience == legal.GM and not state.get("outcome") else [],
            "assumptions": module.assumptions(state), "state": dated_since(shown, steps_since)}, state


def offered(module, shown: dict, audience: str) -> list[dict]:
    """The legal next actions of a state as ``audience`` sees it (``shown``)."""
    return module.legal_actions(shown, audience)


def next_actions(db, duel_id: str,
                 seated: Callable[[dict], dict] = lambda state: state) -> tuple[dict, list[dict], dict]:
    """The duel's row (its version, status), its legal next actions for the GM through the API as
    its read gives them (the GM's view, no steps: what a command's answer carries) and its whole
    state (for the policy's narrowing); ``seated`` as ``read_and_state``'s."""
    row = queries.duel(db, duel_id)
    module = rules.get(row["ruleset"])
    state = seated(row.pop("state"))
    return row, offered(module, module.seen_by(state, "api"), legal.GM), state


def steps(state: dict, since: int | None = None) -> list[dict]:
    """Each resolved step's numbers, oldest first: ``at`` (the stream version of its event), the
    event type and the ruleset's fields (roll totals, hit or miss, degree of success…); with
    ``since``, only those logged after that version."""
    return [{"at": line["at"], **line["result"]} for line in state.get("history", [])
            if line.get("result") and (since is None or line["at"] > since)]


# The other dated lists a state keeps (each entry with the ``at`` of its event), trimmed from what a
# read with ``steps_since`` sends, but only once the rules have read the state whole.
DATED = ("wounds", "adjustments")


def dated_since(shown: dict, since: int | None) -> dict:
    """The state as sent: with ``since``, its wounds and adjustments logged after that version only."""
    if since is None:
        return shown
    return {**shown, **{name: [entry for entry in shown[name] if not isinstance(entry, dict)
                               or not isinstance(entry.get("at"), int) or entry["at"] > since]
                        for name in DATED if isinstance(shown.get(name), list)}}
