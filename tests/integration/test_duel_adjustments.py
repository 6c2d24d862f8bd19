"""The GM's adjustment of a duelist's track inside a running duel, under every shipped ruleset:
either side, by an amount with a reason, clamped to the maximum, never down to 0, told in the log
("Lope's PG +2 (forgot the +2)"), rewound by a retraction like any command, kept on the sheet
after the duel for a persisting track, and rebuilt as it was played."""
import pytest

from tracker import rules
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.rules.base import Refused
from tracker.rules.duel import ADJUST_FALLS

from tests.integration.test_projections import snapshot

CASES = [  # ruleset, set-up, the track adjusted, whether it persists after the duel
    ("rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"}, "PG", True),
    ("rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"}, "PM", True),
    ("pirate", {"kind": "sword", "sword_victory": "hits", "hits": 3}, "PV", True),
    ("pirate", {"kind": "wit"}, "CAR", False),
    ("pf2e", {"kind": "combat"}, "HP", True),
]


class Duel:
    def __init__(self, service, ruleset, setup):
        self.service, self.module = service, rules.get(ruleset)
        campaign = service.handle({"type": "CreateCampaign", "name": "Adjustments", "ruleset": ruleset}).key
        self.ids = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **sheet}).key
                    for sheet in self.module.samples.DUELISTS]
        self.id = service.handle({"type": "StartDuel", "campaign_id": campaign, "ruleset": ruleset,
                                  "duelists": [{"character_id": c, "side": s} for c, s in zip(self.ids, "ab")],
                                  "setup": setup}).key

    @property
    def stream(self):
        return f"duel-{self.id}"

    def state(self):
        return self.service.state_of(self.stream)[1]

    def track(self, character, track):
        return next(t for t in self.module.adjustable_tracks(self.state())
                    if t["character"] == character and t["track"] == track)

    def adjust(self, character, track, amount, reason="forgot the +2"):
        return self.service.handle({"type": "AdjustDuelTrack", "duel_id": self.id, "character_id": character,
                                    "track": track, "amount": amount, "reason": reason,
                                    "expected_version": self.service.version(self.stream)})


@pytest.mark.parametrize("ruleset, setup, track, persists", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_either_side_is_adjusted_clamped_refused_at_0_and_rewound(service, ruleset, setup, track, persists):
    duel = Duel(service, ruleset, setup)
    a, b = duel.ids
    top_a, top_b = duel.track(a, track)["max"], duel.track(b, track)["max"]
    assert duel.track(a, track)["value"] == top_a

    taken = duel.adjust(a, track, -3, "the poisoned blade")          # side A loses 3
    name_a = duel.track(a, track)["name"]
    assert duel.track(a, track)["value"] == top_a - 3
    assert duel.state()["history"][-1]["text"] == f"{name_a}'s {track} -3 (the poisoned blade)"
    duel.adjust(b, track, -5)                                         # side B loses 5 ...
    duel.adjust(b, track, 2, "the cleric healed him")                  # ... and gets 2 back
    assert duel.track(b, track)["value"] == top_b - 3
    duel.adjust(b, track, 50, "a full heal")                           # clamped at the maximum
    name_b = duel.track(b, track)["name"]
    assert duel.track(b, track)["value"] == top_b
    assert duel.state()["history"][-1]["text"] == f"{name_b}'s {track} +3 (a full heal)"
    assert duel.module.invariants(duel.state()) == []

    version = service.version(duel.stream)
    with pytest.raises(Refused, match=ADJUST_FALLS):                   # exactly to 0: refused
        duel.adjust(a, track, -(top_a - 3))
    with pytest.raises(Refused, match="already at its maximum"):
        duel.adjust(b, track, 1)
    assert service.version(duel.stream) == version                     # nothing appended
    assert queries.lost_points(service.db, a).get(track, 0) == (3 if persists else 0)

    incremental = snapshot(service.db)
    rebuild(service.db, service.store)
    assert snapshot(service.db) == incremental

    # Later events stood on A's numbers: retracting A's adjustment rewinds the duel past B's too.
    service.handle({"type": "RetractEvent", "position": taken.events[0].position, "reason": "misread",
                    "expected_version": service.version(duel.stream)})
    assert duel.track(a, track)["value"] == top_a and duel.track(b, track)["value"] == top_b
    assert not any("poisoned" in line["text"] for line in duel.state()["history"])
    assert queries.lost_points(service.db, a).get(track, 0) == 0
    assert duel.module.invariants(duel.state()) == []


def test_a_track_the_duel_does_not_spend_a_stranger_and_a_finished_duel_are_refused(service):
    duel = Duel(service, "pirate", {"kind": "sword", "sword_victory": "hits", "hits": 3})
    a, b = duel.ids
    with pytest.raises(Refused, match="choose a track this duel lets you adjust"):
        duel.adjust(a, "CAR", -1)                                       # wit's track, in a sword duel
    with pytest.raises(Refused, match="choose a track this duel lets you adjust"):
        duel.adjust("nobody", "PV", -1)
    service.handle({"type": "Yield", "duel_id": duel.id, "side": "b",
                    "expected_version": service.version(duel.stream)})
    with pytest.raises(Refused, match="this duel is over"):
        duel.adjust(a, "PV", -1)


@pytest.mark.parametrize("raw, field", [
    ({"amount": 0}, "amount"), ({"reason": ""}, "reason"), ({"amount": "two"}, "amount"),
    ({"expected_version": None}, "expected_version"), ({"track": None, "character_id": None}, "target"),
])
def test_bad_input_names_its_field(service, raw, field):
    from tracker.rules.base import Invalid

    duel = Duel(service, "pf2e", {"kind": "combat"})
    command = {"type": "AdjustDuelTrack", "duel_id": duel.id, "character_id": duel.ids[0], "track": "HP",
               "amount": 2, "reason": "why not", "expected_version": service.version(duel.stream), **raw}
    with pytest.raises(Invalid) as problem:
        service.handle({k: v for k, v in command.items() if v is not None})
    assert field in problem.value.errors
