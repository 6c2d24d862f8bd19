"""The face of the Pathfinder 2e ruleset: stats, set-up, the players' view, the log, the events' shape."""
from __future__ import annotations

import dataclasses
from tests import plain_json as json

import pytest

from tests.unit.test_pf2e_support import HEADER, Duel, caster, fighter, play, sheet
from tracker.domain.events import from_data, to_data
from tracker.rules import pf2e
from tracker.rules.base import ImpossibleHistory, Invalid, Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pf2e import events as pf2e_events
from tracker.rules.pf2e.commands import CastSpell, DeclineSidestep, RollInitiative, Strike
from tracker.rules.pf2e.sheet import SKILLS


def test_the_ruleset_registers_with_its_face():
    from tracker import rules
    module = rules.get("pf2e")
    assert (module.TITLE, list(module.KINDS)) == ("Pathfinder 2e", ["combat", "spellcasting", "mixed"])
    assert module.TRACKS[0]["max_stat"] == "hp_max"
    assert {"Yield", "Disqualify", "Abandon", "Strike", "Tag", "EscalateToCombat"} <= set(module.COMMANDS)


def test_stats_are_validated_with_messages_a_gm_understands():
    stats = sheet(spell_slots={"2": 2, "1": 3}, damage="1d8 + 4")
    assert (stats["spell_slots"], stats["damage"], stats["intimidation_rank"]) == ("1:3, 2:2", "1d8+4", "expert")
    with pytest.raises(Invalid) as bad:
        pf2e.validate_stats({"level": 3, "hp_max": 0, "ac": 18, "attack_bonus": 7, "damage": "a sword",
                             "deception_rank": "grandmaster", "spell_slots": "1:3, 11:1"})
    assert bad.value.errors == {"hp_max": "must be at least 1",
                                "deception_rank": "must be one of Untrained, Trained, Expert, Master, Legendary"}
    with pytest.raises(Invalid) as bad:
        pf2e.validate_stats(dict(sheet(), damage="a sword", spell_slots="1:3, 11:1"))
    assert bad.value.errors == {"damage": "must be dice such as 1d8 or 2d6+3",
                                "spell_slots": "spell ranks go from 1 to 10, not 11"}


