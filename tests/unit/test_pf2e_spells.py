"""Pathfinder 2e spellcasting and mixed duels: tradition focus, Dueling Counter, Change Tradition Focus."""
from __future__ import annotations

from tests.unit.test_pf2e_support import Duel, caster, fighter
from tracker.rules.pf2e.commands import (CastSpell, ChangeTraditionFocus, DeclineCounter, DuelingCounter, EndTurn,
                                         RollInitiative, Strike)


def ezren():
    return fighter("e", "Ezren", "a", block=caster())


def seoni():
    return fighter("s", "Seoni", "b", block=caster(hp_max=32, arcana=7, arcana_rank="trained", occultism=8,
                                                   spell_dc=19, spell_slots="1:2, 2:2, 3:1"))


def test_a_spellcasting_duel_with_a_successful_and_a_failed_dueling_counter():
    d = Duel([ezren(), seoni()], kind="spellcasting", victory="knockout")
    assert d.refused(RollInitiative("e", "deception"), roll=[12]) == \
        "a spellcasting duel's initiative uses Perception, Arcana, Nature, Occultism, Religion"
    d.do(RollInitiative("e", "arcana"), roll=[12])  # 22
    d.do(RollInitiative("s", "occultism"), roll=[11])  # 19
    assert (d.state["order"], d.state["focus"]) == (["e", "s"], {"e": "arcane", "s": "occult"})
    assert d.state["reaction"] == {"e": "dueling_counter", "s": "dueling_counter"}
    assert d.refused(Strike(), attack=[10]) == "this is a spellcasting duel: only spells, no Strikes"

    # Seoni's focus is occult: an arcane spell cannot be countered and takes effect at once.
    events = d.do(CastSpell("Force Barrage", 2, "arcane", damage_expr="2d4+2"), damage=[3, 2])
    assert d.types(events) == ["Pf2eSpellCast", "Pf2eDamageDealt"]
    assert (d.hp("s"), d.state["slots"]["e"], d.state["expended"]["e"]) == (25, {"1": 3, "2": 1}, {"2": 1})
    d.do(EndTurn())

    assert d.refused(ChangeTraditionFocus("primal")) == \
        "Seoni is untrained in Nature and cannot focus on the primal tradition"
    d.do(ChangeTraditionFocus("arcane"))
    assert d.state["focus"]["s"] == "arcane"
    d.do(CastSpell("Phantom Pain", 2, "occult", damage_expr="2d4"), damage=[2, 3])
    assert (d.hp("e"), d.state["slots"]["s"]) == (25, {"1": 2, "2": 1, "3": 1})
    events = d.do(EndTurn())
    assert (events[0].next, events[0].new_round, d.state["round"], d.state["turn"]) == ("e", True, 2, "e")
    assert d.refused(RollInitiative("e", "arcana"), roll=[3]) == \
        "in a spellcasting duel initiative is rolled once, at the start, and holds"

    assert d.refused(CastSpell("Fireball", 3, "arcane")) == "Ezren has no rank-3 spell slot left"
    events = d.do(CastSpell("Force Barrage", 1, "arcane", damage_expr="1d4+1"))
    assert (events[0].pending, d.state["slots"]["e"]) == (True, {"1": 2, "2": 1})
    assert d.refused(EndTurn()) == "an opponent may first use Dueling Counter or let the spell take effect"
    events = d.do(DuelingCounter("s", slot_rank=1), check=[14])  # 14 + 7 = 21 vs DC 20: success
    assert d.types(events) == ["Pf2eCounterAttempted"]
    assert (events[0].total, events[0].dc, events[0].degree, events[0].counteracted) == (21, 20, "success", True)
    assert (d.hp("s"), d.state["slots"]["s"], d.state["reacted"]) == (25, {"1": 1, "2": 1, "3": 1}, {"s": True})
    d.do(EndTurn())

    events = d.do(CastSpell("Electric Arc", 2, "arcane", cantrip=True, damage_expr="2d4"))
    assert (events[0].pending, d.state["slots"]["s"]) == (True, {"1": 1, "2": 1, "3": 1})
    events = d.do(DuelingCounter("e", slot_rank=1), check=[5], damage=[4, 1])  # 15 vs DC 19: failure
    assert d.types(events) == ["Pf2eCounterAttempted", "Pf2eDamageDealt"]
    assert (events[0].degree, events[0].counteracted, d.hp("e")) == ("failure", False, 20)
    assert d.state["expended"]["e"] == {"2": 1, "1": 2}
    assert [s["countered"] for s in d.state["spells"]] == [None, None, True, False]

    d.do(EndTurn())  # round 3: reactions are back
    d.do(CastSpell("Force Barrage", 2, "arcane", damage=6))
    events = d.do(DeclineCounter())
    assert d.types(events) == ["Pf2eCounterDeclined", "Pf2eDamageDealt"]
    assert (d.hp("s"), d.hp("e"), d.state["round"]) == (19, 20, 3)
    assert d.replays()


