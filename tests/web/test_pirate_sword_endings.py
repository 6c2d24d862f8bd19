"""Every page of a pirate sword duel fought to first blood or to the death answers, with the
rulesets Touché ships and nothing else: such a duel stores no ``hits``, and its terms must not
count them (issue 29: each of its pages answered 500)."""
import html
import re

import pytest

from tests.conftest import create_app, fixed_context, register_gm
from tests.web.test_pirate_pages import Page, start, table  # noqa: F401  (the table fixture)
from tracker import rules
from tracker.web.links import sign


@pytest.fixture
def app(new_database, monkeypatch):
    """The app with only the shipped rulesets registered, as `make run` has them."""
    monkeypatch.setattr(rules, "RULESETS", {m.NAME: m for m in rules.shipped()})
    app = create_app({"TESTING": True, "DATABASE": new_database(), "SECRET_KEY": "test",
                      "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                      "SERVICE_CONTEXT": fixed_context(), "BASE_URL": "http://localhost"})
    register_gm(app)
    return app


def links(page: str, prefix: str) -> list[str]:
    return [html.unescape(u).removeprefix("http://localhost")
            for u in re.findall(rf'(?:href|value)="((?:http://localhost)?{prefix}[^"]+)"', page)]


def player_tokens(app) -> dict:
    """The display's and the recap's link tokens, as the GM's pages hand them out."""
    from tracker.bootstrap.db import open_db

    db = open_db(app.config["DATABASE"])
    try:
        with app.app_context():
            return {kind: sign(db.execute("SELECT link_id FROM player_links WHERE kind = ? ORDER BY rowid DESC",
                                          [kind]).fetchone()[0]) for kind in ("display", "recap")}
    finally:
        db.close()


def every_read(client, anonymous, table, duel_id):
    """Each page, fragment, JSON read and recap of the duel: {name: status}."""
    session = table["session"]
    assert client.post(f"/sessions/{session}/seats", data={"character_id": table["ines"]}).status_code == 302
    assert client.post(f"/duels/{duel_id}/display-links").status_code in (200, 302)
    assert client.post(f"/sessions/{session}/recap-links").status_code == 302
    seat = links(client.get(f"/sessions/{session}").text, "/seat/")[-1]
    display, recap = (f"/play/{token}/{kind}" for kind, token in player_tokens(client.application).items())
    htmx = {"HX-Request": "true"}
    answers = {
        "GM page": client.get(f"/duels/{duel_id}"),
        "GM fragment": client.get(f"/duels/{duel_id}", headers=htmx),
        "GM live": client.get(f"/duels/{duel_id}/live?v=0", headers=htmx),
        "GM travel": client.get(f"/duels/{duel_id}/travel"),
        "session": client.get(f"/sessions/{session}"),
        "JSON": client.get(f"/api/duels/{duel_id}"),
        "seat": anonymous.get(seat),
        "seat live": anonymous.get(f"{seat}/live?v=0", headers=htmx),
        "display": anonymous.get(display),
        "display live": anonymous.get(f"{display}/live?v=0", headers=htmx),
        "recap": anonymous.get(recap),
    }
    for fmt in ("md", "html", "json", "short.md"):
        answers[f"recap.{fmt}"] = client.get(f"/sessions/{session}/recap.{fmt}")
    return {name: answer.status_code for name, answer in answers.items()}


@pytest.mark.parametrize("victory", ["first_blood", "death"])
def test_every_page_of_a_sword_duel_to_first_blood_or_death_answers(client, anonymous, table, victory):
    duel = Page(client, start(client, table, kind="sword", sword_victory=victory))
    statuses = every_read(client, anonymous, table, duel.duel)
    assert set(statuses.values()) <= {200, 404}, statuses
    assert statuses["GM page"] == statuses["seat"] == statuses["display"] == statuses["recap"] == 200, statuses
    duel.ok("RollInitiative", dice_a="14", dice_b="9")
    duel.ok("Attack", side="a", dice_a="15 8")
    assert {s for s in every_read(client, anonymous, table, duel.duel).values()} <= {200, 404}
