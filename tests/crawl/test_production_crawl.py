"""A production crawl (issue 29), first cut: the app configured as `make run` configures it
(tracker/serve.py's create_app settings, the demo seeded by the demo command, no test-only
ruleset), walked link by link from the home page in English and Spanish as the demo's GM and
anonymously. Every answer is below 500, and no page shows a raw placeholder.

Not yet here (see the report): starting each duel kind through the set-up forms and playing it
by its legal actions, the seats, the display, and the recap formats."""
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
                      "SESSION_COOKIE_SECURE": False, "LONG_POLL_SLOTS": 8})  # as tracker.serve does
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
