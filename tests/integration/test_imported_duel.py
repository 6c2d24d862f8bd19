"""Issue 31's "done when": a Foundry bestiary NPC, a Foundry iconic PC and a Pathbuilder PC, each
imported, fight a PF2e duel whose numbers are their sheets' (where each figure comes from:
tests/unit/test_pf2e_imports.py)."""
from pathlib import Path

import pytest

from tracker import bootstrap
from tests.conftest import fixed_context

pytestmark = pytest.mark.both_backends

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"


@pytest.fixture
def table(db):
    service = bootstrap.service(db, fixed_context())
    campaign = service.handle({"type": "CreateCampaign", "name": "Imports", "ruleset": "pf2e"}).key
    ids = {name: service.handle({"type": "ImportCharacter", "campaign_id": campaign,
                                 "json": (FIXTURES / f"{name}.json").read_text()}).key
           for name in ("goblin-warrior", "valeros-level-1", "pathbuilder-seoni")}
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Imported"}).key
    return service, ids, session


def duel(service, session, a, b):
    duel_id = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat", "victory": "knockout",
                              "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}]}).key

    def do(name, **fields):
        outcome = service.handle({"type": name, "duel_id": duel_id,
                                  "expected_version": service.version(f"duel-{duel_id}"), **fields})
        return {r.type: r.event for r in outcome.events}
    return do


def test_the_iconic_pc_fights_the_bestiary_npc_by_their_sheets(table):
    service, ids, session = table
    valeros, goblin = ids["valeros-level-1"], ids["goblin-warrior"]
    do = duel(service, session, valeros, goblin)
    assert do("RollInitiative", duelist=valeros, skill="perception", dice_roll=[10])["Pf2eInitiativeRolled"].total == 15  # Perception +5
    assert do("RollInitiative", duelist=goblin, skill="perception", dice_roll=[5])["Pf2eInitiativeRolled"].total == 7  # Perception +2
    struck = do("Strike", dice_attack=[8], dice_damage=[5])
    roll, hurt = struck["Pf2eStrikeRolled"], struck["Pf2eDamageDealt"]
    assert (roll.modifier, roll.total, roll.ac, roll.degree) == (9, 17, 16, "success")  # Longsword +9 against AC 16
    assert (hurt.expression, hurt.amount, hurt.hp_after) == ("1d8+4", 9, 0)  # 5 + Str 4 against the goblin's 6 HP


def test_the_pathbuilder_pc_and_the_npc_trade_strikes_by_their_sheets(table):
    service, ids, session = table
    seoni, goblin = ids["pathbuilder-seoni"], ids["goblin-warrior"]
    do = duel(service, session, seoni, goblin)
    assert do("RollInitiative", duelist=seoni, skill="perception", dice_roll=[10])["Pf2eInitiativeRolled"].total == 16  # +6
    do("RollInitiative", duelist=goblin, skill="perception", dice_roll=[5])
    struck = do("Strike", dice_attack=[11], dice_damage=[3])
    assert (struck["Pf2eStrikeRolled"].total, struck["Pf2eStrikeRolled"].ac) == (16, 16)  # Staff +5 against AC 16
    assert (struck["Pf2eDamageDealt"].amount, struck["Pf2eDamageDealt"].hp_after) == (3, 3)  # 1d4 of the goblin's 6
    do("EndTurn")
    answered = do("Strike", dice_attack=[9], dice_damage=[4])
    assert (answered["Pf2eStrikeRolled"].total, answered["Pf2eStrikeRolled"].ac) == (17, 17)  # Dogslicer +8 against AC 17
    assert (answered["Pf2eDamageDealt"].expression, answered["Pf2eDamageDealt"].hp_after) == ("1d6", 25)  # of 29 HP
