"""The pseudo-locale: with ``PSEUDO_TRANSLATION`` every string that went through a catalog reads
between ⟦ and ⟧, so a word a person reads outside those marks was never wrapped for translation.

The walk starts from the showcase (the demo campaign and a duel of each ruleset, part-way or
finished, with its table display and player recap) and follows every link, htmx fragment and
players' link of the GM's pages, a few pages of each shape, through the Flask test client. Each
visible text node (and each attribute a person reads: a label, a placeholder, an image's text)
must be, once its marked parts are taken out, nothing but numbers, signs, the campaign's own data
(names, titles, notes, reasons typed by the GM), or a game term the glossary keeps in both
languages. Offenders are listed page by page. A redirect's body is never read (a browser follows
it), and a data block marked ``translate="no"`` (the log's stored JSON) is data, not words.
"""
from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

from tests.browser.crawl import DOWNLOAD, NEVER, shape
from tests.conftest import FAST_HASH, logged_in, register_gm
from tracker import create_app, rules
from tracker.domain.events import EVENT_TYPES
from tracker.i18n import PSEUDO_CLOSE, PSEUDO_OPEN
from tracker.domain.languages import KEPT_WORDS
from tracker.application.services import Context

# Its tests share one module-wide fixture (costly to build): under xdist they run on one worker.
pytestmark = pytest.mark.xdist_group("pseudo-locale")

# Words every language shows as they are (docs/glossary.md): the core's few and each ruleset's
# game terms, as each declares them.
def game_terms() -> list[str]:
    return [*KEPT_WORDS, *(term for module in rules.RULESETS.values() for term in module.GAME_TERMS)]

# Fields of the log's events that hold what the GM or a player typed: shown as they were typed.
USER_FIELDS = {"name", "title", "notes", "player", "username", "reason", "stakes", "judge", "text", "label",
               "insults", "weapon", "weapons"}
HIDDEN = {"script", "style", "template", "noscript"}
DATA_BLOCKS = {"pre", "code"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
READ_ATTRIBUTES = ("aria-label", "placeholder", "alt", "title", "aria-valuetext", "data-announce")
# An event type or a command (the log and the API name them so), a stream id, an address.
IDENTIFIER = re.compile(r"\b[A-Z][A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*\b|\b\w+[-_]\w+\b|(?:https?:/)?/\S+")
WORD = re.compile(r"[^\W\d_]{2,}")
PER_SHAPE = 2


class Text(HTMLParser):
    """The visible text nodes and read attributes of a page, and where it leads next. A marked
    string may hold markup (``<code>`` inside a sentence): the marks are followed across nodes, and
    each node is kept as what of it lies outside them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.depth = 0
        self.links: list[str] = []
        self.fragments: list[str] = []
        self.hidden = 0
        self.data: list[str] = []  # the open elements marked translate="no": data as stored (the log's JSON)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag in HIDDEN:
            self.hidden += 1
        # translate="no" marks stored data shown as it is (the log's JSON), and nothing else.
        assert found.get("translate") != "no" or tag in DATA_BLOCKS, f"<{tag} translate=no> is not a data block"
        if (found.get("translate") == "no" or self.data) and tag not in VOID:
            self.data.append(tag)
        for name in READ_ATTRIBUTES:
            if found.get(name):
                self.nodes.append(unmarked(found[name])[0])
        if tag == "a" and found.get("href") and "download" not in found:
            self.links.append(found["href"])
        if found.get("hx-get"):
            # A live fragment asks to wait for the next change (a long-poll's `wait=`): the walk
            # reads it as it is now, at once, as a reload does.
            self.fragments.append(re.sub(r"([?&])wait=[^&]*&?", r"\1", found["hx-get"]).rstrip("?&"))
        if tag == "input" and any(part in (found.get("value") or "") for part in ("/play/", "/seat/")):
            self.links.append(found["value"])

    def handle_endtag(self, tag):
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        if self.data and self.data[-1] == tag:
            self.data.pop()

    def handle_data(self, data):
        if not self.hidden and not self.data and data.strip():
            outside, self.depth = unmarked(data, self.depth)
            self.nodes.append(outside)


def unmarked(text: str, depth: int = 0) -> tuple[str, int]:
    """What of ``text`` lies outside every ⟦…⟧ (marks may nest: a Text holds Texts), starting
    ``depth`` marks deep; and how deep it ends."""
    kept = []
    for char in text:
        if char == PSEUDO_OPEN:
            depth += 1
        elif char == PSEUDO_CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(char)
    return "".join(kept), depth


def offenders(text: str, allowed: list[str]) -> list[str]:
    """The words of ``text`` a person reads that no catalog translated, nor data, nor a game term."""
    rest = IDENTIFIER.sub(" ", " ".join(" " if word in EVENT_TYPES else word for word in text.split(" ")))
    for phrase in allowed:  # longest first, so a name is taken out whole before any word of it
        if phrase in rest:
            rest = rest.replace(phrase, " ")
    return WORD.findall(rest)


def user_data(app) -> list[str]:
    """Every string the GM typed into the log's events (names, titles, notes, reasons…)."""
    from tracker.bootstrap.db import open_db
    from tracker.eventstore.store import loads

    found: set[str] = set()

    def collect(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                collect(v, k)
        elif isinstance(value, list):
            for v in value:
                collect(v, key)
        elif isinstance(value, str) and key in USER_FIELDS and value.strip():
            found.add(value.strip())
            found.update(line.split("|")[0].strip() for line in value.splitlines() if line.strip())

    db = open_db(app.config["DATABASE"])
    try:
        for (data,) in db.execute("SELECT data FROM events"):
            collect(loads(data))
    finally:
        db.close()
    return sorted(found | set(game_terms()), key=len, reverse=True)


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    """The showcase in the pseudo-locale, walked by the logged-in GM: each page's offenders."""
    from tests.browser.showcase import seed

    database = str(tmp_path_factory.mktemp("pseudo") / "site.db")
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "pseudo", "WTF_CSRF_ENABLED": False,
                      "SESSION_COOKIE_SECURE": False, "PSEUDO_TRANSLATION": True, "BASE_URL": "http://localhost",
                      "SERVICE_CONTEXT": Context(rng=random.Random(11), password_method=FAST_HASH)})
    register_gm(app)
    ids = seed(database)
    allowed = user_data(app)
    client = logged_in(app)
    seat = _seat(app, client, ids)
    starts = [seat, "/", "/settings", "/settings/password", f"/campaigns/{ids['campaign']}/edit",
              *(f"/duels/{duel}" for duel in ids["duels"].values()), "/duels/no-such-duel"]
    found: dict[str, list[str]] = {}
    queue, seen, shapes = list(starts), set(starts), {}
    while queue:
        url = queue.pop(0)
        kind = shape(url)
        if shapes.get(kind, 0) >= PER_SHAPE:
            continue
        shapes[kind] = shapes.get(kind, 0) + 1
        for fragment in (False, True):
            answer = client.get(url, headers={"HX-Request": "true"} if fragment else {})
            assert answer.status_code < 500, f"{url} answered {answer.status_code}"
            if 300 <= answer.status_code < 400:  # a browser follows it and never shows its body
                leads = [answer.headers.get("HX-Redirect") or answer.location]
            elif answer.status_code == 204 or "html" not in answer.content_type:
                continue
            else:
                page = Text()
                page.feed(answer.get_data(as_text=True))
                words = [f"{' '.join(bad)!r} in {node.strip()[:90]!r}" for node in page.nodes
                         if (bad := offenders(node, allowed))]
                found[url + (" (htmx)" if fragment else "")] = words
                leads = page.links + page.fragments
            for href in leads:
                if not href:
                    continue
                target = urljoin("http://localhost" + url, href)
                parts = urlsplit(target)
                if parts.netloc != "localhost":
                    continue
                target = parts.path + (f"?{parts.query}" if parts.query else "")
                if NEVER.search(target) or DOWNLOAD.search(target) or target in seen:
                    continue
                seen.add(target)
                queue.append(target)
    anonymous = app.test_client()
    for url in ("/login", "/setup?code=x", "/no-such-page"):
        answer = anonymous.get(url)
        if 300 <= answer.status_code < 400:  # /setup once a GM exists: werkzeug's redirect body, never shown
            continue
        page = Text()
        page.feed(answer.get_data(as_text=True))
        found[url + " (anonymous)"] = [f"{' '.join(bad)!r} in {node.strip()[:90]!r}" for node in page.nodes
                                       if (bad := offenders(node, allowed))]
    return found


