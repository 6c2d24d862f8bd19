"""The GM's page of a seated PF2e or pirate duel (templates/duels/pf2e, templates/duels/pirate): it
never renders a seat's sealed choice, and offers the GM a choice form only for a side the GM plays
(an NPC, or a seat the GM took over), never for a side a player's seat plays. Rocèt's page draws
its forms from ``policy.offered_to_the_gm`` (tests/web/test_seats.py)."""
from __future__ import annotations

import html
import re

import pytest

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import choose_insult, choose_skill, issue_seat, pf2e_sealed, state, wit_sealed
from tests.unit.test_rules_in_spanish import spanish
from tracker.rules.pf2e.sheet import SKILL_NAMES

SPANISH = spanish()


def forms(page: str, command: str) -> list[str]:
    """The bodies of the page's forms that send ``command``."""
    return re.findall(rf'<form[^>]*action="[^"]*/do/{command}"[^>]*>(.*?)</form>', page, re.S)


def offered_for(page: str, command: str, field: str) -> set[str]:
    """Whom the page's ``command`` forms choose for (their hidden ``field``)."""
    return {value for body in forms(page, command)
            for value in re.findall(rf'<input type="hidden" name="{field}" value="([^"]+)"', body)}


def gm_pages(client, duel: str) -> str:
    return "\n".join(html.unescape(client.get(f"/duels/{duel}{lang}").text) for lang in ("", "?lang=es"))


RULESETS = {
    "pf2e": (pf2e_sealed, "ChooseSkill", "duelist",
             lambda anonymous, seat, duel, value: choose_skill(anonymous, seat, duel["duel"], duel["people"][0], value),
             ("intimidation", "deception")),
    "pirate": (wit_sealed, "ChooseInsult", "side",
               lambda anonymous, seat, duel, value: choose_insult(anonymous, seat, duel["duel"], "a", value),
               ("Humillación", "Provocación")),
}


def names(ruleset: str, value: str) -> list[str]:
    if ruleset == "pf2e":
        name = SKILL_NAMES[value]  # a translated term (Engaño), or a plain word
        return [value, str(name), SPANISH.gettext(getattr(name, "msgid", name))]
    return [value]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_gms_page_never_renders_a_seats_sealed_choice(client, anonymous, gm_service, ruleset):
    make, _, _, chooses, (value, other) = RULESETS[ruleset]
    duel = make(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    pages = {}
    for chosen in (value, other, value):  # the seat changes its mind and back: the GM's page must not follow
        assert chooses(anonymous, seat, duel, chosen).status_code == 200
        assert state(gm_service, duel["duel"])["sealed"]
        pages[chosen] = gm_pages(client, duel["duel"])
    for word in {w for v in (value, other) for w in names(ruleset, v)}:
        assert pages[value].count(word) == pages[other].count(word), (word, "the GM's page follows the sealed choice")
    assert "has chosen." in pages[value]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_gms_page_offers_a_choice_only_for_a_side_the_gm_plays(client, anonymous, gm_service, ruleset):
    make, command, field, _, _ = RULESETS[ruleset]
    mine = lambda duel, at: duel["people"][at] if field == "duelist" else "ab"[at]  # noqa: E731
    duel = make(gm_service, npc=True)  # Lope is an NPC: the GM chooses for him
    page = gm_pages(client, duel["duel"])
    assert offered_for(page, command, field) == {mine(duel, 0), mine(duel, 1)}  # no seat yet: the GM plays both
    issue_seat(client, duel["session"], duel["people"][0])
    page = gm_pages(client, duel["duel"])
    assert offered_for(page, command, field) == {mine(duel, 1)}  # Inés/Seelah decides on her phone
    assert "is choosing on their seat" in page
    gm_service.handle({"type": "TakeOverSeat", "duel_id": duel["duel"], "side": "a"})
    page = gm_pages(client, duel["duel"])
    assert offered_for(page, command, field) == {mine(duel, 0), mine(duel, 1)}  # taken over: the GM's again
    assert "is choosing on their seat" not in page

    seated = make(gm_service)  # two players, one seat: the player without one is the GM's to choose for
    issue_seat(client, seated["session"], seated["people"][1])
    assert offered_for(gm_pages(client, seated["duel"]), command, field) == {mine(seated, 0)}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_with_every_side_on_a_phone_the_gms_page_still_says_where_each_stands(client, anonymous, gm_service, ruleset):
    """Both duelists seated: the GM has no choice form left to offer, and the page still lists each
    side as choosing on their seat, then as having chosen (it showed neither: the list hung on the
    GM's own choice form)."""
    make, command, field, chooses, (value, _) = RULESETS[ruleset]
    duel = make(gm_service)
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    page = gm_pages(client, duel["duel"])
    assert offered_for(page, command, field) == set()
    assert page.count("is choosing on their seat") == 2
    assert chooses(anonymous, seats[0], duel, value).status_code == 200
    page = gm_pages(client, duel["duel"])
    assert page.count("is choosing on their seat") == 1 and "has chosen." in page
    assert offered_for(page, command, field) == set()
