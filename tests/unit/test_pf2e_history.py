"""What a PF2e duel leaves in the history and the recap: the initiative facts, each command's step
for time travel, and the headline (decisive hit, biggest hit, criticals) — for either side."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.contract import Fact, Headline, HistoryFacts, Step
from tracker.rules.pf2e.events import (Pf2eDamageDealt, Pf2eDemoralized, Pf2eFeinted, Pf2eInitiativeRolled,
                                       Pf2eRoundOrdered, Pf2eSidestepUsed, Pf2eStrikeRolled, Pf2eTieBroken,
                                       Pf2eTurnEnded, Pf2eVictoryProposed)

DUELISTS = [{"id": "v", "name": "Valeros", "side": "a"}, {"id": "k", "name": "Kyra", "side": "b"}]
OTHER = {"v": "k", "k": "v"}


def state(**changes) -> dict:
    return {"duelists": DUELISTS, "round": 1, "phase": "turns", "turn": "", **changes}


def initiative(round_: int, who: str, skill: str = "perception") -> Pf2eInitiativeRolled:
    return Pf2eInitiativeRolled(round=round_, duelist=who, skill=skill, die=10, modifier=5, total=15)


def strike(attacker: str, degree: str) -> Pf2eStrikeRolled:
    return Pf2eStrikeRolled(attacker=attacker, target=OTHER[attacker], die=10, modifier=10, total=20, ac=20,
                            degree=degree)


def damage(attacker: str, amount: int, multiplier: str = "full", source: str = "Strike") -> Pf2eDamageDealt:
    return Pf2eDamageDealt(attacker=attacker, target=OTHER[attacker], source=source, expression="", dice=(),
                           base=amount, multiplier=multiplier, amount=amount, hp_after=10)


def headline(events, **changes) -> Headline:
    return pf2e.headline(state(**changes), list(enumerate(events, 1)))


# --- history facts -------------------------------------------------------------------------------

def test_each_initiative_skill_is_a_fact_won_by_the_first_of_its_round():
    events = [initiative(1, "v", "intimidation"), initiative(1, "k", "deception"),
              Pf2eRoundOrdered(round=1, tiers=(("k",), ("v",))),
              initiative(2, "v"), initiative(2, "k"), Pf2eRoundOrdered(round=2, tiers=(("v", "k"),)),
              Pf2eTieBroken(round=2, first="v"),
              initiative(3, "k"), Pf2eRoundOrdered(round=3, tiers=())]
    facts = pf2e.history_facts(state(round=3), events)
    assert facts == HistoryFacts(3, (
        Fact("skills", "k", "deception", round=1, won=True), Fact("skills", "v", "intimidation", round=1, won=False),
        Fact("skills", "k", "perception", round=2, won=False), Fact("skills", "v", "perception", round=2, won=True),
        Fact("skills", "k", "perception", round=3, won=False)))


@pytest.mark.parametrize("round_, phase, counted", [
    (1, "initiative", 1),  # the first round counts even before anyone acted
    (2, "initiative", 1),  # a duel waiting on round 2's initiative has run one round
    (2, "turns", 2), (3, "initiative", 2), (3, "ended", 3),
])
def test_a_round_counts_once_someone_acted_in_it(round_, phase, counted):
    assert pf2e.history_facts(state(round=round_, phase=phase), []).turns == counted


# --- time travel --------------------------------------------------------------------------------

@pytest.mark.parametrize("changes, step", [
    ({"turn": "v", "round": 2}, Step("Round 2", "Valeros's turn")),
    ({"turn": "k", "round": 3}, Step("Round 3", "Kyra's turn")),
    ({"turn": "", "round": 4}, Step("Round 4", "initiative")),
    ({"turn": "v", "outcome": {"winner": "a"}}, Step("After the duel")),
    ({"turn": "", "outcome": None}, Step("Round 1", "initiative")),  # no outcome yet
])
def test_each_command_belongs_to_its_round_and_turn(changes, step):
    assert pf2e.step_of(state(**changes), None) == step


# --- the headline --------------------------------------------------------------------------------

@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("event, word", [
    (lambda who: strike(who, "critical_success"), "Strike on {them}: critical hit"),
    (lambda who: strike(who, "critical_failure"), "Strike on {them}: critical failure"),
    (lambda who: Pf2eSidestepUsed(defender=OTHER[who], attacker=who, die=20, modifier=10, penalty=0, total=30,
                                  ac=20, degree="critical_success"), "Strike on {them}: critical hit"),
    (lambda who: Pf2eSidestepUsed(defender=OTHER[who], attacker=who, die=1, modifier=10, penalty=-2, total=9,
                                  ac=20, degree="critical_failure"), "Strike on {them}: critical failure"),
    (lambda who: Pf2eDemoralized(duelist=who, target=OTHER[who], die=20, modifier=9, total=29, dc=15,
                                 degree="critical_success", frightened=2), "Demoralize on {them}: critical success"),
    (lambda who: Pf2eFeinted(duelist=who, target=OTHER[who], die=1, modifier=7, total=8, dc=18,
                             degree="critical_failure"), "Feint on {them}: critical failure"),
])
def test_every_critical_check_is_marked_with_its_round_for_either_side(who, event, word):
    names = {"v": "Valeros", "k": "Kyra"}
    h = headline([initiative(2, "v"), event(who)])
    assert h.criticals == (f"{names[who]}'s " + word.format(them=names[OTHER[who]]) + " (round 2)",)


@pytest.mark.parametrize("degree", ["success", "failure"])
def test_a_plain_success_or_failure_is_not_a_critical(degree):
    assert headline([strike("v", degree), strike("k", degree)]).criticals == ()


def test_the_round_follows_initiative_and_a_spell_duel_s_wrapping_turns():
    events = [strike("v", "critical_success"),  # before any initiative: round 1
              Pf2eTurnEnded(duelist="v", frightened=0, next="k", new_round=True),  # wraps: round 2
              strike("k", "critical_success"),
              Pf2eTurnEnded(duelist="k", frightened=0, next="", new_round=True),  # initiative next: no wrap
              Pf2eTurnEnded(duelist="k", frightened=0, next="v", new_round=False),  # same round
              strike("v", "critical_failure"),
              initiative(7, "k"), strike("k", "critical_failure")]
    assert [c[-9:] for c in headline(events).criticals] == ["(round 1)", "(round 2)", "(round 2)", "(round 7)"]


@pytest.mark.parametrize("who", ["v", "k"])
def test_the_decisive_hit_is_the_last_damage_before_a_victory_is_proposed(who):
    events = [initiative(1, who), damage(who, 12, "double"), initiative(2, OTHER[who]), damage(OTHER[who], 5),
              damage(who, 0), Pf2eVictoryProposed(side="a", ending="knockout")]
    h = headline(events)
    names = {"v": "Valeros", "k": "Kyra"}
    me, them = names[who], names[OTHER[who]]
    assert h.decisive == f"{them}'s Strike for 5 damage on {me} in round 2"
    assert h.biggest == f"{me}'s Strike for 12 damage (doubled) on {them} in round 1"


def test_a_proposal_before_any_damage_decides_nothing_and_a_later_hit_does_not_retro_decide():
    h = headline([Pf2eVictoryProposed(side="a", ending="first_blood"), damage("v", 3)])
    assert h.decisive == "" and h.biggest == "Valeros's Strike for 3 damage on Kyra in round 1"


def test_the_biggest_hit_is_the_first_of_equal_amounts_and_names_a_spell():
    h = headline([damage("k", 7, source="Fireball"), damage("v", 7), damage("v", 6)])
    assert h.biggest == "Kyra's Fireball for 7 damage on Valeros in round 1"
    assert headline([damage("k", 1, "half")]).biggest == "Kyra's Strike for 1 damage on Valeros in round 1"


def test_no_damage_no_hit():
    assert headline([damage("v", 0)], outcome={"winner": "a"}) == Headline()


@pytest.mark.parametrize("winner, decisive", [
    ("a", "Valeros's Strike for 4 damage on Kyra in round 1"),  # the winner landed the last hit
    ("b", ""),  # the loser landed it: not what decided the duel
    ("", ""),  # a draw
])
def test_without_a_proposal_the_winners_last_hit_decides(winner, decisive):
    assert headline([damage("k", 9), damage("v", 4)], outcome={"winner": winner}).decisive == decisive
    mirrored = {"a": "b", "b": "a", "": ""}[winner]
    flipped = decisive.replace("Valeros", "X").replace("Kyra", "Valeros").replace("X", "Kyra")
    assert headline([damage("v", 9), damage("k", 4)], outcome={"winner": mirrored}).decisive == flipped


def test_only_a_proposal_makes_the_last_hit_decisive():
    events = [damage("v", 3), Pf2eTurnEnded(duelist="v", frightened=0, next="k", new_round=False)]
    assert headline(events).decisive == ""


def test_the_fold_refuses_withdrawing_a_reaction_never_readied():
    from tracker.rules.base import ImpossibleHistory
    from tracker.rules.pf2e.events import Pf2eReactionWithdrawn
    from tests.unit.test_pf2e_maneuver_edges import turn_of
    for who in ("v", "k"):
        with pytest.raises(ImpossibleHistory, match=f"^{who} withdrew bullying_press without having readied it$"):
            pf2e.evolve(turn_of(who).state, Pf2eReactionWithdrawn(1, who, "bullying_press"), 99)


def test_the_players_read_an_initiative_roll_s_total_never_its_skill():
    from tracker.rules.pf2e.results import public_line
    numbers = {"event": "Pf2eInitiativeRolled", "round": 1, "duelist": "v", "skill": "deception", "die": 10,
               "modifier": 7, "total": 17}
    line = {"text": "Round 1: Valeros rolls 17 for initiative.", "result": numbers}
    assert public_line(line) == dict(line, result={"event": "Pf2eInitiativeRolled", "round": 1, "duelist": "v",
                                                   "total": 17})
    other = dict(line, result=dict(numbers, event="Pf2eTieBroken"))
    assert public_line(other) == other and public_line({"text": "x"}) == {"text": "x"}
