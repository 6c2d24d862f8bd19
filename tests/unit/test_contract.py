"""The ruleset face declared once: what ``missing`` reports, what ``register`` refuses, statistics' columns."""
from __future__ import annotations

import types

import pytest

from tracker import rules
from tracker.rules import contract
from tracker.rules.contract import Statistic


def test_the_shipped_rulesets_lack_nothing_and_are_listed_in_order():
    assert [m.NAME for m in rules.shipped()] == ["rocet", "pirate", "pf2e"]
    for module in rules.shipped():
        assert contract.missing(module) == []
        assert rules.get(module.NAME) is module


def test_an_empty_module_lacks_the_whole_face_in_declaration_order():
    lacking = contract.missing(types.ModuleType("empty"))
    assert lacking[:4] == ["NAME", "TITLE", "KINDS", "STATS"]
    # the annotated names first, then the methods, each once
    assert lacking[lacking.index("samples") + 1:lacking.index("samples") + 3] == ["validate_stats", "start"]
    assert lacking[-2:] == ["retraction_carries", "invariants"]
    assert len(lacking) == len(set(lacking)) == 35
    assert not any(name.startswith("samples.") for name in lacking)


def copy_of(module, **changes):
    fake = types.ModuleType(module.__name__ + "_copy")
    for name in contract._members(contract.Ruleset):
        setattr(fake, name, getattr(module, name))
    for name, value in changes.items():
        if value is None:
            delattr(fake, name)
        else:
            setattr(fake, name, value)
    return fake


def test_a_module_missing_one_name_or_a_sample_part_says_which():
    pirate = rules.get("pirate")
    assert contract.missing(copy_of(pirate, decide=None)) == ["decide"]
    no_script = types.SimpleNamespace(DUELISTS=(), SETUPS=())
    assert contract.missing(copy_of(pirate, samples=no_script)) == ["samples.scripted"]


def test_campaign_settings_come_with_their_validator_or_not_at_all():
    rocet = rules.get("rocet")
    assert contract.missing(copy_of(rocet)) == []
    both = "CAMPAIGN_SETTINGS and validate_campaign_settings (both or neither)"
    assert contract.missing(copy_of(rocet, CAMPAIGN_SETTINGS=())) == [both]
    assert contract.missing(copy_of(rocet, validate_campaign_settings=lambda raw: raw)) == [both]
    assert contract.missing(copy_of(rocet, CAMPAIGN_SETTINGS=(), validate_campaign_settings=lambda raw: raw)) == []


def test_register_refuses_a_lacking_module_and_a_clash_of_statistics():
    rocet = rules.get("rocet")
    with pytest.raises(TypeError) as caught:
        rules.register(copy_of(rocet, decide=None, evolve=None))
    assert str(caught.value) == "ruleset rocet lacks decide, evolve"
    clash = copy_of(rocet, NAME="fencing")
    with pytest.raises(TypeError) as caught:
        rules.register(clash)
    assert str(caught.value) == "ruleset fencing counts statistics another ruleset counts: cards"
    assert "fencing" not in rules.RULESETS
    with pytest.raises(TypeError) as caught:
        rules.register(copy_of(rocet, NAME="fencing", STATISTICS=(*rocet.STATISTICS, Statistic("skills"))))
    assert str(caught.value) == "ruleset fencing counts statistics another ruleset counts: cards, skills"
    nameless = types.ModuleType("nameless")
    with pytest.raises(TypeError) as caught:
        rules.register(nameless)
    assert str(caught.value).startswith("ruleset nameless lacks NAME, ")
    again = rules.register(copy_of(rocet))  # the same name again replaces itself, no clash with itself
    try:
        assert rules.get("rocet") is again
    finally:
        rules.register(rocet)
    assert [m.NAME for m in rules.shipped()] == ["rocet", "pirate", "pf2e"]


@pytest.mark.parametrize("sums", [{}, {"damage": "amount"}, {"wins": "duel_won", "dealt": "amount"}])
def test_a_statistic_sums_only_known_columns_under_plain_names(sums):
    assert Statistic("cards", sums).sums == sums


@pytest.mark.parametrize("sums, message", [
    ({"damage": "hp"}, "a statistic sums only ['amount', 'duel_won'], not ['hp']"),
    ({"damage; drop": "amount"}, "a statistic's column names must be plain names: ['damage; drop']"),
    ({"ok": "amount", "1st": "amount"}, "a statistic's column names must be plain names: ['1st', 'ok']"),
])
def test_a_statistic_refuses_unknown_columns_and_odd_names(sums, message):
    with pytest.raises(ValueError) as caught:
        Statistic("cards", sums)
    assert str(caught.value) == message
