"""A production crawl (issue 29), first cut: the app configured as `make run` configures it
(tracker/web/serve.py's create_app settings, the demo seeded by the demo command, no test-only
ruleset), walked link by link from the home page in English and Spanish as the demo's GM and
anonymously. Every answer is below 500, and no page shows a raw placeholder.

Every kind of every ruleset (and each sword victory) is also started through its set-up form
as a GM who changes nothing would send it, and its page, time travel, live fragment and JSON read.
The same duel is read from side A's seat, the table display and the players' recap.
Not yet here: playing each duel on by its legal actions and ending it."""
import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import pytest

from tests.conftest import logged_in, register_gm
from tracker import create_app, rules

RAW = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}|Traceback")
SKIP = ("/logout", "/static/", "/settings/sessions/end")
LIMIT = 400


@pytest.fixture
def production(tmp_path):
    assert [m.NAME for m in rules.RULESETS.values()] == ["rocet", "pirate", "pf2e"]
    app = create_app({"DATABASE": str(tmp_path / "touche.db"), "SECRET_KEY": "crawl",
                      "SESSION_COOKIE_SECURE": False, "LONG_POLL_SLOTS": 8})  # as tracker.web.serve does
    result = app.test_cli_runner().invoke(args=["demo", "--if-empty"])  # as `make run`, on an empty log
    assert result.exit_code == 0 and "no demo" not in result.output, result.output
    register_gm(app)  # the first GM to come takes the demo, as after `make run`'s set-up code
    return app


def walk(client, language):
    seen, queue, answers = set(), deque(["/"]), {}
    while queue and len(seen) < LIMIT:
        path = queue.popleft()
        if path in seen or path.startswith(SKIP):
            continue
        seen.add(path)
        response = client.get(path, headers={"Accept-Language": language})
        answers[path] = response.status_code
        assert response.status_code < 500, (language, path)
        if "text/html" not in response.content_type:
            continue
        page = response.get_data(as_text=True)
        visible = re.sub(r"<(script|style)[\s\S]*?</\1>|<[^>]+>", " ", page)
        assert not RAW.search(visible), (language, path, RAW.search(visible).group())
        for link in re.findall(r'href="([^"#]+)"', page):
            target = urlsplit(urljoin("http://localhost" + path, link.replace("&amp;", "&")))
            if target.netloc in ("", "localhost"):
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return answers


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_page_linked_from_home_answers_in_production(production, language):
    answers = walk(logged_in(production), language)
    assert len(answers) > 20, answers
    assert any(p.startswith("/duels/") for p in answers) or any(p.startswith("/campaigns/") for p in answers)
    walk(production.test_client(), language)


def options(form: str, name: str) -> list[str]:
    select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>([\s\S]*?)</select>', form)
    return re.findall(r'<option[^>]*value="([^"]*)"', select.group(1)) if select else []


def filled(form: str, duelists, **chosen) -> dict:
    """The set-up form as a GM who changes nothing would send it, with ``chosen`` set."""
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if not name or (kind and kind.group(1) in ("checkbox", "radio") and "checked" not in tag):
            continue
        least = re.search(r'min="([^"]+)"', tag)  # a number the GM must type: the smallest allowed
        if kind and kind.group(1) == "checkbox":  # a ticked box's value wins over its hidden "false", as it does posted
            data[name.group(1)] = value.group(1) if value else "on"
            continue
        data.setdefault(name.group(1), value.group(1) if value and value.group(1) else least.group(1) if least else "")
    for name in re.findall(r'<select[^>]*name="([^"]+)"', form):
        select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>([\s\S]*?)</select>', form).group(1)
        picked = re.search(r'<option[^>]*value="([^"]*)"[^>]*selected', select) or \
            re.search(r'<option[^>]*value="([^"]+)"', select)
        data[name] = picked.group(1) if picked else ""
    for name, value in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>([\s\S]*?)</textarea>', form):
        data[name] = value
    select = re.search(r'<select[^>]*name="side_a"[^>]*>([\s\S]*?)</select>', form).group(1)
    people = dict((label.strip(), value) for value, label in re.findall(r'<option[^>]*value="([^"]+)"[^>]*>([^<]*)<', select))
    sides = [value for label, value in people.items() if any(label.startswith(n) for n in duelists)]
    data.update(side_a=sides[0], side_b=sides[1], **chosen)
    return data


