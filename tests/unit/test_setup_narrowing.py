"""The set-up form shows only what a kind of duel reads: every field it leaves out keeps a default
(or may be blank), every kind shows its own kind field, and a sword duel asks for 5 terms, not 13."""
import pytest

from tracker import rules

KINDS = [(module, kind) for module in rules.shipped() for kind in module.KINDS]


@pytest.mark.parametrize("module, kind", KINDS, ids=[f"{m.NAME}-{k}" for m, k in KINDS])
def test_what_a_kind_leaves_out_keeps_its_default(module, kind):
    shown = {f.name for f in module.setup_fields(kind)}
    assert "kind" in shown and shown <= {f.name for f in module.SETUP}
    for f in module.SETUP:
        if f.name not in shown:
            assert f.default is not None or not f.required or f.kind == "bool", f.name


def test_each_kind_shows_only_its_own_terms():
    pirate, rocet, pf2e = rules.get("pirate"), rules.get("rocet"), rules.get("pf2e")
    assert [f.name for f in pirate.setup_fields("sword")] == ["kind", "sword_victory", "hits", "weapon_a", "weapon_b"]
    assert "insults" in {f.name for f in pirate.setup_fields("wit")}
    assert "meter_steps" not in {f.name for f in rocet.setup_fields("relojes")}
    assert "meter_steps" in {f.name for f in rocet.setup_fields("superioridad")}
    assert "counteract_with" not in {f.name for f in pf2e.setup_fields("combat")}


def test_weapons_are_filled_from_the_sheets():
    rocet, pirate = rules.get("rocet"), rules.get("pirate")
    sheets = {"a": {"weapons": [{"name": "Bastón", "type": "Bastón", "damage": 1},
                                {"name": "Ropera", "type": "Espada", "damage": 3}]},
              "b": {"weapons": [{"name": "Vizcaína", "type": "Daga", "damage": 2}]}}
    assert rocet.setup_defaults("relojes", sheets) == {"weapon_a": "Ropera", "weapon_b": "Vizcaína", "weapon_type": "Daga"}
    assert pirate.setup_defaults("pistol", {"a": {"weapons": [{"name": "Sable", "kind": "sword"},
                                                              {"name": "Pistola", "kind": "pistol"}]}, "b": None}) \
        == {"weapon_a": "Pistola"}
