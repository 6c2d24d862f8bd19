"""Wrong passwords sent all at once to the real server: the limit holds, because each attempt is
counted before its password is checked (issue 27: ten at once against a limit of three were all
checked, the limit counting them only after)."""
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

from bench.server import Server
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.application.services import Context

AT_ONCE, LIMIT = 10, 3
SLOW = "pbkdf2:sha256:200000"  # each check takes long enough for all ten to be under way together


def login_form(port):
    """A browser of its own: its cookie jar, and the login form's CSRF token."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = browser.open(f"http://127.0.0.1:{port}/login", timeout=30).read().decode()
    return browser, re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_wrong_passwords_sent_at_once_are_checked_only_as_often_as_the_limit(tmp_path, monkeypatch):
    path = str(tmp_path / "race.db")
    db = open_db(path)
    bootstrap.service(db, Context(password_method=SLOW)).handle(
        {"type": "RegisterGM", "username": "ines", "password": "correct horse battery"})
    db.close()
    monkeypatch.setenv("TOUCHE_LOGIN_LIMIT_ACCOUNT", f"{LIMIT} per hour")
    with Server(path, threads=AT_ONCE) as server:
        forms = [login_form(server.port) for _ in range(AT_ONCE)]
        start, statuses = threading.Barrier(AT_ONCE), []

        def guess(browser, token, number):
            body = urllib.parse.urlencode({"username": "ines", "password": f"guess {number}",
                                           "csrf_token": token}).encode()
            start.wait()
            try:
                statuses.append(browser.open(f"http://127.0.0.1:{server.port}/login", body, timeout=60).status)
            except urllib.error.HTTPError as answer:
                statuses.append(answer.code)

        threads = [threading.Thread(target=guess, args=(*form, n)) for n, form in enumerate(forms)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert sorted(statuses) == [401] * LIMIT + [429] * (AT_ONCE - LIMIT), statuses
        browser, token = login_form(server.port)  # the right password is refused too, until the window passes
        body = urllib.parse.urlencode({"username": "ines", "password": "correct horse battery",
                                       "csrf_token": token}).encode()
        try:
            browser.open(f"http://127.0.0.1:{server.port}/login", body, timeout=60)
            raise AssertionError("logged in past the limit")
        except urllib.error.HTTPError as answer:
            assert answer.code == 429 and int(answer.headers["Retry-After"]) > 0
        assert "Traceback" not in server.errors()
