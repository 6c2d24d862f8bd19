"""Events rebuilt from stored data: ``from_data`` fills a frozen event as its ``__init__`` would
(a rebuild makes one per line of the log, so it skips the setattr per field), and gives the same
event, the same refusals and the same defaults either way."""
import dataclasses

import pytest

from tracker.domain import events
from tracker.domain.events import from_data, to_data
from tracker.rules.duel import DuelNoted, DuelStarted


def test_data_gives_the_event_its_init_would_make():
    rebuilt = from_data("DuelNoted", {"text": "a fine parry"})
    assert rebuilt == DuelNoted(text="a fine parry", about=0, public=False)
    assert hash(rebuilt) == hash(DuelNoted(text="a fine parry"))
    assert to_data(rebuilt) == {"text": "a fine parry", "about": 0, "public": False}
    with pytest.raises(dataclasses.FrozenInstanceError):
        rebuilt.text = "changed"


def test_a_list_becomes_a_tuple_and_what_is_left_out_takes_its_default():
    data = {"duel_id": "d", "campaign_id": "c", "session_id": "s", "ruleset": "coin", "kind": "duel",
            "duelists": [{"id": "x", "tags": ["a", ["b"]]}], "settings": {"hits": 2}}
    rebuilt = from_data("DuelStarted", data)
    assert rebuilt == DuelStarted(**{**data, "duelists": ({"id": "x", "tags": ["a", ["b"]]},)})
    assert rebuilt.challenger == "" and type(rebuilt.duelists) is tuple


def test_unknown_keys_are_left_out_and_a_missing_field_is_refused_as_init_refuses_it():
    assert from_data("DuelNoted", {"text": "hi", "gone": 1}) == DuelNoted(text="hi")
    with pytest.raises(TypeError):
        from_data("DuelNoted", {"about": 2})


def test_an_event_with_a_default_factory_still_goes_through_its_init(monkeypatch):
    @dataclasses.dataclass(frozen=True)
    class SampleListed:
        items: tuple
        extra: dict = dataclasses.field(default_factory=dict)

    monkeypatch.setitem(events.EVENT_TYPES, "SampleListed", SampleListed)
    SampleListed.SCHEMA = 1
    assert from_data("SampleListed", {"items": [1, 2]}) == SampleListed(items=(1, 2), extra={})
