"""Pirate duels played with fixed dice: given these events, when this command, then these events."""
from __future__ import annotations

import copy
import dataclasses
from tests import plain_json as json

import pytest

from tracker.domain.events import from_data, to_data, type_name
from tracker.rules import get
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import Dice, fixed_dice
from tracker.rules.duel import (Abandon, Disqualify, DuelDisqualified, DuelDrawn, DuelStarted, DuelWon,
                                DuelYielded, Yield)
from tracker.rules.pirate import DEFAULT_INSULTS
from tracker.rules.pirate.commands import (Attack, Insult, MarkWorthiness, RecordFall, RollInitiative,
                                           Shoot)
from tracker.rules.pirate.events import (PirateDuelistFell, PirateInitiativeRolled, PirateInsultTraded,
                                         PirateShotFired, PirateSwordAttacked, PirateWorthinessMarked)

pirate = get("pirate")

INES = {"atq": 5, "def": 13, "pv": 12, "comunicacion": 4, "sab": 12, "car": 10, "iniciativa": 2,
        "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}
LOPE = {"atq": 3, "def": 12, "pv": 9, "comunicacion": 2, "sab": 11, "car": 8, "iniciativa": 1,
        "weapons": [{"name": "Espada ropera", "kind": "sword", "damage": "1d6"},
                    {"name": "Pistola", "kind": "pistol", "damage": "1d8", "range": 10}]}
HEADER = {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1", "stakes": "a ship",
          "judge": "Capitana Ruiz", "challenger": "a"}


def duelists(lope_pv: int = 9) -> list[dict]:
    return [
        {"id": "ines", "name": "Inés", "side": "a", "rank": "pj",
         "stats": pirate.validate_stats(INES), "current": {"PV": 12, "CAR": 10}},
        {"id": "lope", "name": "Lope", "side": "b", "rank": "villano",
         "stats": pirate.validate_stats(LOPE), "current": {"PV": lope_pv, "CAR": 8}},
    ]


class Duel:
    """A duel's event log and state, played one command at a time."""

    def __init__(self, kind: str, **setup):
        self.events = pirate.start(HEADER, {"kind": kind, **setup}, duelists(), fixed_dice())
        self.state = play(self.events)

    def run(self, cmd, **dice) -> list:
        before = copy.deepcopy(self.state)
        new = pirate.decide(self.state, cmd, fixed_dice(**dice))
        assert self.state == before, "decide mutated its state"
        for ev in new:
            self.events.append(ev)
            self.state = pirate.evolve(self.state, ev, len(self.events))
        return new

    def refused(self, cmd, **dice) -> Refused:
        with pytest.raises(Refused) as caught:
            pirate.decide(self.state, cmd, fixed_dice(**dice))
        return caught.value

    def fighter(self, side: str) -> dict:
        return self.state["fighters"][side]


def play(events: list) -> dict:
    state = None
    for at, ev in enumerate(events, start=1):
        state = pirate.evolve(state, ev, at)
    return state


def kinds(events: list) -> list[str]:
    return [type(ev).__name__ for ev in events]


# --- stats and set-up ----------------------------------------------------------------

def test_stats_parse_weapon_lines_and_lists():
    stats = pirate.validate_stats(INES)
    assert stats["weapons"] == [
        {"name": "Sable", "kind": "sword", "damage": "1d8", "range": None},
        {"name": "Pistola de chispa", "kind": "pistol", "damage": "1d10", "range": 15},
    ]
    assert pirate.validate_stats(LOPE)["weapons"][1]["range"] == 10


def test_stats_errors_speak_to_the_gm():
    with pytest.raises(Invalid) as bad:
        pirate.validate_stats({**INES, "def": "high", "weapons": "Trabuco | pistol | 1d12"})
    assert bad.value.errors["def"] == "must be a whole number"
    assert "needs its range in paces" in bad.value.errors["weapons"]
    with pytest.raises(Invalid) as bad:
        pirate.validate_stats({**INES, "weapons": "Sable | hacha | 1d8"})
    assert "must be sword or pistol" in bad.value.errors["weapons"]


def test_tracks_keep_humiliation_apart_from_pv():
    assert pirate.TRACKS == (
        {"track": "PV", "label": "PV", "max_stat": "pv", "persists": True},
        {"track": "CAR", "label": "Humiliation (CAR)", "max_stat": "car", "persists": False},
    )


def test_a_duelist_without_stats_or_weapon_or_pv_is_refused():
    nobody = duelists()
    nobody[1]["stats"] = None
    with pytest.raises(Refused, match="Lope has no pirate stats"):
        pirate.start(HEADER, {"kind": "sword"}, nobody, fixed_dice())
    unarmed = duelists()
    unarmed[1]["stats"] = {**unarmed[1]["stats"], "weapons": []}
    with pytest.raises(Refused, match="Lope has no pistol on their sheet"):
        pirate.start(HEADER, {"kind": "pistol", "distance": 10, "second_a": "Tomás", "second_b": "Blas"},
                     unarmed, fixed_dice())
    with pytest.raises(Refused, match="Lope is at 0 PV"):
        pirate.start(HEADER, {"kind": "sword"}, duelists(lope_pv=0), fixed_dice())


def test_a_pistol_duel_needs_distance_and_seconds():
    with pytest.raises(Invalid) as bad:
        pirate.start(HEADER, {"kind": "pistol", "second_a": "Tomás"}, duelists(), fixed_dice())
    assert bad.value.errors == {"distance": "is required for a pistol duel",
                                "second_b": "is required for a pistol duel"}


def test_duels_to_hits_warn_that_they_can_kill():
    two = Duel("sword", sword_victory="hits", hits=2)
    assert pirate.warnings(two.state) == [
        "Inés has 12 PV: 2 hits of Lope's Espada ropera (1d6) can deal up to 12: this duel can kill.",
        "Lope has 9 PV: 2 hits of Inés's Sable (1d8) can deal up to 16: this duel can kill.",
    ]
    assert "warnings" not in two.events[0].settings  # told from the terms when read, never stored
    assert pirate.warnings(Duel("sword").state) == []  # one hit of 1d8 cannot fell 9 PV
    # an older log stored them in the terms: they read as they were written
    old = dataclasses.replace(two.events[0], settings={**two.events[0].settings, "warnings": ["Mind the blade."]})
    assert pirate.warnings(pirate.evolve(None, old, 1)) == ["Mind the blade."]


# --- sword ---------------------------------------------------------------------------

def test_sword_to_first_blood():
    duel = Duel("sword")
    assert duel.state["settings"] == {"kind": "sword", "sword_victory": "first_blood", "warnings": [],
                                      "weapons": {"a": {"name": "Sable", "kind": "sword", "damage": "1d8",
                                                        "range": None},
                                                  "b": {"name": "Espada ropera", "kind": "sword",
                                                        "damage": "1d6", "range": None}}}
    assert pirate.actions(duel.state) == ["RollInitiative", "MarkWorthiness", "Yield", "Disqualify", "Abandon"]
    assert duel.refused(Attack(side="a"), a=[15]).reason == "roll initiative for round 1 first"

    [init] = duel.run(RollInitiative(), a=[12], b=[7])
    assert init == PirateInitiativeRolled(round=1, rolls_a=(12,), rolls_b=(7,), total_a=14, total_b=8,
                                          order=("a", "b"))
    assert pirate.actions(duel.state)[0] == "Attack"
    refusal = duel.refused(Attack(side="b"), b=[20, 6])
    assert (refusal.reason, refusal.field) == ("it is Inés's turn to attack, not Lope's", "side")

    [miss] = duel.run(Attack(side="a"), a=[6])  # 6 + 5 = 11 against DEF 12
    assert (miss.total, miss.hit, miss.damage) == (11, False, 0)
    [miss] = duel.run(Attack(side="b"), b=[9])  # 9 + 3 = 12 against DEF 13
    assert (miss.hit, duel.state["phase"]) == (False, "initiative")

    [init] = duel.run(RollInitiative(), a=[10, 15], b=[11, 3])  # 12 ties 12: both reroll
    assert (init.rolls_a, init.rolls_b, init.total_a, init.total_b) == ((10, 15), (11, 3), 17, 4)
    hit, won = duel.run(Attack(side="a"), a=[7, 3])  # 7 + 5 = 12 meets DEF 12: a hit
    assert (hit.hit, hit.damage_dice, hit.damage) == (True, (3,), 3)
    assert won == DuelWon(side="a", ending="first_blood")
    assert duel.state["outcome"]["detail"] == "Lope took 3 PV"
    assert duel.fighter("b")["pv"] == 6 and duel.fighter("a")["hits"] == 1
    assert duel.state["wounds"] == [{"character": "lope", "track": "PV", "amount": 3, "at": 6,
                                     "note": "Sable of Inés"}]
    assert duel.state["outcome"]["results"] == {"ines": "win", "lope": "loss"}
    assert pirate.actions(duel.state) == []
    assert "this duel is over" in duel.refused(Attack(side="b"), b=[20, 6]).reason


def test_sword_to_two_hits():
    duel = Duel("sword", sword_victory="hits", hits=2)
    duel.run(RollInitiative(), a=[12], b=[7])
    duel.run(Attack(side="a"), a=[14, 4])
    duel.run(Attack(side="b"), b=[11, 2])
    assert (duel.fighter("a")["pv"], duel.fighter("b")["pv"]) == (10, 5)
    assert (duel.fighter("a")["hits"], duel.fighter("b")["hits"]) == (1, 1)
    assert duel.state["outcome"] is None

    [init] = duel.run(RollInitiative(), a=[3], b=[16])
    assert init.order == ("b", "a")
    duel.run(Attack(side="b"), b=[2])
    hit, won = duel.run(Attack(side="a"), a=[9, 3])
    assert won == DuelWon(side="a", ending="hits")
    assert duel.state["outcome"]["detail"] == "2 hits; Lope took 3 PV"
    assert (duel.fighter("a")["pv"], duel.fighter("b")["pv"]) == (10, 2)
    assert (duel.fighter("a")["hits"], duel.fighter("b")["hits"]) == (2, 1)


def test_sword_to_three_hits():
    duel = Duel("sword", sword_victory="hits", hits=3)
    for round_no, first in ((1, [12]), (2, [13]), (3, [14])):
        duel.run(RollInitiative(), a=first, b=[1])
        events = duel.run(Attack(side="a"), a=[15, 2])
        if round_no < 3:
            duel.run(Attack(side="b"), b=[1])
            assert duel.fighter("a")["hits"] == round_no
    assert kinds(events) == ["PirateSwordAttacked", "DuelWon"]
    assert events[1].ending == "hits"
    assert (duel.fighter("b")["pv"], duel.fighter("a")["hits"], duel.fighter("a")["pv"]) == (3, 3, 12)
    assert duel.state["outcome"]["summary"] == "Inés won by hits (3 hits; Lope took 2 PV)"


def test_zero_pv_before_the_hits_waits_for_the_gm():
    duel = Duel("sword", sword_victory="hits", hits=3)
    duel.run(RollInitiative(), a=[12], b=[7])
    duel.run(Attack(side="a"), a=[15, 8])
    duel.run(Attack(side="b"), b=[1])
    duel.run(RollInitiative(), a=[12], b=[7])
    [hit] = duel.run(Attack(side="a"), a=[15, 6])  # 6 more than the 1 PV left
    assert duel.fighter("b")["pv"] == 0
    assert [w["amount"] for w in duel.state["wounds"]] == [8, 1]
    assert pirate.actions(duel.state) == ["RecordFall", "MarkWorthiness", "Yield", "Disqualify", "Abandon"]
    assert duel.refused(Attack(side="b"), b=[20, 6]).reason == \
        "Lope is at 0 PV: record whether they are down or dead first"
    assert "still has 12 PV" in duel.refused(RecordFall(side="a", fate="down")).reason
    fell, won = duel.run(RecordFall(side="b", fate="down"))
    assert fell == PirateDuelistFell(side="b", fate="down")
    assert won == DuelWon(side="a", ending="down")
    assert duel.state["outcome"]["detail"] == "Lope is down"


def test_sword_to_the_death():
    duel = Duel("sword", sword_victory="death")
    duel.run(RollInitiative(), a=[12], b=[7])
    assert kinds(duel.run(Attack(side="a"), a=[15, 8])) == ["PirateSwordAttacked"]  # blood is not enough
    duel.run(Attack(side="b"), b=[18, 5])
    assert (duel.fighter("a")["pv"], duel.fighter("b")["pv"]) == (7, 1)
    duel.run(RollInitiative(), a=[12], b=[7])
    duel.run(Attack(side="a"), a=[15, 4])
    assert duel.fighter("b")["pv"] == 0 and duel.state["outcome"] is None

    assert duel.run(RecordFall(side="b", fate="down")) == [PirateDuelistFell(side="b", fate="down")]
    assert duel.state["outcome"] is None
    assert pirate.actions(duel.state)[0] == "RecordFall"
    assert "Lope is down: in a duel to the death" in duel.refused(RollInitiative(), a=[1], b=[2]).reason
    assert duel.refused(RecordFall(side="b", fate="down")).reason == "Lope is already down"
    fell, won = duel.run(RecordFall(side="b", fate="dead"))
    assert won == DuelWon(side="a", ending="death")
    assert duel.state["outcome"]["detail"] == "Lope is dead"
    assert duel.fighter("b")["fate"] == "dead"
    assert duel.state["outcome"]["summary"] == "Inés won by death (Lope is dead)"


def test_ventaja_and_desventaja_on_a_sword_attack():
    duel = Duel("sword")
    duel.run(RollInitiative(), a=[12], b=[7])
    [miss] = duel.run(Attack(side="a", desventaja=True), a=[18, 4])
    assert (miss.edge, miss.d20s, miss.d20, miss.hit) == ("desventaja", (18, 4), 4, False)
    assert "with Desventaja (2d20, keep the lower) 18, 4 → 4 +5 = 9 vs DEF 12: miss" in \
        duel.state["history"][-1]["text"]
    [hit, _] = duel.run(Attack(side="b", ventaja=True), b=[3, 17, 2])
    assert (hit.edge, hit.d20, hit.total, hit.damage) == ("ventaja", 17, 20, 2)


def test_a_command_of_another_kind_is_refused():
    duel = Duel("sword")
    duel.run(RollInitiative(), a=[12], b=[7])
    assert duel.refused(Shoot(side="a"), a=[20]).reason == "this is a sword duel: duelists attack here"
    assert duel.refused(RollInitiative(), a=[1], b=[2]).reason == "round 1 is under way: Inés is to attack"
    assert duel.refused(RecordFall(side="b", fate="dead")).reason == \
        "Lope still has 9 PV: only a duelist at 0 PV falls"


def test_server_rolls_are_written_into_the_event():
    duel = Duel("sword")
    faces = iter([11, 4, 20, 8])
    new = pirate.decide(duel.state, RollInitiative(server_roll=True), Dice(source=lambda sides: next(faces)))
    assert (new[0].rolls_a, new[0].rolls_b) == ((11,), (4,))
    with pytest.raises(Refused, match="type another d20 for Lope's initiative"):
        pirate.decide(duel.state, RollInitiative(), fixed_dice(a=[11]))


# --- pistol --------------------------------------------------------------------------

PISTOLS = {"second_a": "Tomás", "second_b": "Blas"}


def test_pistol_duel_beyond_range():
    duel = Duel("pistol", distance=12, **PISTOLS)
    s = duel.state["settings"]
    assert (s["distance"], s["shots"], s["seconds"]) == (12, 6, {"a": "Tomás", "b": "Blas"})
    assert (duel.fighter("a")["shots"], duel.fighter("b")["shots"]) == (6, 6)

    duel.run(RollInitiative(), a=[15], b=[5])
    [shot] = duel.run(Shoot(side="a"), a=[4])  # 12 paces is within her 15
    assert (shot.edge, shot.total, shot.hit, shot.shots_left) == ("", 9, False, 5)
    [shot] = duel.run(Shoot(side="b"), b=[18, 6])  # beyond his 10: Desventaja, keeps the 6
    assert (shot.edge, shot.d20s, shot.d20, shot.total, shot.hit) == ("desventaja", (18, 6), 6, 9, False)
    assert "beyond its range of 10" in duel.state["history"][-1]["text"]

    duel.run(RollInitiative(), a=[2], b=[20])
    shot, won = duel.run(Shoot(side="b", ventaja=True), b=[14, 5])  # Ventaja cancels the range's Desventaja
    assert (shot.edge, shot.d20s, shot.total, shot.hit, shot.damage) == ("cancelled", (14,), 17, True, 5)
    assert won == DuelWon(side="b", ending="hit")
    assert duel.state["outcome"]["detail"] == "Inés was hit"
    assert (duel.fighter("a")["pv"], duel.fighter("a")["shots"], duel.fighter("b")["shots"]) == (7, 5, 4)
    assert duel.state["wounds"][0]["amount"] == 5


def test_pistol_duel_runs_dry():
    duel = Duel("pistol", distance=5, shots=2, **PISTOLS)
    duel.run(RollInitiative(), a=[15], b=[5])
    duel.run(Shoot(side="a"), a=[1])
    duel.run(Shoot(side="b"), b=[2])
    duel.run(RollInitiative(), a=[15], b=[5])
    [last] = duel.run(Shoot(side="a"), a=[3])
    assert last.shots_left == 0
    refusal = duel.refused(Shoot(side="a"), a=[20])
    assert (refusal.reason, refusal.field) == ("Inés has no shots left", "side")
    shot, drawn = duel.run(Shoot(side="b"), b=[4])
    assert drawn == DuelDrawn(ending="out_of_shots")
    assert duel.state["outcome"]["detail"] == "both pistols ran dry with no hit"
    assert (duel.fighter("a")["shots"], duel.fighter("b")["shots"]) == (0, 0)
    assert (duel.fighter("a")["pv"], duel.fighter("b")["pv"]) == (12, 9)
    assert duel.state["outcome"]["winner"] is None
    assert duel.state["outcome"]["results"] == {"ines": "draw", "lope": "draw"}
    assert "this duel is over" in duel.refused(Shoot(side="a"), a=[20]).reason


def test_a_bullet_that_fells_waits_for_the_gm():
    duel = Duel("pistol", distance=5, **PISTOLS)
    duel.run(RollInitiative(), a=[15], b=[5])
    [shot] = duel.run(Shoot(side="a"), a=[10, 10])
    assert (shot.damage, duel.fighter("b")["pv"]) == (10, 0)
    fell, won = duel.run(RecordFall(side="b", fate="dead"))
    assert won == DuelWon(side="a", ending="hit")
    assert duel.state["outcome"]["detail"] == "Lope is dead"


def test_a_pistol_hit_without_damage_when_agreed():
    duel = Duel("pistol", distance=5, bullet="no_damage", **PISTOLS)
    duel.run(RollInitiative(), a=[15], b=[5])
    shot, won = duel.run(Shoot(side="a"), a=[10])
    assert (shot.hit, shot.damage, duel.fighter("b")["pv"], won.ending) == (True, 0, 9, "hit")


# --- duelo de labia -------------------------------------------------------------------

def test_wit_duel_on_points():
    duel = Duel("wit")
    assert duel.state["settings"]["insults"] == list(DEFAULT_INSULTS)
    assert (duel.state["settings"]["exchanges"], duel.state["settings"]["tie"]) == (3, "sudden_death")

    duel.run(RollInitiative(), a=[12], b=[7])
    [burla] = duel.run(Insult(side="a", insult="burla ingeniosa"), a=[7, 3])  # 7 + 4 + 1 = 12 vs SAB 11
    assert (burla.insult, burla.bonus, burla.total, burla.hit, burla.damage) == ("Burla ingeniosa", 5, 12, True, 3)
    duel.run(Insult(side="b", insult="Insulto directo"), b=[10, 2])  # 10 + 2 = 12 vs SAB 12
    assert (duel.fighter("a")["car"], duel.fighter("b")["car"]) == (8, 5)
    assert (duel.fighter("a")["points"], duel.fighter("b")["points"]) == (3, 2)
    assert duel.fighter("a")["pv"] == 12  # wit never touches PV

    duel.run(RollInitiative(), a=[12], b=[7])
    [humillacion] = duel.run(Insult(side="a", insult="Humillación"), a=[5])  # 5 + 4 - 2 = 7
    assert (humillacion.total, humillacion.hit) == (7, False)
    [provocacion] = duel.run(Insult(side="b", insult="Provocación"), b=[3, 2])  # a miss: 1d4 back
    assert (provocacion.hit, provocacion.backlash_dice, provocacion.backlash) == (False, (2,), 2)
    assert (duel.fighter("b")["car"], duel.fighter("b")["points"], duel.fighter("a")["points"]) == (3, 2, 3)

    duel.run(RollInitiative(), a=[12], b=[7])
    duel.run(Insult(side="a", insult="Burla ingeniosa"), a=[2])
    miss, won = duel.run(Insult(side="b", insult="Burla ingeniosa"), b=[4])
    assert won == DuelWon(side="a", ending="points")
    assert duel.state["outcome"]["detail"] == "3 to 2"
    assert [w["track"] for w in duel.state["wounds"]] == ["CAR", "CAR", "CAR"]
    assert "this duel is over" in duel.refused(RollInitiative(), a=[1], b=[2]).reason  # no fourth exchange


def test_wit_duel_by_humiliation():
    duel = Duel("wit")
    duel.run(RollInitiative(), a=[12], b=[7])
    hit, won = duel.run(Insult(side="a", insult="Humillación"), a=[15, 9])
    assert (hit.total, hit.damage) == (17, 9)
    assert won == DuelWon(side="a", ending="humiliation")
    assert duel.state["outcome"]["detail"] == "Lope withdraws, humiliated"
    assert duel.fighter("b")["car"] == 0
    assert duel.state["wounds"] == [{"character": "lope", "track": "CAR", "amount": 8, "at": 3,
                                     "note": "Humillación by Inés"}]


def test_a_campaign_table_and_a_backlash_that_humiliates():
    duel = Duel("wit", insults="Pulla | +0 | 1d4\nBravata | −1 | 1d6 | 1d12", wit_end="humiliation")
    assert duel.state["settings"]["insults"] == [
        {"name": "Pulla", "to_hit": 0, "damage": "1d4", "backlash": ""},
        {"name": "Bravata", "to_hit": -1, "damage": "1d6", "backlash": "1d12"},
    ]
    assert duel.refused(Insult(side="a", insult="Pulla"), a=[1]).reason == "roll initiative for exchange 1 first"
    duel.run(RollInitiative(), a=[1], b=[19])
    refusal = duel.refused(Insult(side="b", insult="Humillación"), b=[20, 10])
    assert (refusal.reason, refusal.field) == ("no insult called Humillación in this duel's table (Pulla, Bravata)",
                                               "insult")
    miss, won = duel.run(Insult(side="b", insult="Bravata"), b=[2, 8])
    assert (miss.backlash, duel.fighter("b")["car"]) == (8, 0)
    assert won == DuelWon(side="a", ending="humiliation")
    assert duel.state["outcome"]["detail"] == "Lope withdraws, humiliated by their own Bravata"


def exchange(duel: Duel, a: list[int], b: list[int]) -> list:
    duel.run(RollInitiative(), a=[12], b=[7])
    duel.run(Insult(side="a", insult="Burla ingeniosa"), a=a)
    return duel.run(Insult(side="b", insult="Burla ingeniosa"), b=b)


def test_a_tied_wit_duel_as_a_draw():
    duel = Duel("wit", exchanges=1, tie="draw")
    hit, drawn = exchange(duel, a=[15, 2], b=[15, 2])
    assert drawn == DuelDrawn(ending="points_tied")
    assert duel.state["outcome"]["detail"] == "tied 2 to 2 after the agreed exchanges"
    assert (duel.fighter("a")["points"], duel.fighter("b")["points"]) == (2, 2)


def test_a_tied_wit_duel_goes_to_sudden_death():
    duel = Duel("wit", exchanges=1)
    assert kinds(exchange(duel, a=[15, 2], b=[15, 2])) == ["PirateInsultTraded"]
    assert duel.state["sudden_death"] is True
    assert pirate.progress(duel.state) == "Exchange 2 (sudden death): initiative"
    assert kinds(exchange(duel, a=[1], b=[1])) == ["PirateInsultTraded"]  # still tied: on we go
    hit, won = exchange(duel, a=[15, 1], b=[1])
    assert won == DuelWon(side="a", ending="points")
    assert duel.state["outcome"]["detail"] == "3 to 2 in sudden death (exchange 3)"
    assert (duel.fighter("a")["car"], duel.fighter("b")["car"]) == (8, 5)


# --- every kind --------------------------------------------------------------------

def test_yield():
    duel = Duel("sword")
    duel.run(RollInitiative(), a=[12], b=[7])
    [yielded] = duel.run(Yield(side="b", detail="¡Basta!"))
    assert yielded == DuelYielded(side="b", detail="¡Basta!")
    assert duel.state["outcome"]["winner"] == "a"
    assert duel.state["history"][-1]["text"] == "Duel ended: Inés won by yield (Lope yielded)."
    assert "this duel is over" in duel.refused(Attack(side="a"), a=[20, 8]).reason


def test_disqualification_and_worthiness():
    duel = Duel("pistol", distance=5, **PISTOLS)
    [mark] = duel.run(MarkWorthiness(side="b", verdict="unworthy", note="a loaded die"))
    assert mark == PirateWorthinessMarked(side="b", worthy=False, note="a loaded die")
    assert duel.fighter("b")["worthy"] is False
    [dq] = duel.run(Disqualify(side="b", reason="fired before the count"))
    assert dq == DuelDisqualified(side="b", reason="fired before the count")
    assert duel.state["outcome"]["ending"] == "disqualification"
    assert duel.state["outcome"]["winner"] == "a"
    assert "this duel is over" in duel.refused(Abandon()).reason


def test_assumptions_and_progress_speak_plainly():
    duel = Duel("pistol", distance=20, shots=4, **PISTOLS)
    assert "Each duelist has 4 shots; both out of shots with no hit is a draw." in pirate.assumptions(duel.state)
    wit = Duel("wit", tie="draw")
    assert "A tie on points is a draw." in pirate.assumptions(wit.state)
    duel.run(RollInitiative(), a=[1], b=[19])
    assert pirate.progress(duel.state) == "Round 1: Lope to shoot"


def recorded() -> list:
    """One log holding every pirate event type."""
    duel = Duel("wit")
    duel.run(MarkWorthiness(side="a", verdict="worthy"))
    exchange(duel, a=[15, 2], b=[15, 2])
    sword = Duel("sword", sword_victory="death")
    sword.run(RollInitiative(), a=[12], b=[7])
    sword.run(Attack(side="a"), a=[15, 8])
    sword.run(Attack(side="b"), b=[1])
    sword.run(RollInitiative(), a=[12], b=[7])
    sword.run(Attack(side="a"), a=[15, 8])
    sword.run(RecordFall(side="b", fate="dead"))
    pistol = Duel("pistol", distance=30, **PISTOLS)
    pistol.run(RollInitiative(), a=[12], b=[7])
    pistol.run(Shoot(side="a"), a=[20, 20, 3])
    return [duel.events, sword.events, pistol.events]


def test_events_round_trip_through_storage():
    types = set()
    for log in recorded():
        for ev in log:
            stored = json.loads(json.dumps(to_data(ev)))
            assert from_data(type_name(ev), stored) == ev
            types.add(type(ev))
    assert {PirateInitiativeRolled, PirateSwordAttacked, PirateShotFired, PirateInsultTraded,
            PirateDuelistFell, PirateWorthinessMarked, DuelStarted, DuelWon} <= types


def test_replay_gives_the_same_json_state():
    for log in recorded():
        live = json.dumps(play(log), sort_keys=True)
        stored = [from_data(type_name(ev), json.loads(json.dumps(to_data(ev)))) for ev in log]
        assert json.dumps(play(stored), sort_keys=True) == live
        assert json.dumps(play(log), sort_keys=True) == live
        assert json.loads(live)["history"][0]["at"] == 1


def test_the_insult_table_arrives_as_json_too():
    duel = Duel("wit", insults=[{"name": "Pulla", "to_hit": 2, "damage": "1d4"},
                                {"name": "Reto", "to_hit": -1, "damage": "1d8", "backlash": "1d4"}])
    assert duel.state["settings"]["insults"] == [
        {"name": "Pulla", "to_hit": 2, "damage": "1d4", "backlash": ""},
        {"name": "Reto", "to_hit": -1, "damage": "1d8", "backlash": "1d4"},
    ]
    with pytest.raises(Invalid) as bad:
        pirate.start(HEADER, {"kind": "wit", "insults": "Pulla | mucho | 1d4"}, duelists(), fixed_dice())
    assert bad.value.errors == {"insults": "line 1 (Pulla): the to-hit modifier must be a number such as +1 or -2"}
