"""Browser tests: the real app served by waitress on loopback, driven by Playwright in
Debian's Chromium (installed by `make test`; Playwright never downloads a browser)."""
import os
import random
import shutil
import threading

import pytest
from waitress.server import create_server

from tracker import create_app
from tracker.services import Context

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("Chromium is not installed: `make test` installs Debian's chromium package")
    return path


@pytest.fixture
def live_app(tmp_path):
    """The app on a fresh database, CSRF on, served on a free loopback port."""
    app = create_app({"DATABASE": str(tmp_path / "browser.db"), "SECRET_KEY": "browser-tests",
                      "SERVICE_CONTEXT": Context(rng=random.Random(11))})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    app.config["LIVE_URL"] = f"http://127.0.0.1:{server.effective_port}"
    yield app
    server.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_app):
    context = browser.new_context(base_url=live_app.config["LIVE_URL"], viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
