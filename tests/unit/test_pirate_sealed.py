"""Pirate wit duels with sealed insults: each side chooses its insult (and the line it will speak) in
secret; once both have chosen, the exchange is thrown in initiative order, the words quoted."""
from __future__ import annotations

import pytest

from tests import plain_json as json

from tests.unit.test_pirate import Duel, play
from tracker import rules
from tracker.rules import pirate
from tracker.rules.base import Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pirate.commands import ChooseInsult, Insult, RollInitiative, ThrowInsults
from tracker.rules.pirate.events import PirateInsultChosen

LINE = "You fight like a dairy farmer."


def sealed(**setup) -> Duel:
    return Duel("wit", choices="sealed", exchanges=3, **setup)


def test_a_sealed_insult_and_its_line_are_seen_by_nobody_but_its_own_seat():
    d = sealed()
    new = d.run(ChooseInsult(side="a", insult="burla ingeniosa", line=LINE, round=1))
    assert new == [PirateInsultChosen(round=1, side="a", insult="Burla ingeniosa", line=LINE)]
    assert d.state["history"][-1]["text"] == "Exchange 1: Inés has chosen an insult."
    for reader in ("gm", "api", "display", "recap", "seat:b"):
        view = pirate.seen_by(d.state, reader)  # the insult table itself is in the open, in the terms
        assert LINE not in json.dumps(view) and view["sealed"] == {"a": {}} and view["chosen"] == ["a"], reader
    assert pirate.seen_by(d.state, "seat:a")["sealed"] == {"a": {"insult": "Burla ingeniosa", "line": LINE, "die": 0}}
    assert rules.sealed_view("PirateInsultChosen", {"round": 1, "side": "a", "insult": "x", "line": "y"}) == \
        {"round": 1, "side": "a", "insult": "sealed", "line": "sealed"}


def test_both_chosen_throws_the_exchange_in_initiative_order_quoting_the_line():
    d = sealed()
    d.run(ChooseInsult(side="a", insult="Provocación"))
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa", line=LINE))  # changed their mind
    assert d.state["history"][-1]["text"] == "Exchange 1: Inés has changed their insult."
    # Initiative: Lope 18 beats Inés 5; Lope's Insulto directo misses, Inés's Burla hits for 3.
    events = d.run(ChooseInsult(side="b", insult="Insulto directo"), b=[18, 2], a=[3, 19, 3])
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["PirateInsultChosen", "PirateInitiativeRolled", "PirateInsultTraded", "PirateInsultTraded"]
    assert [(e.side, e.insult) for e in events[2:]] == [("b", "Insulto directo"), ("a", "Burla ingeniosa")]
    assert events[3].line == LINE and d.state["sealed"] == {}
    assert f"Inés tries Burla ingeniosa on Lope: “{LINE}”" in d.state["history"][-1]["text"]
    assert d.state["phase"] == "initiative" and d.state["round"] == 1


def test_each_seat_types_its_insults_d20_and_the_server_rolls_the_rest():
    d = sealed(dice_by="seats")
    assert "type the d20 you rolled" in d.refused(ChooseInsult(side="a", insult="Burla ingeniosa", dice=(21,))).reason
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa", dice=(19,)))
    assert pirate.seen_by(d.state, "gm")["sealed"] == {"a": {}}
    assert pirate.seen_by(d.state, "seat:a")["sealed"]["a"]["die"] == 19
    # Typed here: initiative (Lope 18, Inés 3), then Lope's damage after his own d20 (2), Inés's damage.
    events = d.run(ChooseInsult(side="b", insult="Insulto directo", dice=(2,)), b=[18], a=[3, 3])
    traded = {e.side: e for e in events if type(e).__name__ == "PirateInsultTraded"}
    assert (traded["a"].d20, traded["b"].d20) == (19, 2)


