"""The GM's adjustment as pure rules, for every shipped ruleset: decided from the tracks the
ruleset offers, folded by the one skeleton, and a forged one (to 0, past the maximum, a track
the duel does not spend) refused by the fold as a history the rules could not have produced."""
import pytest

from tracker import rules
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.duel import ADJUST_FALLS, AdjustTrackInDuel, DuelTrackAdjusted, decide_adjustment

HEADER = {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1"}
CASES = [("rocet", {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"}, "PM"),
         ("pirate", {"kind": "pistol", "distance": 20, "second_a": "Tom", "second_b": "Jack"}, "PV"),
         ("pirate", {"kind": "wit"}, "CAR"),
         ("pf2e", {"kind": "mixed"}, "HP")]


def started(ruleset, setup):
    module = rules.get(ruleset)
    duelists = [{"id": side, "name": sheet["name"], "side": side, "rank": sheet["rank"],
                 "stats": module.validate_stats(sheet["stats"][ruleset]), "current": {}}
                for side, sheet in zip("ab", module.samples.DUELISTS)]
    events = module.start(HEADER, setup, duelists, fixed_dice())
    state, at = None, 0
    for at, ev in enumerate(events, 1):
        state = module.evolve(state, ev, at)
    return module, state, at


def track(module, state, who, name):
    return next(t for t in module.adjustable_tracks(state) if t["character"] == who and t["track"] == name)


@pytest.mark.parametrize("ruleset, setup, name", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_both_sides_clamped_refused_at_0_and_a_forgery_is_impossible(ruleset, setup, name):
    module, state, at = started(ruleset, setup)
    for who in "ab":
        top = track(module, state, who, name)["max"]
        [ev] = decide_adjustment(state, module.adjustable_tracks(state), AdjustTrackInDuel(who, name, -2, "forgot"))
        assert ev == DuelTrackAdjusted(character=who, track=name, amount=-2, value=top - 2, reason="forgot")
        at += 1
        state = module.evolve(state, ev, at)
        assert track(module, state, who, name)["value"] == top - 2 and module.invariants(state) == []
        [back] = decide_adjustment(state, module.adjustable_tracks(state), AdjustTrackInDuel(who, name, 9, "healed"))
        assert back.value == top                                  # clamped at the maximum
        with pytest.raises(Refused, match=ADJUST_FALLS):
            decide_adjustment(state, module.adjustable_tracks(state), AdjustTrackInDuel(who, name, 2 - top, "x"))
        for forged in (DuelTrackAdjusted(who, name, 2 - top, 0, "to 0"), DuelTrackAdjusted(who, name, 5, top + 3, "past"),
                       DuelTrackAdjusted(who, "NOPE", -1, 1, "no such track")):
            with pytest.raises(ImpossibleHistory):
                module.evolve(state, forged, at + 1)
    assert [line["text"].endswith(f"{name} -2 (forgot)") for line in state["history"][-2:]] == [True, True]


@pytest.mark.parametrize("ruleset, setup, name", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_every_ruleset_describes_an_adjustment_and_places_it_in_a_step(ruleset, setup, name):
    module, state, _ = started(ruleset, setup)
    ev = DuelTrackAdjusted(character="b", track=name, amount=-1, value=track(module, state, "b", name)["max"] - 1,
                           reason="forgot the +2")
    who = track(module, state, "b", name)["name"]
    assert module.describe(state, ev) == f"{who}'s {name} adjusted to {ev.value} (forgot the +2)"
    assert module.step_of(state, ev).round


def _refusal(state, tracks, cmd):
    with pytest.raises(Refused) as refused:
        decide_adjustment(state, tracks, cmd)
    return refused.value.reason, refused.value.field


@pytest.mark.parametrize("who", ["a", "b"])
def test_each_adjustment_refusal_says_why_at_its_field(who):
    module, state, at = started("pf2e", {"kind": "mixed"})
    tracks = module.adjustable_tracks(state)
    top = track(module, state, who, "HP")
    name = top["name"]
    cases = [
        (AdjustTrackInDuel(who, "HP", 0, "x"), ("adjust by a number other than 0", "amount")),
        (AdjustTrackInDuel(who, "HP", 2, "  "), ("say why (the log shows it)", "reason")),
        (AdjustTrackInDuel(who, "PG", 2, "x"), ("choose a track this duel lets you adjust", "target")),
        (AdjustTrackInDuel("z", "HP", 2, "x"), ("choose a track this duel lets you adjust", "target")),
        (AdjustTrackInDuel(who, "HP", -top["value"], "x"), (ADJUST_FALLS, "amount")),
        (AdjustTrackInDuel(who, "HP", 1, "x"), (f"{name}'s HP is already at its maximum ({top['max']})", "amount")),
    ]
    for cmd, refused in cases:
        assert _refusal(state, tracks, cmd) == refused
    [ev] = decide_adjustment(state, tracks, AdjustTrackInDuel(who, "HP", -top["value"] + 1, " slipped "))
    assert (ev.value, ev.reason) == (1, "slipped")
    down = [dict(t, value=0) if t["character"] == who else t for t in tracks]
    assert _refusal(state, down, AdjustTrackInDuel(who, "HP", 3, "x")) == (f"{name} is down: {ADJUST_FALLS}", "target")


@pytest.mark.parametrize("who", ["a", "b"])
def test_a_folded_adjustment_keeps_its_change_line_and_numbers(who):
    module, state, at = started("pf2e", {"kind": "mixed"})
    top = track(module, state, who, "HP")
    ev = DuelTrackAdjusted(character=who, track="HP", amount=-3, value=top["value"] - 3, reason="forgot")
    after = module.evolve(state, ev, at + 1)
    assert after["adjustments"] == [{"character": who, "track": "HP", "amount": -3, "at": at + 1, "note": "forgot"}]
    assert after["history"][-1] == {"at": at + 1, "text": f"{top['name']}'s HP -3 (forgot)", "result": {
        "event": "DuelTrackAdjusted", "character": who, "track": "HP", "amount": -3, "value": top["value"] - 3}}
    for forged, why in ((dict(ev.__dict__, value=0), f"an adjustment of {top['value']} by -3 to 0"),
                        (dict(ev.__dict__, character="z"), "no adjustable HP for z")):
        with pytest.raises(ImpossibleHistory, match=f"^{why}$"):
            module.evolve(state, DuelTrackAdjusted(**forged), at + 1)


def test_a_note_is_kept_with_its_moment_and_audience():
    from tracker.rules.duel import DuelNoted
    module, state, at = started("pf2e", {"kind": "mixed"})
    after = module.evolve(state, DuelNoted(text="a fine riposte", about=2, public=True), at + 1)
    assert after["notes"] == [{"at": at + 1, "about": 2, "text": "a fine riposte", "public": True}]
    assert after["history"] == state["history"]


# --- the skeleton's helpers called directly: their own refusals, word for word ------------------

def tracks_of(value, top=10):
    return [{"character": "a", "track": "HP", "name": "Inés", "label": "HP", "value": value, "max": top}]


def folded(value, top=10):
    """``adjusted``'s arguments for one track at ``value`` of ``top``: a setter that writes it back."""
    state = {"outcome": None, "history": [], "track": value}
    return state, (lambda s: tracks_of(s["track"], top)), (lambda s, who, name, v: dict(s, track=v))


def impossible_adjustment(state, ev, adjustable=None, set_track=None) -> str:
    from tracker.rules.duel import adjusted

    with pytest.raises(ImpossibleHistory) as broken:
        adjusted(state, ev, 9, adjustable, set_track)
    return str(broken.value)


def test_an_adjustment_folds_only_onto_a_running_duel_and_a_track_it_offers():
    state, adjustable, set_track = folded(5)
    ev = DuelTrackAdjusted("a", "HP", 1, 6, "x")
    assert impossible_adjustment(None, ev) == "a duel starts with DuelStarted"
    assert impossible_adjustment(dict(state, outcome={"winner": "a"}), ev, adjustable, set_track) == \
        "an adjustment after the duel ended"
    assert impossible_adjustment(state, ev) == "no adjustable HP for a"  # a ruleset that offers none
    assert impossible_adjustment(dict(state, track=0), DuelTrackAdjusted("a", "HP", 1, 1, "x"), adjustable,
                                 set_track) == "an adjustment of Inés, who is down"


@pytest.mark.parametrize("value, amount, to", [(1, 1, 2), (9, 1, 10), (2, -1, 1), (8, 5, 10)])
def test_an_adjustment_from_1_or_to_the_maximum_or_to_1_folds(value, amount, to):
    from tracker.rules.duel import adjusted

    state, adjustable, set_track = folded(value)
    after = adjusted(state, DuelTrackAdjusted("a", "HP", amount, to, "why"), 9, adjustable, set_track)
    assert after["track"] == to
    assert after["adjustments"] == [{"character": "a", "track": "HP", "amount": to - value, "at": 9, "note": "why"}]
    assert after["history"][-1]["result"] == {"event": "DuelTrackAdjusted", "character": "a", "track": "HP",
                                              "amount": to - value, "value": to}


@pytest.mark.parametrize("value, amount, to", [(5, 1, 11), (5, -5, 0), (5, 1, 7)])
def test_a_forged_adjustment_value_is_named(value, amount, to):
    state, adjustable, set_track = folded(value)
    assert impossible_adjustment(state, DuelTrackAdjusted("a", "HP", amount, to, "x"), adjustable, set_track) == \
        f"an adjustment of {value} by {amount} to {to}"


def test_an_adjustment_needs_a_reason_and_a_duelist_still_standing():
    running = {"outcome": None}
    with pytest.raises(Refused) as no_reason:
        decide_adjustment(running, tracks_of(5), AdjustTrackInDuel("a", "HP", 1, None))
    assert (no_reason.value.reason, no_reason.value.field) == ("say why (the log shows it)", "reason")
    [ev] = decide_adjustment(running, tracks_of(1), AdjustTrackInDuel("a", "HP", 1, " one more "))
    assert (ev.value, ev.reason) == (2, "one more")
    with pytest.raises(Refused) as down:
        decide_adjustment(running, tracks_of(0), AdjustTrackInDuel("a", "HP", 1, "x"))
    assert down.value.field == "target"


def test_notes_pile_up_in_order_and_need_a_started_duel():
    from tracker.rules.duel import DuelNoted, noted

    with pytest.raises(ImpossibleHistory, match="^a duel starts with DuelStarted$"):
        noted(None, DuelNoted("x"), 1)
    state = noted(noted({"history": []}, DuelNoted("first", about=2), 3), DuelNoted("second", public=True), 4)
    assert state["notes"] == [{"at": 3, "about": 2, "text": "first", "public": False},
                              {"at": 4, "about": 0, "text": "second", "public": True}]
