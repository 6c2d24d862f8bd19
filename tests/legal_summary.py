"""A ruleset's legal next actions for the GM, summed up for a test to compare whole."""
from __future__ import annotations

from types import ModuleType

from tracker.rules import legal

# Offered at every step of every ruleset, never narrowed to a side: the common endings.
ENDINGS = {"Abandon": (None, {}), "Disqualify": (None, {"side": ["a", "b"]}), "Yield": (None, {"side": ["a", "b"]})}


def summary(ruleset: ModuleType, state: dict) -> dict:
    """Each legal action as (side, {field: choices, field:dice: dice}) for the fields that have
    them, in the order the ruleset's ``actions`` names them, every one the GM's."""
    out = {}
    for action in ruleset.legal_actions(state, legal.GM):
        fields = {name: spec["choices"] for name, spec in action["fields"].items() if "choices" in spec}
        fields.update({f"{name}:dice": spec["dice"] for name, spec in action["fields"].items() if "dice" in spec})
        assert action["by"] == legal.GM
        out[action["type"]] = (action["side"], fields)
    assert list(out) == ruleset.actions(state)
    return out
