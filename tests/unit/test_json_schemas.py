"""The JSON Schemas of each ruleset's character sheet and duel set-up (tracker.rules.json_schema),
built from the fields the parser coerces with: every real sheet and set-up (the demo's, the
samples', the tests' set-ups of every kind) is valid by them, and a bad one is not."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.fuzz.test_retraction_properties import SETUPS
from tracker import rules
from tracker.cli import demo
from tracker.rules.fields import Field
from tracker.rules.json_schema import fields_schema, ruleset_schemas

SHIPPED = [module.NAME for module in rules.shipped()]


def validator(ruleset: str, part: str) -> Draft202012Validator:
    schema = ruleset_schemas(rules.get(ruleset))[part]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def sheets(ruleset: str) -> list[dict]:
    """Every stats block of the ruleset the demo and the samples hold."""
    people = [*demo.CHARACTERS, *rules.get(ruleset).samples.DUELISTS]
    return [person["stats"][ruleset] for person in people if ruleset in person.get("stats", {})]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_real_sheet_is_valid_by_its_schema_and_the_parser_agrees(ruleset):
    module, schema = rules.get(ruleset), validator(ruleset, "sheet")
    assert sheets(ruleset)
    for sheet in sheets(ruleset):
        assert not list(schema.iter_errors(sheet)), sheet
        # As the server keeps it (and a read shows it), it is valid too: a client sends back what it read.
        assert not list(schema.iter_errors(module.validate_stats(sheet))), sheet


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_real_set_up_is_valid_by_its_schema(ruleset):
    schema = validator(ruleset, "setup")
    setups = [*rules.get(ruleset).samples.SETUPS, *SETUPS[ruleset]]
    for setup in setups:
        assert not list(schema.iter_errors(setup)), setup


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_bad_sheet_fails_its_schema(ruleset):
    schema, good = validator(ruleset, "sheet"), sheets(ruleset)[0]
    assert not schema.is_valid({**good, "pubic": True})  # a key no sheet has
    required = ruleset_schemas(rules.get(ruleset))["sheet"]["required"]
    assert not schema.is_valid({k: v for k, v in good.items() if k != required[0]})
    bounded = next(f for f in rules.get(ruleset).STATS if f.kind == "int" and f.maximum is not None)
    assert not schema.is_valid({**good, bounded.name: bounded.maximum + 1})
    assert not schema.is_valid({**good, bounded.name: "many"})


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_bad_set_up_fails_its_schema(ruleset):
    schema = validator(ruleset, "setup")
    assert not schema.is_valid({"kind": "no such kind"})
    assert not schema.is_valid({"kind": next(iter(rules.get(ruleset).KINDS)), "typo": 1})


def test_a_table_field_takes_its_rows_as_objects_of_its_cells_or_as_text():
    rocet = validator("rocet", "sheet")
    sheet = {"des": "d8", "int": 10, "pg_max": 30, "pm_max": 20}
    assert rocet.is_valid({**sheet, "weapons": [{"name": "Ropera", "type": "Espada", "damage": 3}]})
    assert rocet.is_valid({**sheet, "weapons": "Ropera | Espada | 3"})
    assert not rocet.is_valid({**sheet, "weapons": [{"name": "Ropera", "type": "Espada", "damage": 100}]})
    assert not rocet.is_valid({**sheet, "weapons": [{"name": "Ropera", "type": "Espada", "damage": 3, "edge": 1}]})
    pirate = validator("pirate", "setup")
    assert pirate.is_valid({"kind": "wit", "insults": [{"name": "Pulla", "to_hit": 1, "damage": "1d6"}]})
    assert not pirate.is_valid({"kind": "wit", "insults": [{"name": "Pulla", "to_hit": 11, "damage": "1d6"}]})


def test_a_field_that_needs_another_says_so_as_dependent_required():
    fields = (Field("check_modifier", "Modifier", "int", required=False, depends_on=("dc",)),
              Field("dc", "DC", "int", required=False, depends_on=("check_modifier",)))
    schema = Draft202012Validator(fields_schema(fields))
    assert schema.is_valid({}) and schema.is_valid({"check_modifier": 3, "dc": 15})
    assert not schema.is_valid({"check_modifier": 3})
    assert not schema.is_valid({"dc": 15})
