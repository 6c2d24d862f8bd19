"""Recaps that tell the story: each duel's headline (who won, how, in how many turns, the
decisive turn, the biggest hit, criticals, the best line of a wit duel) from the ruleset's own
events, the GM's notes on a duel or a turn, a short recap for one chat message, unfinished duels."""
import dataclasses
import json

import pytest

from tests.conftest import GM_ID
from tracker import bootstrap, recap
from tracker.bootstrap.db import open_db

SEELAH = dict(level=3, hp_max=40, ac=20, attack_bonus=10, weapon="Longsword", damage="1d8+4",
              deception=7, deception_rank="trained", intimidation=9, intimidation_rank="expert",
              perception=8, perception_rank="trained")
INES = {"atq": 5, "def": 13, "pv": 12, "comunicacion": 4, "sab": 12, "car": 10, "iniciativa": 2,
        "weapons": "Sable | sword | 1d8"}
LOPE = {"atq": 3, "def": 12, "pv": 9, "comunicacion": 2, "sab": 11, "car": 8, "iniciativa": 1,
        "weapons": "Espada ropera | sword | 1d6"}


class Table:
    def __init__(self, app):
        self.db = open_db(app.config["DATABASE"])
        self.service = bootstrap.service(self.db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
        self.campaign = self.service.handle({"type": "CreateCampaign", "name": "Absalom", "ruleset": "pf2e"}).key
        self.session = self.service.handle({"type": "PlanSession", "campaign_id": self.campaign, "number": 3,
                                            "date": "2026-11-30", "title": "The long night"}).key

    def character(self, name, ruleset, stats, rank="pj"):
        return self.service.handle({"type": "CreateCharacter", "campaign_id": self.campaign, "name": name,
                                    "rank": rank, "stats": {ruleset: stats}}).key

    def duel(self, ruleset, a, b, **setup):
        return self.service.handle({"type": "StartDuel", "session_id": self.session, "ruleset": ruleset,
                                    "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}],
                                    **setup}).key

    def do(self, duel, kind, **fields):
        return self.service.handle({"type": kind, "duel_id": duel,
                                    "expected_version": self.service.version(f"duel-{duel}"), **fields})

    def note(self, duel, text, about=0, public=False):
        return self.service.handle({"type": "NoteDuel", "duel_id": duel, "text": text, "about": about,
                                    "public": public})


@pytest.fixture
def night(app):
    """A PF2e duel won by a critical hit, a wit duel of one exchange, a PF2e duel left running."""
    t = Table(app)
    seelah, vex = t.character("Seelah", "pf2e", SEELAH), t.character("Baron Vex", "pf2e", SEELAH, "villano")
    fight = t.duel("pf2e", seelah, vex, kind="combat", victory="first_blood")
    t.do(fight, "RollInitiative", dice_roll=[15, 5])  # both Intimidation +9: 24 against 14
    t.do(fight, "Strike", dice_attack=[20], dice_damage=[7])  # 30 vs 20: critical, (7+4)×2 = 22
    t.do(fight, "ConfirmVictory")
    ines, lope = t.character("Inés", "pirate", INES), t.character("Lope", "pirate", LOPE)
    wit = t.duel("pirate", ines, lope, kind="wit", exchanges=1, tie="draw")
    t.do(wit, "RollInitiative", dice_a=[11], dice_b=[2])
    t.do(wit, "Insult", side="a", insult="Humillación", dice_a=[20, 7])  # 20 + 4 − 2 = 22 vs 11: 7 CAR
    t.do(wit, "Insult", side="b", insult="Burla ingeniosa", dice_b=[15, 3])  # 15 + 2 + 1 = 18 vs 12: 3 CAR
    running = t.duel("pf2e", vex, seelah, kind="combat", victory="knockout")
    t.do(running, "RollInitiative", dice_roll=[1, 10])
    t.note(fight, "The whole bazaar fell silent.", public=True)
    t.note(fight, "Vex's player asked for a rematch.")
    strike_line = next(v for v, in t.db.execute(
        "SELECT version FROM events WHERE stream = ? AND type = 'Pf2eStrikeRolled'", [f"duel-{fight}"]))
    t.note(fight, "Seelah's player rolled it standing up.", about=strike_line, public=True)
    t.db.close()
    return {"session": t.session, "fight": fight, "wit": wit, "running": running}


def build(app, session, audience):
    db = open_db(app.config["DATABASE"])
    try:
        return recap.build(db, session, audience)
    finally:
        db.close()


def test_each_duel_opens_with_its_headline(app, night):
    data = build(app, night["session"], "gm")
    fight, wit, running = data["duels"]
    h = fight["headline"]
    assert h["sentence"].startswith("Seelah won by first blood") and h["sentence"].endswith(", after 1 round.")
    assert h["decisive"] == "Seelah's Strike for 22 damage (doubled) on Baron Vex in round 1"
    assert h["biggest"] == h["decisive"]
    assert h["criticals"] == ["Seelah's Strike on Baron Vex: critical hit (round 1)"]
    assert h["finished"] and h["turns"] == 1

    h = wit["headline"]
    assert h["sentence"] == "Inés won by points (7 to 3), after 1 exchange."
    assert h["best_line"] == "Inés's “Humillación” for 7 CAR in exchange 1"
    assert h["decisive"] == h["best_line"] and h["biggest"] == ""
    assert h["criticals"] == ["Inés rolled a natural 20 in exchange 1"]

    h = running["headline"]
    assert not h["finished"] and h["sentence"] == "Unfinished: still running after 1 round (Round 1, Seelah's turn)."
    assert (h["decisive"], h["biggest"], h["criticals"]) == ("", "", [])


def test_notes_sit_under_their_turn_or_on_the_duel_and_players_read_only_the_public_ones(app, night):
    gm = build(app, night["session"], "gm")["duels"][0]
    assert gm["notes"] == ["The whole bazaar fell silent.", "Vex's player asked for a rematch."]
    strike = next(line for line in gm["narrative"] if " Strikes " in line["text"])
    assert strike["notes"] == ["Seelah's player rolled it standing up."]
    players = build(app, night["session"], "players")["duels"][0]
    assert players["notes"] == ["The whole bazaar fell silent."]
    assert next(line for line in players["narrative"] if " Strikes " in line["text"])["notes"] == \
        ["Seelah's player rolled it standing up."]
    text = recap.render(build(app, night["session"], "players"), "md")
    assert "rematch" not in text and "> **GM's note:** The whole bazaar fell silent." in text
    assert "  - **GM's note:** Seelah's player rolled it standing up." in text


def test_the_markdown_and_html_lead_with_the_headline(app, night):
    data = build(app, night["session"], "gm")
    text = recap.render(data, "md")
    first = text.index("**Seelah won by first blood")
    assert first < text.index("### Turn by turn")
    assert "- **Decisive:** Seelah's Strike for 22 damage (doubled) on Baron Vex in round 1" in text
    assert "- **Best line:** Inés's “Humillación” for 7 CAR in exchange 1" in text
    assert "**Unfinished: still running after 1 round" in text
    with app.test_request_context():
        page = recap.render(data, "html")
    assert '<div class="headline unfinished">' in page and "Criticals and fumbles:" in page


def test_the_short_recap_fits_one_chat_message(app, night):
    data = build(app, night["session"], "players")
    short = recap.render(data, "short.md")
    assert len(short) <= recap.CHAT_LIMIT
    assert short.splitlines()[0] == "**Session 3: The long night** · Nov 30, 2026"  # the date as English readers write it
    assert "⚔ **Seelah vs Baron Vex** — Seelah won by first blood" in short
    assert "Unfinished: still running after 1 round" in short and "Inés won by points (7 to 3)" in short
    assert "**Best line:** Inés's “Humillación” for 7 CAR in exchange 1" in short
    # However many duels, it still fits, and says how many were left out.
    many = dict(data, duels=[dict(data["duels"][0], title="A very long title " * 6)] * 60)
    text = recap.short_markdown(many)
    assert len(text) <= recap.CHAT_LIMIT and text.rstrip().endswith("more duels in the full recap.")


def test_a_note_is_retracted_alone_and_a_rewind_leaves_it(app, night):
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
    stream = f"duel-{night['running']}"
    service.handle({"type": "NoteDuel", "duel_id": night["running"], "text": "to be taken back"})
    note = db.execute("SELECT position, version FROM events WHERE stream = ? AND type = 'DuelNoted'", [stream]).fetchone()
    service.handle({"type": "RetractEvent", "position": note[0], "expected_version": service.version(stream),
                    "reason": "wrong duel"})
    state = service.state_of(stream)[1]
    assert state.get("notes", []) == [] and state["turn"]  # the duel itself untouched
    db.close()


def test_a_note_on_an_event_the_duel_does_not_have_is_refused_by_the_field(app, client, night):
    response = client.post(f"/duels/{night['running']}/notes", data={"text": "x", "about": "999"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 422 and "has no event 999" in response.text
    response = client.post(f"/duels/{night['running']}/notes", data={"text": "  ", "about": "0"})
    assert response.status_code == 422 and "is required" in response.text
    ok = client.post(f"/duels/{night['running']}/notes", data={"text": "Vex smirks.", "about": "2", "public": "true"})
    assert ok.status_code == 302
    page = client.get(f"/duels/{night['running']}").text
    assert "Vex smirks." in page and "players see it" in page
    data = json.loads(client.get(f"/sessions/{night['session']}/recap.json?audience=players").text)
    running = data["duels"][2]
    assert any("Vex smirks." in line.get("notes", []) for line in running["narrative"])