def test_a_d20_left_blank_where_the_seats_roll_is_rolled_at_the_throw_into_the_insults_event():
    d = sealed(dice_by="seats")
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa", dice=(19,)))
    chosen, *events = d.run(ChooseInsult(side="b", insult="Insulto directo"), b=[18, 2], a=[3, 3])
    assert chosen.die == 0  # nothing rolled at the choice: the NPC's d20 is the throw's
    traded = {e.side: e for e in events if type(e).__name__ == "PirateInsultTraded"}
    assert (traded["a"].d20, traded["b"].d20) == (19, 2)


def test_the_tables_dice_wait_for_the_gms_throw():
    d = sealed(dice_by="table")
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa"))
    assert len(d.run(ChooseInsult(side="b", insult="Insulto directo"))) == 1
    assert len(d.run(ThrowInsults(), b=[18, 2], a=[3, 19, 3])) == 3


def test_a_throw_on_the_gms_press_and_what_a_sealed_duel_refuses():
    d = sealed(reveal="gm")
    assert d.refused(ThrowInsults()).reason == "waiting for Inés and Lope to choose"
    assert "no insult called Ninguno" in d.refused(ChooseInsult(side="a", insult="Ninguno")).reason
    assert "for exchange 2" in d.refused(ChooseInsult(side="a", insult="Provocación", round=2)).reason
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa"))
    assert len(d.run(ChooseInsult(side="b", insult="Insulto directo"))) == 1
    assert pirate.actions(d.state)[:2] == ["ThrowInsults", "ChooseInsult"]  # both chosen: the throw first
    assert len(d.run(ThrowInsults(), b=[18, 2], a=[3, 19, 3])) == 3
    plain = Duel("wit")
    assert "the GM records each insult" in plain.refused(ChooseInsult(side="a", insult="Provocación")).reason
    assert pirate.seat_actions(plain.state, "a") == []


def test_the_gm_may_quote_the_words_when_recording_an_insult_and_retraction_unseals_nothing():
    d = Duel("wit")
    d.run(RollInitiative(), a=[19], b=[2])
    d.run(Insult(side="a", insult="Burla ingeniosa", line=LINE), a=[19, 3])
    assert f"“{LINE}”" in d.state["history"][-1]["text"]
    s = sealed()
    s.run(ChooseInsult(side="a", insult="Provocación"))
    s.run(ChooseInsult(side="a", insult="Humillación"))
    assert play(s.events[:-1])["sealed"] == {"a": {"insult": "Provocación", "line": "", "die": 0}}
    assert play(s.events[:-2])["sealed"] == {}


def test_while_an_insult_is_sealed_the_gm_can_neither_roll_initiative_nor_record_an_insult_over_it():
    d = sealed()
    d.run(ChooseInsult(side="a", insult="Humillación"))
    rolled = d.refused(RollInitiative(), a=[19], b=[2])
    assert "chooses its insult in secret" in rolled.reason
    for insult in ("Humillación", "Provocación", "Burla ingeniosa"):  # neither the right nor a wrong guess
        refused = d.refused(Insult(side="a", insult=insult), a=[19, 3])
        assert "chooses its insult in secret" in refused.reason and "Humillación" not in refused.reason
    assert pirate.actions(d.state)[0] == "ChooseInsult"


def test_an_exchange_a_rewind_stopped_midway_is_thrown_on_from_its_sealed_insults():
    d = sealed(reveal="gm")
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa", line=LINE))
    d.run(ChooseInsult(side="b", insult="Insulto directo"))
    d.run(ThrowInsults(), b=[18, 2], a=[3, 19, 3])
    midway = play(d.events[:-1])  # the second insult taken back: Inés's Burla is still sealed
    assert midway["phase"] != "initiative" and midway["sealed"] == {"a": {"insult": "Burla ingeniosa", "line": LINE,
                                                                          "die": 0}}
    assert pirate.actions(midway)[0] == "ThrowInsults"
    with pytest.raises(Refused):
        pirate.decide(midway, Insult(side="a", insult="Provocación"), fixed_dice(a=[19, 3]))
    events = pirate.decide(midway, ThrowInsults(), fixed_dice(a=[19, 3]))
    assert [(type(e).__name__, e.side, e.insult) for e in events[:1]] == [("PirateInsultTraded", "a", "Burla ingeniosa")]
