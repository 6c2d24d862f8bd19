"""What every page carries through the test client: the theme switch (a cookie, no JavaScript
needed), the icons and the web app manifest, the error summary of a refused form, bars that say
how full they are, and the strict CSP (no inline style or script in any template)."""
import json
import re
from pathlib import Path

import pytest

from tests.conftest import count_events

ROOT = Path(__file__).resolve().parents[2]


def test_the_theme_follows_the_system_until_one_is_chosen(client):
    page = client.get("/").text
    assert "data-theme" not in page.split("<head>")[0]  # prefers-color-scheme decides
    assert 'aria-pressed="true"' in page and 'value="auto" aria-pressed="true"' in page

    chosen = client.post("/theme", data={"theme": "dark", "next": "/settings"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/settings"
    cookie = chosen.headers["Set-Cookie"]
    assert cookie.startswith("theme=dark") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert '<html lang="en" data-theme="dark">' in client.get("/settings").text

    client.post("/theme", data={"theme": "auto", "next": "/"})
    assert "data-theme" not in client.get("/").text.split("<head>")[0]


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "settings", ""])
def test_the_theme_switch_only_goes_back_to_this_site(client, target):
    answer = client.post("/theme", data={"theme": "light", "next": target})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_an_unknown_theme_changes_nothing(client):
    answer = client.post("/theme", data={"theme": "neon", "next": "/"})
    assert answer.status_code == 303 and "Set-Cookie" not in answer.headers


def test_the_theme_can_be_chosen_before_logging_in(anonymous):
    answer = anonymous.post("/theme", data={"theme": "light", "next": "/login"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/login"
    assert 'data-theme="light"' in anonymous.get("/login").text


def test_icons_and_manifest_are_linked_and_served(client):
    page = client.get("/").text
    for href in re.findall(r'<link rel="(?:icon|apple-touch-icon|manifest)" href="([^"]+)"', page):
        assert client.get(href).status_code == 200, href
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.data)
    assert data["short_name"] == "Touché" and data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert client.get("/static/" + icon["src"]).status_code == 200, icon
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in data["icons"]}


def test_every_page_has_a_skip_link_landmarks_and_a_live_region(client):
    page = client.get("/").text
    assert page.index('class="skip" href="#main"') < page.index("<header") < page.index('<main id="main"')
    assert 'id="announcer"' in page and 'aria-live="polite"' in page
    assert 'media="print"' in page and "print.css" in page


def test_a_refused_form_starts_with_a_focused_summary_linking_each_field(client):
    campaign = client.post("/campaigns", data={"name": "Season of Steel", "ruleset": "rocet"}).headers["Location"]
    campaign_id = campaign.rstrip("/").rsplit("/", 1)[1]
    before = count_events(client.application)
    refused = client.post(f"/campaigns/{campaign_id}/characters",
                          data={"name": "", "rank": "pj", "rocet.des": "d7", "rocet.pg_max": "lots"})
    assert refused.status_code == 422 and count_events(client.application) == before
    page = refused.text
    summary = page[page.index('class="error-summary"'):]
    summary = summary[:summary.index("</div>")]
    assert 'tabindex="-1" autofocus' in summary
    links = re.findall(r'href="#(f-[^"]+)"', summary)
    assert "f-name" in links and len(links) >= 2
    assert ">Name: " in summary and "Rocèt DES die: " in summary  # each field by the name the form shows
    for field_id in links:
        assert f'id="{field_id}"' in page, field_id  # each link leads to a field on the page
    assert page.index('class="error-summary"') < page.index('id="f-name"')  # at the top of the form


def test_bars_are_coloured_by_how_full_they_are(app):
    with app.test_request_context():
        from flask import render_template_string

        def level(current, maximum):
            html = render_template_string('{% from "_macros.html" import bar %}{{ bar(c, m, "PG") }}', c=current, m=maximum)
            return re.search(r'class="bar (\w+)"', html).group(1), html

        assert level(40, 40)[0] == "ok" and level(21, 40)[0] == "ok"
        assert level(20, 40)[0] == "warn" and level(10, 40)[0] == "warn"
        assert level(9, 40)[0] == "danger" and level(0, 40)[0] == "danger" and level(0, 0)[0] == "danger"
        assert "PG 9/40" in level(9, 40)[1]  # the numbers, readable without colour
        assert 'style="' not in level(9, 40)[1]


def test_no_template_or_script_needs_an_inline_style_or_script():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if path.name == "document.html":
            continue  # the downloaded recap, opened from disk, carries its stylesheet inside it
        assert not re.search(r"\sstyle=|<style|\son[a-z]+=", text), path
        assert not re.search(r"<script(?![^>]*\ssrc=)", text), path
