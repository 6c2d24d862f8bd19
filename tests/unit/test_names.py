"""The one naming scheme of commands, events and reads (docs/api.md, "Names"), and the old names
that keep working: renamed command fields read under their new name, old event shapes upcast."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from tracker import rules
from tracker.domain import events
from tracker.application.commands.names import RENAMED, canonical
from tracker.web.openapi import WORKSPACE

SNAKE = re.compile(r"[a-z][a-z0-9_]*")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
PREFIXES = {"rocet": "Rocet", "pirate": "Pirate", "pf2e": "Pf2e"}


def ruleset_commands():
    return [(module, name, command) for module in rules.shipped() for name, command in module.COMMANDS.items()]


def command_fields() -> dict[str, set[str]]:
    fields = {name: set(properties) for name, (_, properties) in WORKSPACE.items()}
    for _, name, command in ruleset_commands():
        fields.setdefault(name, set()).update(f.name for f in command.FIELDS)
    return fields


def test_every_command_and_event_field_is_lower_case_ascii_snake_case():
    names = {field for fields in command_fields().values() for field in fields}
    names |= {f.name for cls in events.EVENT_TYPES.values() for f in dataclasses.fields(cls)}
    assert sorted(n for n in names if not SNAKE.fullmatch(n)) == []


def test_kind_names_a_duels_variant_and_nothing_else():
    in_events = sorted(name for name, cls in events.EVENT_TYPES.items()
                       if "kind" in {f.name for f in dataclasses.fields(cls)})
    assert in_events == ["DuelStarted"]
    assert sorted(name for name, fields in command_fields().items() if "kind" in fields) == []
    for module in rules.shipped():  # a set-up's kind is the variant, one of the ruleset's KINDS
        kind = next((f for f in module.SETUP if f.name == "kind"), None)
        assert kind is None or {value for value, _ in kind.choices} == set(module.KINDS)


def test_a_side_is_always_a_or_b():
    for module, name, command in ruleset_commands():
        for f in command.FIELDS:
            if f.name == "side" or f.name.endswith("_side"):
                assert {value for value, _ in f.choices} <= {"", "a", "b"}, (module.NAME, name, f.name)


@pytest.mark.parametrize("ruleset", sorted(PREFIXES))
def test_a_rulesets_own_events_start_with_its_name(ruleset):
    module = rules.get(ruleset)
    own = [name for name, cls in events.EVENT_TYPES.items() if cls.__module__.startswith(module.__name__ + ".")]
    assert own and all(name.startswith(PREFIXES[ruleset]) for name in own)


def test_each_old_field_name_is_read_as_its_new_one_and_documented():
    fields, text = command_fields(), DOCS.read_text()
    for (command, old), new in RENAMED.items():
        assert new in fields[command] and old not in fields[command], (command, old, new)
        assert f"| `{command}`" in text and f"| `{old}` | `{new}` |" in text
        assert canonical({"type": command, old: "x"}) == {"type": command, new: "x"}
        assert canonical({"type": command, old: "x", new: "y"})[new] == "y"  # the new name wins
        assert canonical({"type": "Other", old: "x"}) == {"type": "Other", old: "x"}


def test_every_older_event_shape_has_its_upcaster():
    for name, cls in events.EVENT_TYPES.items():
        for schema in range(1, cls.SCHEMA):
            assert (name, schema) in events.UPCASTERS, f"{name} schema {schema} cannot be read any more"


def test_old_event_shapes_read_under_the_new_names():
    dealt = events.from_data("RocetDamageDealt", {"side": "a", "kind": "attack", "amount": 5, "ta": 2,
                                                  "weapon_damage": 3}, schema=1)
    declined = events.from_data("RocetDamageDeclined", {"side": "b", "kinds": ["attack", "clock"]}, schema=1)
    link = events.from_data("PlayerLinkIssued", {"link_id": "l1", "kind": "display", "target": "d1"}, schema=1)
    assert (dealt.source, declined.sources, link.link_kind) == ("attack", ("attack", "clock"), "display")


def test_a_physical_hand_reads_as_unknown_never_as_empty():
    """With physical cards the server never sees a hand: every reader gets ``hand: null`` beside
    the ``hand_size`` that counts it, not an empty list that says the duelist holds nothing."""
    from tests.unit.test_rocet import physical

    state = physical().state
    for audience in ("gm", "api", "display", "seat:a"):
        sides = rules.get("rocet").seen_by(state, audience)["sides"]
        assert [(s["hand"], s["hand_size"]) for s in sides.values()] == [(None, 3), (None, 3)], audience
