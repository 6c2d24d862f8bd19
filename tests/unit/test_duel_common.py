"""What every ruleset shares: a refusal's field, and how an outcome reads for each kind of ending."""
from __future__ import annotations

import pytest

from tracker.rules.base import Refused
from tracker.rules.duel import ending_problems, finish

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


# --- the invariants every outcome keeps --------------------------------------------------------

def ended(winner, ending, **results):
    """The sword duel's state ended as ``finish`` ends it, its results then overwritten."""
    state = finish(Duel("sword").state, winner, ending, "")
    state["outcome"]["results"].update(results)
    return state


def points_need_a_lead(state, winner):
    return "" if winner == "a" else "the points do not favour that side"


SUPPORTED = {"points": points_need_a_lead}


@pytest.mark.parametrize("state", [
    ended("a", "points"), ended("b", "yield"), ended(None, "points_tied"), ended(None, "abandoned"),
    finish(Duel("sword").state, None, "points_tied", "") | {"outcome": None},
])
def test_an_outcome_that_follows_from_its_winner_and_ending_has_no_problem(state):
    assert ending_problems(state, SUPPORTED) == []


@pytest.mark.parametrize("state, problems", [
    (ended("a", "yield", lope="win"), ["Lope's result does not follow from the winner"]),
    (ended("b", "yield", lope="loss"), ["Lope's result does not follow from the winner"]),
    (ended(None, "points_tied", ines="loss"), ["Inés's result does not follow from the winner"]),
    (ended(None, "points_tied", ines="abandoned", lope="abandoned"),
     ["Inés's result does not follow from the winner", "Lope's result does not follow from the winner"]),
    (ended(None, "abandoned", lope="draw"), ["Lope's result does not follow from the winner"]),
    (ended("b", "points"), ["the duel ended by points but the points do not favour that side"]),
])
def test_a_result_or_an_ending_the_state_does_not_support_is_named(state, problems):
    assert ending_problems(state, SUPPORTED) == problems


# --- how an ending is said ----------------------------------------------------------------------

def test_an_ending_nobody_named_is_said_as_its_key_in_words():
    from tracker.rules.duel import ENDING_LABELS, ending_label
    from tracker.rules.text import Text

    assert ending_label("out_of_shots_twice") == "out of shots twice"
    label = ending_label("yield")
    assert label is ENDING_LABELS["yield"] and isinstance(label, Text)


def test_an_old_ending_s_detail_was_its_sentence():
    from tracker.rules.duel import detail_was_a_sentence

    assert detail_was_a_sentence({"side": "a", "ending": "points", "detail": "5 to 3"}) == \
        {"side": "a", "ending": "points", "sentence": "5 to 3"}
    assert detail_was_a_sentence({"side": "a", "ending": "points"}) == {"side": "a", "ending": "points", "sentence": ""}


def test_an_ending_s_detail_is_the_old_sentence_else_the_ruleset_s_else_the_gm_s_words():
    from tracker.rules.duel import DuelWon, told_detail

    state = Duel("sword").state
    won = DuelWon(side="a", ending="points", detail="by the judge's count")
    assert told_detail(state, won, None) == "by the judge's count"
    assert told_detail(state, won, lambda s, ev: None) == "by the judge's count"
    assert told_detail(state, won, lambda s, ev: f"{len(s['duelists'])} fought") == "2 fought"
    old = DuelWon(side="a", ending="points", sentence="as written then")
    assert told_detail(state, old, lambda s, ev: "never asked") == "as written then"
