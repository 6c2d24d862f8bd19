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


# --- the common endings folded, and what the skeleton refuses ----------------------------------

@pytest.mark.parametrize("event, outcome", [
    ("DuelDrawn('points_tied')", {"winner": None, "ending": "points_tied", "detail": "", "results": "draw",
                                  "summary": "a draw (points tied)"}),
    ("DuelDisqualified('a', 'poison')", {"winner": "b", "ending": "disqualification", "detail": "Inés disqualified: poison",
                                         "results": None, "summary": "Lope won by disqualification (Inés disqualified: poison)"}),
    ("DuelDisqualified('b')", {"winner": "a", "ending": "disqualification", "detail": "Lope disqualified",
                               "results": None, "summary": "Inés won by disqualification (Lope disqualified)"}),
    ("DuelAbandoned('rain')", {"winner": None, "ending": "abandoned", "detail": "abandoned: rain",
                               "results": "abandoned", "summary": "abandoned"}),
    ("DuelAbandoned()", {"winner": None, "ending": "abandoned", "detail": "abandoned",
                         "results": "abandoned", "summary": "abandoned"}),
])
def test_each_common_ending_folds_to_its_whole_outcome(event, outcome):
    from tracker.rules import duel

    ev = eval(event, vars(duel))
    after = duel.evolve_ending(Duel("sword").state, ev)["outcome"]
    results = outcome["results"]
    expected = {"ines": results, "lope": results} if results else \
        {"ines": "win" if outcome["winner"] == "a" else "loss", "lope": "win" if outcome["winner"] == "b" else "loss"}
    assert after == dict(outcome, results=expected)


def test_tuples_are_kept_as_the_lists_json_gives_back():
    from tracker.domain.events import plain
    from tracker.rules.duel import DuelYielded, fields_of

    assert plain({"a": (1, (2, 3)), "b": [{"c": (4,)}], "d": "x"}) == {"a": [1, [2, 3]], "b": [{"c": [4]}], "d": "x"}
    assert fields_of(DuelYielded(side="a"), "detail", rolls=((1, 2), [3])) == {"side": "a", "rolls": [[1, 2], [3]]}


def test_a_command_without_a_handler_is_refused_by_its_name():
    from tracker.rules.duel import handled_by

    class Dance:
        pass

    with pytest.raises(Refused) as refused:
        handled_by({}, Duel("sword").state, Dance(), None)
    assert (refused.value.reason, refused.value.field) == ("unknown command Dance", None)
    assert handled_by({Dance: lambda state, cmd, dice: [len(state["duelists"])]}, Duel("sword").state, Dance(), None) == [2]


def test_the_fold_names_an_event_before_the_start_or_after_the_end():
    from tracker.rules import pirate
    from tracker.rules.base import ImpossibleHistory
    from tracker.rules.duel import DuelAbandoned, DuelNoted

    with pytest.raises(ImpossibleHistory, match="^a duel starts with DuelStarted$"):
        pirate.evolve(None, DuelNoted("x"), 1)
    over = pirate.evolve(Duel("sword").state, DuelAbandoned(), 5)
    with pytest.raises(ImpossibleHistory, match="^DuelAbandoned after the duel ended$"):
        pirate.evolve(over, DuelAbandoned(), 6)
    assert pirate.evolve(over, DuelNoted("after"), 6)["notes"][-1]["text"] == "after"


def test_every_duel_starts_from_the_same_keys():
    from tracker.rules.duel import DuelStarted, initial

    duelists = ({"id": "i", "name": "Inés", "side": "a"},)
    started = DuelStarted("d1", "c1", "s1", "pirate", "sword", duelists, {"x": 1}, challenger="b", stakes="honour",
                          judge="Don Rodrigo")
    state = initial(started)
    assert state == {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1", "ruleset": "pirate", "kind": "sword",
                     "duelists": [{"id": "i", "name": "Inés", "side": "a"}], "settings": {"x": 1},
                     "challenger": "b", "stakes": "honour", "judge": "Don Rodrigo", "outcome": None,
                     "wounds": [], "history": []}
    assert state["duelists"][0] is not duelists[0] and state["settings"] is not started.settings  # copies


def test_an_adjustment_of_someone_not_in_the_duel_is_told_by_their_id():
    from tracker.rules.duel import DuelTrackAdjusted, describe_ending

    state = Duel("sword").state
    said = describe_ending(state, DuelTrackAdjusted("ines", "PV", 1, 9, "healed"))
    assert said == "Inés's PV adjusted to 9 (healed)"
    assert describe_ending(state, DuelTrackAdjusted("ghost", "PV", 1, 9, "x")) == "ghost's PV adjusted to 9 (x)"


def test_an_ending_s_history_line_carries_its_winner_and_ending():
    from tracker.rules import pirate
    from tracker.rules.duel import DuelAbandoned, DuelYielded

    yielded = pirate.evolve(Duel("sword").state, DuelYielded("b"), 5)
    assert yielded["history"][-1]["result"] == {"event": "DuelYielded", "winner": "a", "ending": "yield"}
    abandoned = pirate.evolve(Duel("sword").state, DuelAbandoned("rain"), 5)
    assert abandoned["history"][-1]["result"] == {"event": "DuelAbandoned", "winner": None, "ending": "abandoned"}