def test_start_refuses_who_cannot_duel():
    no_sheet = {"id": "x", "name": "Bystander", "side": "b", "rank": "minor", "stats": None, "current": {}}
    with pytest.raises(Refused) as refusal:
        pf2e.start(HEADER, {}, [fighter("v", "Valeros", "a"), no_sheet], fixed_dice())
    assert refusal.value.reason == "Bystander has no Pathfinder 2e stats block: fill it in before the duel"
    with pytest.raises(Refused) as refusal:
        pf2e.start(HEADER, {"teams": "tag"}, [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], fixed_dice())
    assert refusal.value.reason == "pairs as tag teams needs two duelists on side A, not 1"
    with pytest.raises(Refused) as refusal:
        pf2e.start(HEADER, {}, [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", hp=0)], fixed_dice())
    assert refusal.value.reason == "Kyra is at 0 HP and cannot duel"


def test_duel_started_keeps_terms_and_current_hp():
    d = Duel([fighter("v", "Valeros", "a", hp=25), fighter("k", "Kyra", "b")],
             kind="combat", no_reach=True, penalty="public apology")
    started = d.events[0]
    assert (started.ruleset, started.kind, started.judge, started.challenger) == ("pf2e", "combat", "Magistrate Ilse", "a")
    assert (started.settings["melee_only"], started.settings["no_poison"], started.settings["no_reach"]) == (True, True, True)
    assert (d.hp("v"), d.hp("k")) == (25, 40)
    assert d.state["history"][0]["text"] == \
        "Combat duel: Valeros against Kyra, until first blood; judge: Magistrate Ilse."
    assert any("Magistrate Ilse confirms" in line for line in pf2e.assumptions(d.state))
    assert pf2e.progress(d.state) == "Round 1, initiative"


def mixed_round() -> Duel:
    d = Duel([fighter("v", "Valeros", "a"), fighter("e", "Ezren", "b", block=caster())], kind="mixed",
             victory="knockout")
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("e", "deception"), roll=[10])
    d.do(Strike(reaction="sense_weakness"), attack=[10])
    return d


def test_public_never_reveals_an_initiative_skill_nor_what_it_granted():
    d = mixed_round()
    assert d.state["pending"] is not None  # Ezren could still Sidestep: secret too
    view = pf2e.public(d.state)
    assert view["rolls"] == {"v": {"total": 23}, "e": {"total": 17}}
    assert view["waiting"] is True
    for key in ("reaction", "reacted", "focus", "refocus", "pending"):
        assert key not in view
    log = " ".join(str(entry["text"]) for entry in view["history"]).lower()
    assert not any(skill in log for skill in SKILLS)
    assert "skill" not in keys(view)


def keys(value) -> set:
    """Every key at any depth of a JSON-like value."""
    if isinstance(value, dict):
        return set(value) | set().union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


def test_state_is_json_and_replays_identically():
    d = mixed_round()
    d.do(DeclineSidestep(), damage=[4])
    text = json.dumps(d.state, sort_keys=True)
    assert json.loads(text) == d.state
    assert json.dumps(play(d.events), sort_keys=True) == json.dumps(play(d.events), sort_keys=True) == text


def test_every_event_type_round_trips():
    samples = [
        pf2e_events.Pf2eInitiativeRolled(1, "v", "perception", 12, 8, 20),
        pf2e_events.Pf2eSkillChosen(1, "v", "deception"),
        pf2e_events.Pf2eRoundOrdered(1, (("v",), ("k", "h"))),
        pf2e_events.Pf2eTieBroken(1, "k"), pf2e_events.Pf2eActedSecond(1, "v"),
        pf2e_events.Pf2eStrikeRolled("v", "k", 12, 10, 22, 20, "success", "bullying_press", True, 7),
        pf2e_events.Pf2eSidestepUsed("k", "v", 9, 10, -2, 17, 20, "failure"),
        pf2e_events.Pf2eSidestepDeclined("k"),
        pf2e_events.Pf2eDamageDealt("v", "k", "Strike", "1d8+4", (5,), 9, "double", 18, 22),
        pf2e_events.Pf2eFrightened("k", 2, "Bullying Press"), pf2e_events.Pf2eOffGuard("k", "Sense Weakness"),
        pf2e_events.Pf2eTurnEnded("v", 0, "k", False), pf2e_events.Pf2eTagged("a", "v", "m"),
        pf2e_events.Pf2eSpellCast("e", "Force Barrage", 1, "arcane", False, "s", "1d4+1", None, "full", True),
        pf2e_events.Pf2eCounterAttempted("s", "e", "Force Barrage", 1, 1, 14, 7, 21, 20, "success", True),
        pf2e_events.Pf2eCounterDeclined("Force Barrage"), pf2e_events.Pf2eFocusChanged("s", "arcane"),
        pf2e_events.Pf2eVictoryProposed("a", "first_blood", "v", "k"),
        pf2e_events.Pf2eVictoryDeclined("a scratch"), pf2e_events.Pf2ePenaltyImposed("a", "apology"),
        pf2e_events.Pf2eDuelEscalated("b", "fought on"),
        pf2e_events.Pf2eDemoralized("s", "t", 14, 9, 23, 17, "success", 1),
        pf2e_events.Pf2eFeinted("s", "t", 3, 7, 10, 18, "failure", ""),
        pf2e_events.Pf2eActionTaken("s", "Stride", 1),
        pf2e_events.Pf2eReactionReadied(1, "v", "bullying_press"),
        pf2e_events.Pf2eReactionWithdrawn(1, "v", "bullying_press"),
    ]
    defined = {name for name, obj in vars(pf2e_events).items()
               if isinstance(obj, type) and dataclasses.is_dataclass(obj) and name.startswith("Pf2e")}
    assert {type(e).__name__ for e in samples} == defined
    for event in samples:
        data = json.loads(json.dumps(to_data(event)))
        assert from_data(type(event).__name__, data) == event


def test_actions_offer_only_legal_moves():
    d = Duel([fighter("v", "Valeros", "a"), fighter("e", "Ezren", "b", block=caster())], kind="mixed",
             victory="knockout")
    assert pf2e.actions(d.state) == ["RollInitiative", "Yield", "Disqualify", "Abandon", "SetCondition"]
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("e", "arcana"), roll=[10])
    assert pf2e.actions(d.state) == ["ActSecond", "Strike", "CastSpell", "Demoralize", "Feint", "EndTurn", "OtherAction", "Yield", "Disqualify", "Abandon", "SetCondition"]
    assert pf2e.progress(d.state) == "Round 1, Valeros's turn"
    d.do(Strike(), attack=[2])
    assert pf2e.actions(d.state)[:3] == ["Strike", "CastSpell", "Demoralize"]  # no more acting second
    d.do(pf2e.COMMANDS["EndTurn"]())
    assert pf2e.actions(d.state)[:7] == ["Strike", "CastSpell", "Demoralize", "Feint",
                                           "ChangeTraditionFocus", "EndTurn", "OtherAction"]
    d.do(CastSpell("Force Barrage", 1, "arcane", damage=3))
    assert d.hp("v") == 37


