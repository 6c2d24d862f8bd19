"""Session recaps: what each audience reads, in Markdown, HTML and JSON, always the same bytes."""
import dataclasses
import json
import random

import pytest

from bench.driver import play
from tests.conftest import GM_ID
from tracker import recap
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker import bootstrap

pytestmark = pytest.mark.both_backends  # the same tests on SQLite and on PostgreSQL

HOSTILE = "<script>alert(1)</script> *Mara* [x](http://evil) @everyone"


@pytest.fixture
def session(app):
    """The demo session after a night at the table: a Rocèt duel played with virtual cards, a PF2e
    duel where the defender declined Deceptive Sidestep, a pirate duel between hostile names."""
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
    campaign = demo.seed(db, service)
    session = db.execute("SELECT id FROM sessions WHERE campaign_id = ?", [campaign]).fetchone()[0]
    ids = [row[0] for row in db.execute("SELECT id FROM characters WHERE campaign_id = ? ORDER BY rowid", [campaign])]
    rocet = db.execute("SELECT id FROM duels WHERE session_id = ?", [session]).fetchone()[0]
    play(service, rocet, random.Random(5), 25)

    pf2e = start(service, session, "pf2e", ids[4], ids[5], {"kind": "combat"})
    do = Actions(service, pf2e)
    do("RollInitiative", duelist=ids[4], skill="deception", dice_roll=[5])
    do("RollInitiative", duelist=ids[5], skill="intimidation", dice_roll=[15])
    do("Strike", dice_attack=[10])  # Vex hits; Seelah could sidestep
    do("DeclineSidestep", dice_damage=[5])

    rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **dict(demo.CHARACTERS[i], name=name)}).key
              for i, name in ((2, HOSTILE), (3, "Barbanegra & <b>Hijo</b>"))]
    pirate = start(service, session, "pirate", *rivals, {"kind": "sword"}, stakes=HOSTILE)
    Actions(service, pirate)("Yield", side="b", detail="¡Basta!")
    db.close()
    return session


def start(service, session, ruleset, a, b, setup, **extra):
    return service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "setup": setup,
                           "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}],
                           **extra}).key


class Actions:
    def __init__(self, service, duel):
        self.service, self.duel = service, duel

    def __call__(self, command, **fields):
        self.service.handle({"type": command, "duel_id": self.duel,
                             "expected_version": self.service.version(f"duel-{self.duel}"), **fields})


def get(client, session, fmt, audience):
    response = client.get(f"/sessions/{session}/recap.{fmt}?audience={audience}")
    assert response.status_code == 200, response.text
    return response


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_the_gm_recap_holds_everything(client, session, fmt):
    text = get(client, session, fmt, "gm").text
    for expected in ("Swords at dawn", "Three rivalries come to a head",  # the session and its GM notes
                     "Lope&#39;s apology" if fmt == "html" else "Lope's apology",  # the stakes
                     "Inés de Ayala", "Seelah Ashcourt", "Baron Vex",
                     "rolled Deception", "lets the hit stand",  # secrets, and the line that gives one away
                     "hand:", "assumptions" if fmt == "json" else "Assumptions"):
        assert expected in text, expected


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_the_players_recap_keeps_every_secret(client, session, fmt):
    text = get(client, session, fmt, "players").text
    assert "Swords at dawn" in text and "Seelah Ashcourt" in text and "Baron Vex" in text
    assert "Three rivalries" not in text  # GM notes
    assert "Fencing master" not in text  # character notes never appear in any recap
    for secret in ("deception", "Deception", "intimidation", "Intimidation",  # hidden skills
                   "lets the hit stand",  # a declined sidestep tells who rolled Deception
                   "hand:", "GM only", "gm_only", "gm_detail", "ecrets", "ssumptions"):
        assert secret not in text, secret


def test_the_players_recap_still_tells_the_duel(client, session):
    data = json.loads(get(client, session, "json", "players").text)
    assert data["audience"] == "players" and "notes" not in data["session"]
    pf2e = next(d for d in data["duels"] if d["ruleset"] == "pf2e")
    lines = [line["text"] for line in pf2e["narrative"]]
    assert lines[0].startswith("Combat duel: Seelah Ashcourt against Baron Vex")
    assert "Round 1: Seelah Ashcourt rolls 16 for initiative." in lines  # the total, never the skill
    assert any("deals 9 damage to Seelah Ashcourt" in line for line in lines)
    seelah = next(d for d in pf2e["duelists"] if d["name"] == "Seelah Ashcourt")
    assert seelah["tracks"][0] == {"track": "HP", "label": "HP", "max": 68, "start": 68, "lost": 9,
                                        "end": 59, "persists": True}
    assert pf2e["wounds"] == [{"character": "Seelah Ashcourt", "character_id": seelah["id"], "track": "HP",
                               "amount": 9, "at": 7, "note": "Strike"}]
    pirate = next(d for d in data["duels"] if d["ruleset"] == "pirate")
    assert pirate["outcome"]["summary"].endswith("won by yield (Barbanegra & <b>Hijo</b> yielded)")
    assert [d["result"] for d in pirate["duelists"]] == ["win", "loss"]
    names = [c["name"] for c in data["characters"]]
    assert names == sorted(names)