def test_counteract_ranks():
    from tracker.rules.pf2e.checks import counteracts
    assert counteracts("critical_success", 1, 4) and not counteracts("critical_success", 1, 5)
    assert counteracts("success", 2, 3) and not counteracts("success", 2, 4)
    assert counteracts("failure", 3, 2) and not counteracts("failure", 3, 3)
    assert not counteracts("critical_failure", 5, 1)


def test_a_counter_with_the_spell_attack_setting_and_frightened_caster():
    d = Duel([ezren(), seoni()], kind="spellcasting", victory="knockout", counteract_with="spell_attack")
    d.do(RollInitiative("e", "arcana"), roll=[12])
    d.do(RollInitiative("s", "arcana"), roll=[1])  # 1 + 7 = 8: Seoni focuses arcane too
    d.do(CastSpell("Force Barrage", 1, "arcane"))
    events = d.do(DuelingCounter("s", slot_rank=1), check=[11])  # 11 + (19 − 10) = 20 vs DC 20
    assert (events[0].modifier, events[0].degree, events[0].counteracted) == (9, "success", True)


def test_a_mixed_duel_strikes_spells_and_a_focus_that_lasts_one_round():
    d = Duel([fighter("v", "Valeros", "a"), fighter("e", "Ezren", "b", block=caster())],
             kind="mixed", victory="knockout")
    d.do(RollInitiative("v", "intimidation"), roll=[15])  # 24
    d.do(RollInitiative("e", "arcana"), roll=[10])  # 20
    assert (d.state["reaction"], d.state["focus"]) == ({"v": "bullying_press", "e": "dueling_counter"},
                                                       {"v": None, "e": "arcane"})
    events = d.do(Strike(reaction="bullying_press"), attack=[8], damage=[5])  # 18 vs AC 17
    assert (events[0].degree, d.hp("e"), d.frightened("e")) == ("success", 21, 1)
    assert d.refused(CastSpell("Shield", 1, "arcane")) == "Valeros has no spell DC on the sheet"
    assert d.refused(ChangeTraditionFocus("arcane")) == \
        "Valeros did not gain Change Tradition Focus (it needs a trained magic skill for initiative)"
    d.do(EndTurn())

    events = d.do(CastSpell("Force Barrage", 1, "arcane", damage_expr="1d4+1"), damage=[3])
    assert (events[0].pending, d.hp("v"), d.state["slots"]["e"]) == (False, 36, {"1": 2, "2": 2})
    d.do(ChangeTraditionFocus("occult"))
    assert d.state["focus"]["e"] == "occult"
    d.do(EndTurn())
    assert (d.frightened("e"), d.state["focus"], d.state["reaction"], d.state["round"]) == (0, {}, {}, 2)

    d.do(RollInitiative("v", "perception"), roll=[12])  # 20
    events = d.do(RollInitiative("e", "perception"), roll=[9])  # 16: no focus this round
    assert (d.state["focus"], d.state["refocus"]) == ({"v": None, "e": None}, {"v": False, "e": False})
    assert d.state["reaction"] == {"v": "sense_weakness", "e": "sense_weakness"}
    assert d.replays()
