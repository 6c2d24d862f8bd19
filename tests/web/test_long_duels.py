"""A duel of 1,000 versions through the test client: its page shows only its latest history lines
and loads the earlier ones on demand (the htmx fragment and the plain link alike, back to the
duel's first line), and every reader's answer weighs no more than 1.3x the same at 10 versions.
Sizes only: the times are ``bench/long_duels.py``'s, on a machine at rest."""
from __future__ import annotations

import dataclasses
import html
import re

import pytest

from bench.long_duels import links, long_duel_at_once
from tests.conftest import GM_ID, fixed_context, logged_in, register_gm
from tracker import bootstrap, create_app
from tracker.bootstrap.db import open_db
from tracker.projections import windows

LONG, SHORT, TARGET = 1000, 10, 1.3
LINE = re.compile(r'<li(?: value="(\d+)")?><a href="/streams/duel-\w+/(\d+)">')
EARLIER = re.compile(r'<li class="earlier"><a href="([^"]+)" hx-get="([^"]+)"')


@pytest.fixture(scope="module")
def duels(tmp_path_factory):
    """One app with a Rocèt and a PF2e duel at 10 and at 1,000 versions, each with a seat and a
    table display (built once: decided in memory and appended through the service at once)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("long") / "long.db"),
                      "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                      "SERVICE_CONTEXT": fixed_context(), "BASE_URL": "http://localhost"})
    register_gm(app)
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(fixed_context(), actor=GM_ID))
    built = {}
    for ruleset in ("rocet", "pf2e"):
        for length in (SHORT, LONG):
            duel = long_duel_at_once(service, db, ruleset, length, name=ruleset)
            duel["seat"], duel["display"] = links(service, app, duel)
            built[ruleset, length] = duel
    db.close()
    return app, built


def history_lines(page: str) -> list[int]:
    """The versions of the history lines a page or fragment holds, in order."""
    return [int(version) for _, version in LINE.findall(page)]


def test_a_long_duels_page_shows_its_latest_lines_and_loads_the_earlier_ones_by_htmx(duels):
    app, built = duels
    client = logged_in(app)
    duel = built["rocet", LONG]["duel"]
    page = client.get(f"/duels/{duel}").text
    shown = history_lines(page)
    assert len(shown) == windows.LATEST and max(shown) == LONG  # the latest lines, the last one included
    plain, htmx = EARLIER.search(page).groups()
    assert plain == htmx  # one address: the fragment for htmx, the page without JavaScript
    fragment = client.get(html.unescape(htmx), headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.text
    before = history_lines(fragment.text)
    assert len(before) == windows.LATEST and max(before) < min(shown)
    # Numbered as in the whole history: the fragment's first line continues the page's count.
    first_shown = int(re.search(r'<li value="(\d+)">', page).group(1))
    assert int(re.search(r'<li value="(\d+)">', fragment.text).group(1)) == first_shown - windows.LATEST


def test_the_earlier_lines_open_as_a_plain_page_back_to_the_duels_first_line(duels):
    app, built = duels
    client = logged_in(app)
    duel = built["rocet", LONG]["duel"]
    page = client.get(f"/duels/{duel}").text
    seen = history_lines(page)
    for _ in range(LONG):  # each page links to the one before it, until the first line
        found = EARLIER.search(page)
        if found is None:
            break
        answer = client.get(html.unescape(found.group(1)))
        assert answer.status_code == 200 and "<html" in answer.text and f"/duels/{duel}" in answer.text
        page = answer.text
        seen = history_lines(page) + seen
    assert '<li value="1">' in page and seen == sorted(set(seen))  # every line once, in order
    whole = client.get(f"/api/v1/duels/{duel}?steps_since=0").json["state"]["history"]
    assert seen == [line["at"] for line in whole]  # the whole history, reached a window at a time


def test_a_short_duels_page_has_no_earlier_link(duels):
    app, built = duels
    page = logged_in(app).get(f"/duels/{built['rocet', SHORT]['duel']}").text
    assert EARLIER.search(page) is None and '<li value="1">' in page


def test_an_api_read_pages_back_with_its_earlier_cursor(duels):
    app, built = duels
    client = logged_in(app)
    duel = built["pf2e", LONG]["duel"]
    read = client.get(f"/api/v1/duels/{duel}").json
    assert read["earlier"] and all(step["at"] > LONG - windows.SPAN for step in read["steps"])
    back = client.get(f"/api/v1/duels/{duel}?history_before={read['earlier']}").json
    assert back["history_before"] == read["earlier"]
    assert back["steps"] and all(step["at"] < read["earlier"] for step in back["steps"])
    assert client.get(f"/api/v1/duels/{built['pf2e', SHORT]['duel']}").json["earlier"] is None


@pytest.mark.parametrize("ruleset", ["rocet", "pf2e"])
def test_every_reader_of_a_duel_of_1000_versions_weighs_what_one_of_10_does(duels, ruleset):
    app, built = duels
    client, anonymous = logged_in(app), app.test_client()

    def sizes(duel: dict) -> dict[str, int]:
        version = client.get(f"/api/v1/duels/{duel['duel']}").json["version"]
        reads = {"API read": (client, f"/api/v1/duels/{duel['duel']}"), "GM page": (client, f"/duels/{duel['duel']}"),
                 "seat": (anonymous, duel["seat"]), "display": (anonymous, duel["display"]),
                 "display fragment": (anonymous, f"{duel['display']}/live?v={version - 1}")}
        answers = {name: reader.get(path) for name, (reader, path) in reads.items()}
        assert all(answer.status_code == 200 for answer in answers.values())
        return {name: len(answer.data) for name, answer in answers.items()}

    short, long = sizes(built[ruleset, SHORT]), sizes(built[ruleset, LONG])
    heavier = {name: f"{long[name] / short[name]:.2f}x" for name in short if long[name] > TARGET * short[name]}
    assert not heavier, heavier