def _seat(app, client, ids) -> str:
    """A player's seat for the Rocèt duel's side A, made on the session page: its path."""
    from tracker.bootstrap.db import open_db

    db = open_db(app.config["DATABASE"])
    try:
        character = db.execute("SELECT character_id FROM duelists WHERE duel_id = ? AND side = 'a'",
                               [ids["duels"]["rocet"]]).fetchone()[0]
    finally:
        db.close()
    assert client.post(f"/sessions/{ids['session']}/seats", data={"character_id": character}).status_code == 302
    page = client.get(f"/sessions/{ids['session']}").get_data(as_text=True)
    return re.findall(r'value="http://localhost(/seat/[^"]+)"', page)[-1]


def test_the_walk_covers_every_kind_of_gm_and_player_page(walk):
    """The pages this test reads: the GM's pages, their htmx fragments and the players' pages."""
    kinds = {shape(url.split(" ")[0]) for url in walk}
    for expected in ("/?", "/settings?", "/campaigns/N?", "/campaigns/N/edit?", "/characters/N?", "/sessions/N?",
                     "/duels/N?", "/events/N?", "/campaigns/N/log?", "/campaigns/N/history?",
                     "/campaigns/N/statistics?", "/characters/N/record?", "/duels/N/travel?", "/play/T/display?", "/play/T/recap?",
                     "/login?"):
        assert expected in kinds, f"the walk never reached {expected}: {sorted(kinds)}"
    assert any(kind.startswith("/seat/") for kind in kinds), "the walk never reached a player's seat"


def test_pseudo_marks_every_word_of_the_core_s_own_pages(walk):
    """Pages whose words are all the core's (no ruleset, recap or seat words on them)."""
    core = {url: words for url, words in walk.items()
            if url.split(" ")[0].split("?")[0] in ("/settings", "/settings/password", "/login", "/setup")}
    assert core and not any(core.values()), "\n".join(
        f"{url}:\n  " + "\n  ".join(words) for url, words in core.items() if words)


def test_no_page_shows_a_word_that_never_went_through_a_catalog(walk):
    """Every page and fragment of the walk, in the pseudo-locale: a word outside ⟦…⟧ is an offender
    unless it is the campaign's own data or a listed game term."""
    bad = {url: words for url, words in walk.items() if words}
    assert not bad, f"{sum(map(len, bad.values()))} unwrapped words on {len(bad)} of {len(walk)} pages:\n" + \
        "\n".join(f"{url}:\n  " + "\n  ".join(words[:12]) + (f"\n  … {len(words) - 12} more" if len(words) > 12 else "")
                  for url, words in bad.items())
