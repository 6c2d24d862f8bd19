"""What every ruleset shares: a refusal's field, and how an outcome reads for each kind of ending."""
from __future__ import annotations

import pytest

from tracker.rules.base import Refused
from tracker.rules.duel import finish

from tests.unit.test_pirate import Duel


def test_a_refusal_names_its_field_or_the_whole_form():
    assert Refused("too far", field="distance").fields == {"distance": "too far"}
    assert Refused("not now").fields == {"__all__": "not now"}
    assert Refused("not now").message == "not now"


@pytest.mark.parametrize("winner, ending, detail, results, summary", [
    (None, "abandoned", "", "abandoned", "abandoned"),
    (None, "abandoned", "rain", "abandoned", "abandoned"),
    (None, "points_tied", "", "draw", "a draw (points tied)"),
    (None, "out_of_shots", "both fired 6", "draw", "a draw (both fired 6)"),
    ("a", "first_blood", "", None, "Inés won by first blood"),
    ("b", "points", "5 to 3", None, "Lope won by points (5 to 3)"),
])
def test_each_outcome_reads_as_it_ended(winner, ending, detail, results, summary):
    state = finish(Duel("sword").state, winner, ending, detail)
    outcome = state["outcome"]
    expected = {"ines": results, "lope": results} if results else \
        {"ines": "win" if winner == "a" else "loss", "lope": "win" if winner == "b" else "loss"}
    assert outcome == {"winner": winner, "ending": ending, "detail": detail, "results": expected, "summary": summary}