def test_every_command_declares_a_field_for_each_attribute():
    for name, cls in pf2e.COMMANDS.items():
        declared = {f.name for f in getattr(cls, "FIELDS", ())}
        assert declared == {f.name for f in dataclasses.fields(cls)}, name


def test_the_rules_import_no_adapter_nor_randomness():
    import pathlib
    folder = pathlib.Path(pf2e.__file__).parent
    for module in folder.glob("*.py"):
        text = module.read_text()
        assert "import random" not in text and "flask" not in text.lower() and "sqlite" not in text, module.name


def test_the_initiative_line_gives_totals_never_skills():
    d = Duel([fighter("s", "Seelah", "a"), fighter("v", "Baron Vex", "b", rank="villano")], kind="combat")
    d.do(RollInitiative("s", "intimidation"), roll=[12])
    d.do(RollInitiative("v", "deception"), roll=[11])
    lines = [entry["text"] for entry in d.state["history"]]
    assert lines[-1] == "Round 1 initiative: Seelah 21, Baron Vex 18."
    assert not any(skill in line.lower() for line in lines for skill in SKILLS)


def test_the_board_drawn_from_the_public_view_holds_no_secret():
    d = mixed_round()
    gm, shown = pf2e.board(d.state), pf2e.board(pf2e.public(d.state))
    assert gm["order"][0]["skill"] == "Perception" and gm["pending"]
    assert [p["total"] for p in shown["order"]] == [23, 17]
    assert not any(skill in json.dumps(shown).lower() for skill in SKILLS)
    assert shown["pending"] is None and all(not d["reaction"] for s in shown["sides"] for d in s["duelists"])


@pytest.mark.parametrize("event", [
    pf2e_events.Pf2eActedSecond(1, "v"),
    pf2e_events.Pf2eCounterDeclined("Daze"),
    pf2e_events.Pf2eCounterAttempted("k", "v", "Daze", 1, 1, 10, 5, 15, 18, "failure", False),
    pf2e_events.Pf2eDamageDealt("v", "k", "Strike", "", (), 50, "full", 50, 7),
    pf2e_events.Pf2eVictoryDeclined(""),
])
def test_folding_refuses_events_whose_cause_is_not_there(event):
    """After a retraction the cause goes with them; met alone, each is an impossible history."""
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], kind="combat")
    with pytest.raises(ImpossibleHistory):
        pf2e.evolve(d.state, event, 9)
    assert pf2e.invariants(d.state) == []
