"""PF2e conditions set by hand: frightened N and off-guard added or removed at any moment of a
running duel, then ruled like any other (frightened drops at the end of a turn, off-guard lowers
AC); a change to what already holds is refused."""
from tracker.rules import pf2e
from tracker.rules.pf2e.commands import EndTurn, Strike
from tracker.rules.pf2e.conditions import SetCondition

from tests.unit.test_pf2e_edges import two_fighters


def test_frightened_set_by_hand_is_ruled_like_any_other():
    d = two_fighters(victory="knockout")
    events = d.do(SetCondition("k", "frightened", 2, "the dragon's roar"))
    assert d.types(events) == ["Pf2eConditionSet"] and d.frightened("k") == 2
    assert d.state["history"][-1]["text"] == "Kyra is frightened 2 (set by hand: the dragon's roar)."
    d.do(EndTurn())                        # Valeros's turn ends; Kyra acts
    d.do(EndTurn())                        # Kyra's turn ends: frightened drops by 1
    assert d.frightened("k") == 1
    d.do(SetCondition("k", "frightened", 0))
    assert d.frightened("k") == 0 and d.state["history"][-1]["text"] == "Kyra is no longer frightened (set by hand)."
    assert d.replays()


def test_off_guard_set_by_hand_lowers_ac_until_removed():
    d = two_fighters(victory="knockout")
    d.do(SetCondition("k", "off_guard", 1, "prone"))
    assert "k" in d.state["off_guard"]
    ac = d.state["duelists"][1]["stats"]["ac"]
    [rolled] = d.do(Strike(damage=1), attack=[2])[:1]
    assert rolled.ac == ac - 2  # off-guard: −2 AC against the Strike
    d.do(SetCondition("k", "off_guard", 0))
    assert "k" not in d.state["off_guard"]
    assert d.state["history"][-1]["text"] == "Kyra is no longer off-guard (set by hand)."


def test_setting_what_already_holds_is_refused_and_any_moment_of_the_duel_allows_it():
    d = two_fighters(victory="knockout")
    assert d.refused(SetCondition("k", "frightened", 0)) == "Kyra is already not frightened"
    assert d.refused(SetCondition("nobody", "frightened", 1)) == "choose a duelist of this duel"
    d.do(SetCondition("v", "frightened", 1))
    assert d.refused(SetCondition("v", "frightened", 1)) == "Valeros is already frightened 1"
    assert "SetCondition" in pf2e.actions(d.state)
