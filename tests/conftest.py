"""Fixtures shared by every test: an app on a temporary database, its client and CLI runner.

The fake "coin" ruleset (tests/coin_ruleset.py), which tests the core without any real duel
system, is registered only for the tiers that serve no pages (tests/unit, tests/integration:
their conftest's ``coin_registered``, from tests/coin_tier.py): the web, browser and crawl tiers
test the program users run, with the shipped rulesets and nothing else (issue 29), and an autouse
fixture here fails any of their tests that runs with another ruleset registered."""
import itertools
import os
import pathlib
import random

import pytest

# The command line speaks the terminal's language; the tests read English unless one asks otherwise.
os.environ["TOUCHE_LANG"] = "en"

from tests import pg_cluster
from tracker import create_app, rules
from tracker.i18n import catalogs
from tracker.application.services import Context

catalogs.compile_all()  # the .mo files the app reads, from the .po files as this checkout has them


# The rulesets Touché ships: the registry as tracker.rules left it on import, before any test ran.
SHIPPED = dict(rules.RULESETS)
SERVING_TIERS = ("web", "browser", "crawl")
TESTS = pathlib.Path(__file__).resolve().parent  # the tiers that serve pages: the program users run


def only_shipped_rulesets(when: str) -> None:
    """Fail unless the registry holds exactly the shipped rulesets (a test double registered for a
    tier that serves pages would change what the pages do: issue 29)."""
    extra = sorted(set(rules.RULESETS) - set(SHIPPED))
    assert not extra and rules.RULESETS == SHIPPED, (
        f"{when}: only the shipped rulesets ({', '.join(SHIPPED)}) may be registered where pages are served; "
        f"found {', '.join(rules.RULESETS)}")


@pytest.fixture(autouse=True)
def _program_users_run(request):
    """In the web, browser and crawl tiers, the registry holds the shipped rulesets and nothing
    else, before and after every test."""
    try:
        tier = request.node.path.resolve().relative_to(TESTS).parts[0]
    except ValueError:  # a test outside tests/
        tier = None
    if tier not in SERVING_TIERS:
        yield
        return
    only_shipped_rulesets(f"before {request.node.nodeid}")
    yield
    only_shipped_rulesets(f"after {request.node.nodeid}")


def fixed_context(seed: int = 7) -> Context:
    """Ids, time and dice from fixed sources, so a test can predict them."""
    counter = itertools.count(1)
    seconds = itertools.count(0)

    def now() -> str:
        tick = next(seconds)
        return f"2026-11-29T20:{tick // 60 % 60:02d}:{tick % 60:02d}.000+00:00"

    return Context(actor="", now=now, new_id=lambda: f"id{next(counter):04d}", rng=random.Random(seed),
                   password_method=FAST_HASH)


FAST_HASH = "pbkdf2:sha256:1000"  # tests need no slow password hashing
GM_ID, GM_PASSWORD = "gmtest", "correct horse battery"


def register_gm(app, gm_id=GM_ID, username="gm", password=GM_PASSWORD):
    """A GM account with an API token (the log's first two events in most tests); the token."""
    from tracker.bootstrap.db import open_db
    from tracker import bootstrap

    db = open_db(app.config["DATABASE"])
    try:
        bootstrap.service(db, Context(new_id=lambda: gm_id, password_method=FAST_HASH)).handle(
            {"type": "RegisterGM", "username": username, "password": password})
        token = bootstrap.service(db, Context(actor=gm_id, new_id=lambda: f"{gm_id}tok")).handle(
            {"type": "IssueApiToken", "label": "tests"}).secret
    finally:
        db.close()
    app.config.setdefault("TEST_TOKENS", {})[gm_id] = token
    return gm_id


def logged_in(app, gm_id=GM_ID):
    """A test client logged in as the GM, which also sends the GM's API token to /api/."""
    from tracker.bootstrap.db import open_db

    db = open_db(app.config["DATABASE"])
    try:  # the GM's sessions begin a new generation each time they all end (a password change…)
        row = db.execute("SELECT generation FROM session_generations WHERE gm_id = ?", [gm_id]).fetchone()
    finally:
        db.close()
    client = app.test_client()
    with client.session_transaction() as session:
        session.update(gm_id=gm_id, session_id=f"{gm_id}-session", generation=row[0] if row else 0)
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {app.config['TEST_TOKENS'][gm_id]}"
    return client


# --- the backends: SQLite always; PostgreSQL for the suites marked ``both_backends`` ---------

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config):
    config.addinivalue_line("markers", "both_backends: run the test on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "sqlite_only: in a both_backends suite, a test of something only SQLite has")


def pytest_generate_tests(metafunc):
    if ("backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends")
            and not metafunc.definition.get_closest_marker("sqlite_only")):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request):
    """The test's backend: its parameter, else TOUCHE_TEST_BACKEND (to run any suite on
    PostgreSQL by hand), else SQLite."""
    return getattr(request, "param", None) or os.environ.get("TOUCHE_TEST_BACKEND", "sqlite")


@pytest.fixture(scope="session")
def pg():
    """One throwaway PostgreSQL cluster for the whole run (started on first use)."""
    bin_dir = pg_cluster.binaries()
    if bin_dir is None:
        reason = "PostgreSQL's server is not installed (make test installs Debian's postgresql package)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):  # CI must run them: fail, never skip
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = pg_cluster.Cluster(bin_dir).start()
    try:
        cluster.prepare_template()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def new_database(backend, tmp_path, request):
    """Make a fresh, empty database of this test's backend: a file path or a PostgreSQL URL."""
    made, names = [], itertools.count()
    cluster = request.getfixturevalue("pg") if backend == "postgresql" else None

    def make(name: str = "tracker") -> str:
        if cluster is None:
            return str(tmp_path / f"{name}{next(names) or ''}.db")
        made.append(cluster.new_database())
        return made[-1]

    yield make
    for url in made:
        cluster.drop_database(url)


@pytest.fixture
def app(new_database):
    app = create_app({"TESTING": True, "DATABASE": new_database(),
                      "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                      "SERVICE_CONTEXT": fixed_context(), "BASE_URL": "http://localhost"})
    register_gm(app)
    yield app


@pytest.fixture
def client(app):
    """A test client logged in as the GM (pages) and carrying the GM's token (the JSON API)."""
    return logged_in(app)


@pytest.fixture
def anonymous(app):
    """A test client nobody logged in with."""
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def db(new_database):
    from tracker.bootstrap.db import open_db

    handle = open_db(new_database("core"))
    yield handle
    handle.close()


@pytest.fixture
def service(db):
    from tracker import bootstrap

    return bootstrap.service(db, fixed_context())


def count_events(app) -> int:
    """How many events the app's log holds (a refused action must leave it unchanged)."""
    from tracker.bootstrap.db import open_db

    db = open_db(app.config["DATABASE"])
    try:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        db.close()


def text_of(page: str) -> str:
    """The page's visible words, tags dropped and spaces squeezed, for checking numbers."""
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def redirect_key(response) -> str:
    """The id at the end of a redirect after a successful POST."""
    assert response.status_code == 302, response.text
    return response.headers["Location"].rsplit("/", 1)[1]