def player_pages(app, client, session, duel, character, csrf) -> list[str]:
    """The seat of side A's duellist, the duel's table display and the session's players' recap,
    as the GM hands them out."""
    from tracker.bootstrap.db import open_db
    from tracker.web.links import sign

    assert client.post(f"{session}/seats", data={"character_id": character, "csrf_token": csrf}).status_code < 400
    assert client.post(f"{duel}/display-links", data={"csrf_token": csrf}).status_code < 400
    assert client.post(f"{session}/recap-links", data={"csrf_token": csrf}).status_code < 400
    seat = re.findall(r'(/seat/[^"<\s]+)', client.get(session).get_data(as_text=True))[-1]
    db = open_db(app.config["DATABASE"])
    try:
        with app.app_context():
            tokens = {kind: sign(db.execute("SELECT link_id FROM player_links WHERE kind = ? ORDER BY rowid DESC",
                                            [kind]).fetchone()[0]) for kind in ("display", "recap")}
    finally:
        db.close()
    return [seat, f"{seat}/live?v=0", f"/play/{tokens['display']}/display",
            f"/play/{tokens['display']}/display/live?v=0", f"/play/{tokens['recap']}/recap"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_duel_kind_started_through_its_set_up_form_answers_in_production(production, language):
    client, anonymous = logged_in(production), production.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = anonymous.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    home = client.get("/").get_data(as_text=True)
    campaign = re.findall(r'href="(/campaigns/[^/"]+)"', home)[0]
    session = re.findall(r'href="(/sessions/[^/"]+)"', client.get(campaign).get_data(as_text=True))[0]
    started, refused = 0, []
    for ruleset in rules.RULESETS.values():
        for kind in ruleset.KINDS:
            form = client.get(f"{session}/duels/new?ruleset={ruleset.NAME}&kind={kind}").get_data(as_text=True)
            variants = [{"sword_victory": v} for v in options(form, "sword_victory")] or [{}]
            for variant in variants:
                form_tag = re.search(r'<form[^>]*action="([^"]+)"[^>]*id="setup-form"', form)
                body = filled(form[form_tag.start():], [d["name"] for d in ruleset.samples.DUELISTS], ruleset=ruleset.NAME, kind=kind, **variant)
                answer = client.post(form_tag.group(1), data=body)
                if answer.status_code == 422:  # a required word left blank (a second's name…): type one
                    empty = {k: "Crawl" for k, v in body.items() if v == "" and not k.startswith("weapon")
                             and f'name="{k}"' not in "".join(re.findall(r"<select[^>]*>", form))}
                    answer = client.post(form_tag.group(1), data={**body, **empty})
                assert answer.status_code < 500, (ruleset.NAME, kind, variant)
                if answer.status_code != 302:
                    refused.append((ruleset.NAME, kind, variant, re.findall(r'class="error[^"]*"[^>]*>([^<]+)<', answer.get_data(as_text=True))[:3]))
                    continue
                started += 1
                duel = urlsplit(answer.headers["Location"]).path
                reads = [(client, p) for p in (duel, f"{duel}/travel", f"{duel}/live?v=0", "/api" + duel)]
                reads += [(anonymous, p) for p in player_pages(production, client, session, duel, body["side_a"], body["csrf_token"])]
                for reader, path in reads:
                    response = reader.get(path)
                    assert response.status_code < 500, (ruleset.NAME, kind, variant, path)
                    if "/live" not in path:  # every one of them is there to be read
                        assert response.status_code == 200, (ruleset.NAME, kind, variant, path)
                    if "text/html" in response.content_type:
                        assert not RAW.search(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))), path
    assert not refused, refused
    assert started >= 3, started
