"""A PF2e duelist's usual initiative skill (the last one they used) comes checked on the next
initiative form, in a later duel too; a duelist with no past gets the ruleset's [assumed] default,
their best trained skill."""
import re

from tests.web.test_pf2e_pages import Play, start, table  # noqa: F401 (the table fixture)


def checked_skill(page: str, duelist: str) -> str | None:
    form = re.search(rf'name="duelist" value="{duelist}">(.*?)</form>', page, re.S).group(1)
    found = re.search(r'name="skill" value="(\w+)" checked', form)
    return found.group(1) if found else None


def other_skill(page: str, duelist: str) -> str:
    """A skill the duelist's form offers that is not the one it checks."""
    form = re.search(rf'name="duelist" value="{duelist}">(.*?)</form>', page, re.S).group(1)
    return next(s for s in re.findall(r'name="skill" value="(\w+)"', form) if s != checked_skill(page, duelist))


def test_the_last_initiative_skill_used_is_the_next_default(client, table):  # noqa: F811
    first = start(client, table, "Seelah", "Baron Vex", kind="combat")
    play = Play(client, first)
    page = play.page()
    assert checked_skill(page, table["Seelah"]) == "intimidation"  # her best trained skill
    hers, his = other_skill(page, table["Seelah"]), other_skill(page, table["Baron Vex"])
    play.do("RollInitiative", duelist=table["Seelah"], skill=hers, dice_roll=12)
    play.do("RollInitiative", duelist=table["Baron Vex"], skill=his, dice_roll=5)
    second = Play(client, start(client, table, "Seelah", "Baron Vex", kind="combat"))
    page = second.page()
    assert checked_skill(page, table["Seelah"]) == hers
    assert checked_skill(page, table["Baron Vex"]) == his


def test_a_condition_is_set_and_removed_by_hand_on_the_duel_page(app, client, table):  # noqa: F811
    play = Play(client, start(client, table, "Seelah", "Baron Vex", kind="combat"))
    assert "Add or remove a condition by hand" in play.page()
    play.do("SetCondition", duelist=table["Baron Vex"], condition="frightened", value=2, reason="a roar")
    assert "Baron Vex is frightened 2 (set by hand: a roar)." in play.text()
    refused = play.do("SetCondition", status=422, duelist=table["Baron Vex"], condition="frightened", value=2)
    assert 'id="e-SetCondition-value">Baron Vex is already frightened 2<' in refused.text
    play.do("SetCondition", duelist=table["Baron Vex"], condition="frightened", value=0)
    assert "Baron Vex is no longer frightened (set by hand)." in play.text()
