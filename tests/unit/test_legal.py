"""The legal next actions as data, ruleset by ruleset: the commands ``actions`` names, each field
narrowed to what the rules accept now, and nothing for the table; and each step's numbers."""
from __future__ import annotations

import pytest

from tests import coin_ruleset
from tests.unit.test_pf2e_combat import duel as pf2e_duel
from tests.unit.test_pirate import PISTOLS, Duel as PirateDuel
from tests.unit.test_rocet_duels import EA, FINTA, TRETA, Table
from tracker.rules import legal, pf2e, pirate, rocet
from tracker.rules.pf2e.commands import RollInitiative
from tracker.rules.pirate.commands import RollInitiative as PirateInitiative
from tracker.rules.rocet.commands import Discard


def by_type(actions):
    return {a["type"]: a for a in actions}


def test_offer_describes_every_field_and_narrows_the_ones_given():
    action = legal.offer(Discard, "Discard", for_side="b", side=["b"], card=[FINTA])
    assert action["type"] == "Discard" and action["by"] == "gm" and action["side"] == "b"
    assert action["fields"]["side"] == {"kind": "choice", "type": "string", "required": True, "label": "Who discards",
                                        "choices": ["b"]}
    assert action["fields"]["card"]["choices"] == [FINTA] and action["fields"]["card"]["required"] is False
    with pytest.raises(ValueError):
        legal.offer(Discard, "Discard", weapon=["x"])
    assert legal.names([action]) == ["Discard"]


def test_rocet_offers_only_the_cards_in_hand_and_the_discard_to_its_owner():
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, TRETA, TRETA, EA, FINTA]])
    offered = by_type(rocet.legal_actions(t.state, legal.GM))
    assert offered["PlayTurn"]["fields"]["card_a"]["choices"] == [EA, FINTA, TRETA]
    assert offered["PlayTurn"]["fields"]["card_b"]["choices"] == [EA, FINTA, TRETA]
    assert offered["PlayTurn"]["fields"]["dice_a"]["dice"] == [8, 8]
    assert rocet.legal_actions(t.state, legal.TABLE) == []
    t.turn(FINTA, TRETA, a=[4, 4], b=[1, 2])  # Finta beats Treta: side b owes a discard
    offered = by_type(rocet.legal_actions(t.state, legal.GM))
    assert list(offered) == rocet.actions(t.state)
    assert offered["Discard"]["side"] == "b" and offered["Discard"]["fields"]["side"]["choices"] == ["b"]
    assert offered["Discard"]["fields"]["card"]["choices"] == sorted(set(t.state["sides"]["b"]["hand"]),
                                                                     key=rocet.CARDS.index)


def test_rocet_offers_the_damage_its_winner_may_deal():
    t = Table({"cards": "physical"})
    t.turn(EA, FINTA, a=[5, 4], b=[1, 2])
    deal = by_type(rocet.legal_actions(t.state, legal.GM))["DealDamage"]
    assert deal["side"] == "a" and deal["fields"]["source"]["choices"] == ["attack"]


def test_pirate_offers_the_strike_to_the_side_whose_turn_it_is():
    d = PirateDuel("sword", sword_victory="first_blood")
    assert by_type(pirate.legal_actions(d.state, legal.GM))["RollInitiative"]["fields"]["dice_a"]["dice"] == [20]
    d.run(PirateInitiative(), a=[2], b=[15])
    attack = by_type(pirate.legal_actions(d.state, legal.GM))["Attack"]
    assert attack["side"] == "b" and attack["fields"]["side"]["choices"] == ["b"]
    assert pirate.legal_actions(d.state, legal.TABLE) == []


def test_pf2e_offers_initiative_to_who_has_not_rolled_and_the_strike_to_the_turns_holder():
    d = pf2e_duel()
    roll = by_type(pf2e.legal_actions(d.state, legal.GM))["RollInitiative"]
    assert roll["fields"]["duelist"]["choices"] == ["v", "k"] and "intimidation" in roll["fields"]["skill"]["choices"]
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[2])
    strike = by_type(pf2e.legal_actions(d.state, legal.GM))["Strike"]
    assert strike["side"] == "a" and strike["fields"]["attacker"]["choices"] == ["v"]
    assert strike["fields"]["target"]["choices"] == ["k"] and strike["fields"]["dice_attack"]["dice"] == [20]


