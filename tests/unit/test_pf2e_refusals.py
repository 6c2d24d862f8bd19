"""Every PF2e refusal, word for word and by the field it belongs to, for the GM's form to show beside it."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.base import Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pf2e.commands import (ActSecond, BreakTie, CastSpell, ChangeTraditionFocus, ConfirmVictory,
                                         DeceptiveSidestep, DeclineCounter, DeclineVictory, DuelingCounter, EndTurn,
                                         EscalateToCombat, RollInitiative, Strike, Tag)

from tests.unit.test_pf2e_edges import ezren, seoni, spell_duel, two_fighters
from tests.unit.test_pf2e_support import Duel, caster, fighter


def fresh(**setup):
    return Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], **setup)


def tied_pcs():
    d = fresh()
    d.do(RollInitiative("v", "perception"), roll=[10])
    d.do(RollInitiative("k", "deception"), roll=[11])  # 18 each
    return d


def four(teams="together", **setup):
    return Duel([fighter("v", "Valeros", "a"), fighter("m", "Merisiel", "a"),
                 fighter("k", "Kyra", "b"), fighter("h", "Harsk", "b")], teams=teams, victory="knockout", **setup)


def together():
    d = four()
    for who, die in (("v", 15), ("m", 12), ("k", 10), ("h", 5)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    return d


def together_tie():
    d = four()
    for who, die in (("v", 12), ("m", 12), ("k", 10), ("h", 5)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    return d


def harsk_down():
    d = together()
    d.state = dict(d.state, hp=dict(d.state["hp"], h=0))
    return d


def tag_team():
    d = four("tag")
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[10])
    return d


def tag_partner_down():
    d = tag_team()
    d.state = dict(d.state, hp=dict(d.state["hp"], m=0))
    return d


def valeros_down():
    d = two_fighters(victory="custom", victory_text="the judge's word")
    d.state = dict(d.state, hp={"v": 0, "k": 40})
    return d


def kyra_down():
    d = two_fighters(victory="custom", victory_text="the judge's word")
    d.state = dict(d.state, hp={"v": 40, "k": 0})
    return d


def ranged():
    return two_fighters(melee_only=False)


def pressed():
    """Both rolled Intimidation: each may use Bullying Press; Valeros has already used his."""
    d = fresh()
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[5])
    d.do(Strike(reaction="bullying_press"), attack=[2])
    return d


def mixed():
    d = Duel([fighter("v", "Valeros", "a"), fighter("e", "Ezren", "b", block=caster())], kind="mixed")
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("e", "arcana"), roll=[2])
    return d


def ezren_turn_mixed():
    d = mixed()
    d.do(EndTurn())
    return d


def waiting_spell():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    return d


def waiting_arcane():
    """Ezren casts an arcane spell while Seoni is focused on occult: nothing waits."""
    d = spell_duel()
    d.state = dict(d.state, pending={"kind": "spell", "caster": "e", "spell": "Fireball", "rank": 3,
                                      "tradition": "arcane", "target": "s", "damage_expr": "",
                                      "damage_typed": 5, "effect": "full"})
    return d


def seoni_reacted():
    d = waiting_spell()
    d.state = dict(d.state, reacted={"e": False, "s": True})
    return d


def seoni_no_rank_3():
    return waiting_spell()


def seoni_turn():
    d = spell_duel()
    d.do(EndTurn())
    return d


def rolled_once():
    d = fresh()
    d.do(RollInitiative("v", "perception"), roll=[5])
    return d


def alone():
    """Kyra is down in a duel the judge decides: Valeros rolls initiative alone."""
    d = two_fighters(victory="custom", victory_text="the judge's word")
    d.state = dict(d.state, hp={"v": 40, "k": 0})
    d.do(EndTurn())
    d.do(RollInitiative("v", "perception"), roll=[9])
    return d


def tie_broken():
    d = tied_pcs()
    d.do(BreakTie("k"))
    return d


def ezren_down():
    d = spell_duel()
    d.state = dict(d.state, hp={"e": 0, "s": 32})
    return d


def over():
    d = two_fighters()
    d.do(EndTurn())
    from tracker.rules.duel import Yield
    d.do(Yield(side="b"))
    return d


def escalated():
    d = over()
    d.do(EscalateToCombat(side="b"))
    return d


def proposed():
    d = two_fighters()
    d.do(Strike(), attack=[15], damage=[3])
    return d


def struck():
    d = two_fighters(victory="knockout")
    d.do(Strike(), attack=[2])
    return d


def knockout():
    return two_fighters(victory="knockout")


def custom():
    return two_fighters(victory="custom", victory_text="the judge's word")


REFUSALS = [
    # initiative
    (two_fighters, RollInitiative("v", "perception"), {"roll": [5]}, "initiative for round 1 is already rolled", None),
    (spell_duel, RollInitiative("e", "arcana"), {"roll": [5]},
     "in a spellcasting duel initiative is rolled once, at the start, and holds", None),
    (lambda: four("tag"), RollInitiative("m", "deception"), {"roll": [5]},
     "Merisiel is not fighting this round", "duelist"),
    (lambda: four("tag"), RollInitiative("x", "deception"), {"roll": [5]}, "no duelist 'x' in this duel", None),
    (rolled_once, RollInitiative("v", "deception"), {"roll": [5]},
     "Valeros has already rolled initiative this round", "duelist"),
    (fresh, RollInitiative("v", "arcana"), {"roll": [5]},
     "a combat duel's initiative uses Deception, Intimidation, Perception", "skill"),
    (lambda: fresh(kind="spellcasting"), RollInitiative("v", "intimidation"), {"roll": [5]},
     "a spellcasting duel's initiative uses Perception, Arcana, Nature, Occultism, Religion", "skill"),
    (lambda: fresh(kind="mixed"), RollInitiative("v", "dance"), {"roll": [5]},
     "a mixed duel's initiative uses Deception, Intimidation, Perception, Arcana, Nature, Occultism, Religion",
     "skill"),
    # ties and order
    (two_fighters, BreakTie("v"), {}, "there is no initiative tie to break", None),
    (together_tie, BreakTie("k"), {}, "Kyra is not among the tied duelists: Valeros, Merisiel", "first"),
    (spell_duel, ActSecond(), {}, "acting second is a combat-duel choice", None),
    (alone, ActSecond(), {}, "only the initiative winner may choose to act second, before anyone acts this round", None),
    (tie_broken, BreakTie("v"), {}, "there is no initiative tie to break", None),
    (struck, ActSecond(), {}, "only the initiative winner may choose to act second, before anyone acts this round",
     None),
    (tied_pcs, EndTurn(), {}, "the initiative tie must be broken first", None),
    (fresh, EndTurn(), {}, "nobody's turn yet: roll initiative for round 1", None),
    (two_fighters, EndTurn(duelist="k"), {}, "Kyra cannot end a turn out of turn: it is Valeros's turn", None),
    (spell_duel, ChangeTraditionFocus(duelist="s", tradition="arcane"), {},
     "Seoni cannot Change Tradition Focus out of turn: it is Ezren's turn", None),
    (spell_duel, CastSpell("Daze", 1, "arcane", caster="s", cantrip=True), {},
     "Seoni cannot cast a spell out of turn: it is Ezren's turn", None),
    (two_fighters, Strike(attacker="k"), {"attack": [5]}, "Kyra cannot Strike out of turn: it is Valeros's turn", None),
    # tagging
    (two_fighters, Tag(side="a"), {}, "tagging is only for tag-team duels", None),
    (tag_partner_down, Tag(side="a"), {}, "Merisiel is knocked out: nobody to tag in", "side"),
    (tag_team, Tag(side="b"), {}, "Kyra can tag Harsk in only on their own turn (or at once if knocked out)", "side"),
    # strikes and their targets
    (spell_duel, Strike(), {"attack": [5]}, "this is a spellcasting duel: only spells, no Strikes", None),
    (valeros_down, Strike(), {"attack": [5]}, "Valeros is knocked out", None),
    (two_fighters, Strike(melee=False), {"attack": [5]}, "the agreed terms allow melee weapons only", "melee"),
    (ranged, Strike(melee=False, reaction="sense_weakness"), {"attack": [5]},
     "Sense Weakness works only with a melee Strike", "reaction"),
    (pressed, Strike(reaction="bullying_press"), {"attack": [5]},
     "Valeros has already used a reaction this round", "reaction"),
    (two_fighters, Strike(reaction="bullying_press"), {"attack": [5]},
     "Valeros did not gain Bullying Press this round", "reaction"),
    (together, Strike(), {"attack": [5]}, "choose a target: there is more than one opponent", "target"),
    (kyra_down, Strike(), {"attack": [5]}, "no opponent left standing", "target"),
    (together, Strike(target="m"), {"attack": [5]}, "Merisiel is on Valeros's own side", "target"),
    (tag_team, Strike(target="h"), {"attack": [5]}, "Harsk is tagged out", "target"),
    (harsk_down, Strike(target="h"), {"attack": [5]}, "Harsk is already knocked out", "target"),
    (two_fighters, DeceptiveSidestep(), {"attack": [5]}, "no hit is waiting for Deceptive Sidestep", None),
    # spells
    (two_fighters, CastSpell("Daze", 1, "arcane", cantrip=True), {},
     "this is a combat duel: spells belong to spellcasting or mixed duels", None),
    (mixed, CastSpell("Daze", 1, "arcane", cantrip=True), {}, "Valeros has no spell DC on the sheet", None),
    (ezren_down, CastSpell("Daze", 1, "arcane", cantrip=True), {}, "Ezren is knocked out", None),
    (spell_duel, CastSpell("Daze", 1, "arcane", cantrip=True, target="e", damage=1), {},
     "Ezren is on Ezren's own side", "target"),
    (spell_duel, CastSpell("Fireball", 3, "arcane", damage=1), {}, "Ezren has no rank-3 spell slot left", "rank"),
    (spell_duel, CastSpell("Fireball", 1, "arcane", damage_expr="6x6"), {},
     None, "damage_expr"),
    (two_fighters, DuelingCounter("k", slot_rank=1), {"check": [5]}, "no spell is waiting for a Dueling Counter", None),
    (two_fighters, DeclineCounter(), {}, "no spell is waiting for a Dueling Counter", None),
    (waiting_spell, DuelingCounter("e", slot_rank=1), {"check": [5]},
     "Ezren cannot counter a spell cast by their own side", "duelist"),
    (seoni_reacted, DuelingCounter("s", slot_rank=1), {"check": [5]},
     "Seoni has already used a reaction this round", "duelist"),
    (waiting_arcane, DuelingCounter("s", slot_rank=1), {"check": [5]},
     "Seoni has no Dueling Counter against arcane spells", "duelist"),
    (seoni_no_rank_3, DuelingCounter("s", slot_rank=4), {"check": [5]},
     "Seoni has no rank-4 slot left to expend", "slot_rank"),
    (mixed, ChangeTraditionFocus(tradition="arcane"), {},
     "Valeros did not gain Change Tradition Focus (it needs a trained magic skill for initiative)", None),
    (spell_duel, ChangeTraditionFocus(tradition="arcane"), {}, "Ezren's focus is already arcane", "tradition"),
    (spell_duel, ChangeTraditionFocus(tradition="primal"), {},
     "Ezren is untrained in Nature and cannot focus on the primal tradition", "tradition"),
    # endings
    (proposed, ConfirmVictory(side="b"), {},
     "the rules propose victory for Valeros; decline it first if the judge sees otherwise", "side"),
    (two_fighters, ConfirmVictory(), {}, "the victory condition is not met yet: nobody has drawn first blood", None),
    (knockout, ConfirmVictory(), {}, "the victory condition is not met yet: no side is knocked out", None),
    (custom, ConfirmVictory(), {}, "name the side that met the victory condition", "side"),
    (two_fighters, DeclineVictory(), {}, "no victory is waiting for the judge", None),
    (two_fighters, EscalateToCombat(), {}, "the duel has not ended: there is nothing to escalate yet", None),
    (escalated, EscalateToCombat(), {}, "this duel has already escalated to normal combat", None),
]


@pytest.mark.parametrize("scenario, command, typed, reason, field", REFUSALS,
                         ids=[f"{n}-{type(r[1]).__name__}" for n, r in enumerate(REFUSALS)])
def test_each_refusal_reads_and_points_at_its_field(scenario, command, typed, reason, field):
    d = scenario()
    if reason is None and field is None:  # the command is accepted in this scenario
        d.do(command, **typed)
        return
    with pytest.raises(Refused) as refusal:
        pf2e.decide(d.state, command, fixed_dice(**typed))
    if reason is not None:
        assert refusal.value.reason == reason
    assert refusal.value.field == field


def test_a_bad_damage_expression_names_the_damage():
    reason = spell_duel().refused(CastSpell("Fireball", 1, "arcane", damage_expr="6x6"))
    assert reason.startswith("damage ") and len(reason) > len("damage ")