def test_user_text_is_escaped_in_every_format(client, session):
    page = get(client, session, "html", "gm").text
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>Hijo</b>" not in page
    text = get(client, session, "md", "gm").text
    assert r"\<script\>alert(1)\</script\> \*Mara\* \[x\](http://evil) \@everyone" in text
    assert "<b>" not in text and "@everyone" not in text.replace(r"\@everyone", "")
    data = json.loads(get(client, session, "json", "gm").text)
    assert next(d for d in data["duels"] if d["ruleset"] == "pirate")["stakes"] == HOSTILE


@pytest.mark.parametrize("fmt", ["md", "html", "json", "short.md"])
@pytest.mark.parametrize("audience", ["gm", "players"])
def test_the_same_events_give_the_same_bytes(app, client, session, fmt, audience):
    first = get(client, session, fmt, audience)
    assert first.data == get(client, session, fmt, audience).data
    how = "inline" if fmt == "html" else "attachment"  # the HTML recap opens in the browser (issue 33)
    assert first.headers["Content-Disposition"] == f'{how}; filename="session-1-recap-{audience}.{fmt}"'
    cli = app.test_cli_runner().invoke(args=["recap", session, "--format", fmt, "--audience", audience])
    assert cli.exit_code == 0, cli.output
    assert cli.output.encode() == first.data


def test_a_rebuild_gives_the_same_bytes(app, client, session):
    before = get(client, session, "json", "gm").data
    assert app.test_cli_runner().invoke(args=["rebuild"]).exit_code == 0
    assert get(client, session, "json", "gm").data == before


def test_the_html_download_is_a_standalone_printable_document(client, session):
    page = get(client, session, "html", "players").text
    assert page.startswith("<!doctype html>") and "<style>" in page and "@media print" in page
    assert "<link" not in page and "<script" not in page and "csrf" not in page


def test_the_session_page_offers_the_downloads(client, session):
    page = client.get(f"/sessions/{session}").text
    for fmt in ("md", "html", "json"):
        assert f"/sessions/{session}/recap.{fmt}?audience=gm" in page
        assert f"/sessions/{session}/recap.{fmt}?audience=players" in page


def test_a_player_link_shows_the_players_recap_until_revoked(app, client, anonymous, session):
    assert client.post(f"/sessions/{session}/recap-links").status_code == 302
    page = client.get(f"/sessions/{session}").text
    link = page.split('href="/play/', 1)[1].split('"', 1)[0]
    shown = anonymous.get(f"/play/{link}")
    assert shown.status_code == 200 and "Seelah Ashcourt" in shown.text
    assert "lets the hit stand" not in shown.text and "Three rivalries" not in shown.text
    assert 'href="/static/recap.css"' in shown.text and "<style" not in shown.text
    download = anonymous.get(f"/play/{link}?format=md")
    assert download.data == get(client, session, "md", "players").data
    assert anonymous.post(f"/play/{link}").status_code in (302, 405)  # a link never writes
    link_id = page.split("/recap-links/", 1)[1].split("/", 1)[0]
    assert client.post(f"/sessions/{session}/recap-links/{link_id}/revoke").status_code == 302
    assert anonymous.get(f"/play/{link}").status_code == 404
    assert "No player link yet." in client.get(f"/sessions/{session}").text


def test_an_unknown_format_audience_or_session_is_a_404(app, client, session):
    assert client.get(f"/sessions/{session}/recap.pdf").status_code == 404
    assert client.get(f"/sessions/{session}/recap.md?audience=judge").status_code == 404
    assert client.get("/sessions/nosuchsession/recap.md").status_code == 404
    cli = app.test_cli_runner().invoke(args=["recap", "nosuchsession"])
    assert cli.exit_code != 0 and "no such session" in cli.output


def test_markdown_escaping_keeps_lines_and_neutralises_block_starts():
    assert recap.md("# Title\n- item\n1. first\n> quote") == r"\# Title  " "\n" r"\- item  " "\n" \
        r"1\. first  " "\n" r"\> quote"
    assert recap.md("a_b|c~d`e") == r"a\_b\|c\~d\`e"