def test_each_step_keeps_its_numbers_beside_its_line():
    t = Table({"cards": "physical"})
    t.turn(EA, FINTA, a=[6, 6], b=[1, 1])
    line = t.state["history"][-1]
    assert line["result"]["event"] == "RocetTurnResolved" and line["text"].startswith("Turn 1")
    rows = line["result"]["rolls"]
    assert rows[0]["a"]["mark"] == "critical" and rows[0]["b"]["mark"] == "fumble" and rows[0]["result"] == "a"
    started = coin_ruleset.evolve(None, _coin_start(), 1)
    played = coin_ruleset.evolve(started, coin_ruleset.CoinTurnPlayed(roll_a=5, roll_b=2), 2)
    assert played["history"][-1]["result"] == {"event": "CoinTurnPlayed", "roll_a": 5, "roll_b": 2,
                                               "hit_by": "a", "damage": 3}
    assert "result" not in started["history"][0]


def _coin_start():
    from tracker.rules import duel

    duelists = tuple({"id": f"c{s}", "name": s, "side": s, "rank": "", "stats": {"hp": 9}, "current": {}}
                     for s in duel.SIDES)
    return duel.DuelStarted(duel_id="d1", campaign_id="c1", session_id="s1", ruleset="coin", kind="plain",
                            duelists=duelists, settings={"hits": 3})


def test_a_field_that_needs_another_names_it_in_depends_on_and_a_roll_says_when_it_is_made():
    other = by_type(pf2e.legal_actions(_pf2e_turn().state, legal.GM))["OtherAction"]["fields"]
    assert other["check_modifier"]["depends_on"] == ["dc"] and other["dc"]["depends_on"] == ["check_modifier"]
    assert other["dice_check"]["depends_on"] == ["dc"]
    assert legal.roll("damage", "1d8+4", "hit") == {"for": "damage", "expression": "1d8+4", "when": "hit"}
    with pytest.raises(ValueError):
        legal.roll("damage", "1d8", "sometimes")


def _pf2e_turn():
    d = pf2e_duel()
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[2])
    return d


def test_pf2e_damage_fields_carry_the_dice_expression_they_are_rolled_for():
    d = _pf2e_turn()
    offered = by_type(pf2e.legal_actions(d.state, legal.GM))
    strike = offered["Strike"]["fields"]
    weapon = next(x for x in d.state["duelists"] if x["id"] == "v")["stats"]["damage"]
    assert strike["dice_attack"]["rolls"] == [{"for": "attack", "expression": "1d20", "when": "always"}]
    assert strike["dice_damage"]["rolls"] == [{"for": "damage", "expression": weapon, "when": "hit"}]
    assert "dice" not in strike["dice_damage"]  # rolled only on a hit: a client types none unless asked
    assert offered["Demoralize"]["fields"]["dice_check"]["rolls"][0]["expression"] == "1d20"
    condition = offered["SetCondition"]["fields"]["duelist"]
    assert condition["choices"] == [x["id"] for x in d.state["duelists"]]
    roll_first = by_type(pf2e.legal_actions(pf2e_duel().state, legal.GM))["RollInitiative"]["fields"]
    assert roll_first["skill"]["depends_on"] == ["duelist"]


@pytest.mark.parametrize("kind, blow", [("sword", "Attack"), ("pistol", "Shoot"), ("wit", "Insult")])
def test_a_pirate_blow_says_which_dice_its_side_rolls_a_d20_then_the_damage_on_a_hit(kind, blow):
    d = PirateDuel(kind, **({"distance": 5, **PISTOLS} if kind == "pistol" else {}))
    d.run(PirateInitiative(), a=[2], b=[15])
    fields = by_type(pirate.legal_actions(d.state, legal.GM))[blow]["fields"]
    assert fields["dice_b"]["dice"] == [20] and "dice" not in fields["dice_a"]
    rolls = fields["dice_b"]["rolls"]
    assert rolls[0] == {"for": "attack", "expression": "1d20", "when": "always"}
    damage = (d.state["settings"]["insults"][0]["damage"] if blow == "Insult"
              else d.state["settings"]["weapons"]["b"]["damage"])
    assert rolls[1] == {"for": "damage", "expression": damage, "when": "hit"}
    assert set(fields["dice_b"]["depends_on"]) >= {"ventaja", "desventaja"}
