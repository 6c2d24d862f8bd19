"""Browser tests: the real app served by waitress on loopback, driven by Playwright in
Debian's Chromium (installed by `make test`; Playwright never downloads a browser)."""
import contextlib
import os
import random
import shutil
import threading

import pytest
from waitress import wasyncore
from waitress.server import create_server

from tests.conftest import FAST_HASH, GM_PASSWORD, register_gm
from tracker import create_app
from tracker.application.services import Context

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("Chromium is not installed: `make test` installs Debian's chromium package")
    return path


@contextlib.contextmanager
def served(app, threads=4):
    """``app`` served by waitress on a free loopback port, its address yielded; stopped whole at
    the end, its worker threads too (``close`` alone leaves them running, and a later test that
    forks, such as a long import, refuses to while any other thread runs)."""
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # a select() under way on a socket closed below, from this thread
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stopping.set()
        # Every socket of its loop, the browser's open connections too, so the loop ends now.
        wasyncore.close_all(server._map)
        thread.join(timeout=5)
        server.task_dispatcher.shutdown()


@pytest.fixture
def live_app(tmp_path):
    """The app on a fresh database, CSRF on, served on a free loopback port."""
    app = create_app({"DATABASE": str(tmp_path / "browser.db"), "SECRET_KEY": "browser-tests",
                      "SERVICE_CONTEXT": Context(rng=random.Random(11), password_method=FAST_HASH)})
    with served(app) as url:
        app.config["LIVE_URL"] = app.config["BASE_URL"] = url
        yield app


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def anonymous_page(browser, live_app):
    """A browser tab on the live app, nobody logged in."""
    context = browser.new_context(base_url=live_app.config["LIVE_URL"], viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def page(anonymous_page, live_app):
    """A browser tab on the live app with the GM logged in through the login form."""
    register_gm(live_app)
    anonymous_page.goto("/login")
    anonymous_page.get_by_label("Username").fill("gm")
    anonymous_page.get_by_label("Password").fill(GM_PASSWORD)
    anonymous_page.get_by_role("button", name="Log in").click()
    anonymous_page.wait_for_url("**/")
    return anonymous_page


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
