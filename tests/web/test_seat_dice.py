"""A seat that rolls its own dice types them with its sealed choice (issue 28): PF2e's initiative
d20 is checked on the seat that typed it, kept sealed with the skill, and rolled at the reveal;
a refusal names no sealed value (the rival's die or skill)."""
from __future__ import annotations

import re

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat, pf2e_sealed


def choose(anonymous, seat, duel, who, skill, die, tap):
    return anonymous.post(f"{seat}/do/ChooseSkill", headers={"HX-Request": "true"},
                          data={"duel_id": duel, "duelist": who, "skill": skill, "round": 1, "dice_roll": die,
                                "command_id": tap})


def seats_roll(gm):
    duel = pf2e_sealed(gm)
    gm.handle({"type": "Abandon", "duel_id": duel["duel"], "expected_version": gm.version(f"duel-{duel['duel']}")})
    duel["duel"] = gm.handle({"type": "StartDuel", "session_id": duel["session"], "ruleset": "pf2e", "kind": "combat",
                              "victory": "knockout", "choices": "sealed", "dice_by": "seats",
                              "duelists": [{"character_id": duel["people"][0], "side": "a"},
                                           {"character_id": duel["people"][1], "side": "b"}]}).key
    return duel


def test_a_seats_typed_d20_is_sealed_with_its_skill_and_rolled_at_the_reveal(client, anonymous, gm_service):
    duel = seats_roll(gm_service)
    d, (seelah, vex) = duel["duel"], duel["people"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    first = choose(anonymous, seats[0], d, seelah, "intimidation", "17", "t1")
    assert first.status_code == 200, first.text
    assert "Your skill: <strong>Intimidation</strong>" in first.text
    # Out of a d20's range: refused on the seat that typed it, naming neither die nor skill of the rival.
    for wrong in ("25", "0", "3 4"):
        refused = choose(anonymous, seats[1], d, vex, "deception", wrong, f"t-{wrong}")
        assert refused.status_code == 422
        said = re.findall(r'<span class="error" id="e-seat-d20">([^<]*)</span>', refused.text)
        # Neither the rival's die nor skill: what a d20 takes, said alike whatever the rival chose.
        assert said in (["type the d20 you rolled, e.g. 14"], ["each die shows a number from 1 up"]), said
    answer = choose(anonymous, seats[1], d, vex, "deception", "9", "t2")
    assert answer.status_code == 200 and "Revealed — round 1 initiative" in answer.text
    rolls = gm_service.state_of(f"duel-{d}")[1]["rolls"]
    assert {who: (roll["skill"], roll["die"]) for who, roll in rolls.items()} == {
        seelah: ("intimidation", 17), vex: ("deception", 9)}
