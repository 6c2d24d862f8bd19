"""Resource limits (issue 10, finding 5): a body too large is a clear 413; a database that is
locked, full or read-only is a clear 503 with Retry-After, on pages and on the API; an import
never makes another GM's write fail."""
import io
import sqlite3
import threading
import time

import pytest

from tests.conftest import count_events, fixed_context, logged_in, register_gm
from tracker import create_app


def new_campaign(client, name="Season of Steel"):
    return client.post("/campaigns", data={"name": name, "ruleset": "rocet", "notes": ""})


def api_campaign(client, name="By the API"):
    return client.post("/api/commands", json={"type": "CreateCampaign", "name": name, "ruleset": "rocet"})


def test_a_form_larger_than_the_body_limit_is_a_clear_413(app, client):
    before = count_events(app)
    response = new_campaign(client, "x" * (app.config["MAX_CONTENT_LENGTH"] + 1))
    assert response.status_code == 413
    assert "larger than this server accepts (1 MB)" in response.text and "Nothing was logged" in response.text
    assert count_events(app) == before


def test_an_api_command_larger_than_the_limit_is_a_json_413(app, client):
    response = client.post("/api/commands", data=b"{" + b" " * app.config["MAX_CONTENT_LENGTH"] + b"}",
                           content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"] == "too_large"


def test_an_import_may_be_larger_than_a_form_but_not_than_its_own_limit(app, client):
    app.config["MAX_UPLOAD_LENGTH"] = 3 * 1024 * 1024
    body = b"\n" * (2 * 1024 * 1024)  # above the form limit, below the upload limit: read, then refused
    response = client.post("/import", data={"log": (io.BytesIO(body), "big.jsonl")},
                           content_type="multipart/form-data")
    assert response.status_code == 303  # over a megabyte: imported beside the request, its progress shown
    for _ in range(400):
        ended = client.get(response.headers["Location"])
        if ended.status_code != 200:
            break
        time.sleep(0.05)
    assert ended.status_code == 422 and "Line 1: empty line" in ended.text
    body = b"\n" * (4 * 1024 * 1024)
    response = client.post("/import", data={"log": (io.BytesIO(body), "big.jsonl")},
                           content_type="multipart/form-data")
    assert response.status_code == 413 and "TOUCHE_MAX_UPLOAD_MB" in response.text


@pytest.fixture
def locked(app):
    """Another connection holding the write lock; the app waits only 100 ms for it."""
    app.config["BUSY_TIMEOUT_MS"] = 100
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield holder
    holder.execute("ROLLBACK")
    holder.close()


def test_a_locked_database_is_a_503_page_with_retry_after(app, client, locked):
    before = count_events(app)
    response = new_campaign(client)
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert "busy" in response.text and "Nothing you sent was logged" in response.text
    locked.execute("ROLLBACK")
    locked.execute("BEGIN")
    assert count_events(app) == before
    assert new_campaign(client).status_code == 302  # sent again once the lock is gone, it lands


def test_a_locked_database_is_a_503_on_the_api_too(app, client, locked):
    response = api_campaign(client)
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert response.get_json()["error"] == "unavailable"


def test_a_read_only_database_is_a_503_while_pages_still_read(app, tmp_path):
    path = app.config["DATABASE"]
    read_only = create_app({"TESTING": True, "DATABASE": f"file:{path}?mode=ro", "SECRET_KEY": "test",
                            "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                            "SERVICE_CONTEXT": fixed_context(), "TEST_TOKENS": app.config["TEST_TOKENS"]})
    client = logged_in(read_only)
    assert client.get("/").status_code == 200
    response = new_campaign(client)
    assert response.status_code == 503 and "read-only" in response.text
    response = api_campaign(client)
    assert response.status_code == 503 and "read-only" in response.get_json()["message"]


def test_another_gms_write_waits_for_an_import_and_lands(app, client):
    """The import holds the write lock while it appends; a write arriving meanwhile waits (the
    busy timeout) instead of failing, and both land."""
    from tests.integration.test_import_references import rechained

    items = []
    for n in range(1, 3001):
        items.append({"position": n, "stream": "campaign-big" if n == 1 else "character-c%d" % n, "version": 1,
                      "type": "CampaignCreated" if n == 1 else "CharacterCreated",
                      "schema": 1 if n == 1 else 2, "metadata": {"campaign_id": "big"},
                      "data": {"campaign_id": "big", "name": "Big", "ruleset": "rocet"} if n == 1 else
                      {"character_id": "c%d" % n, "campaign_id": "big", "name": "C", "rank": "pj"}})
    body = rechained(items).encode()
    app.config["BUSY_TIMEOUT_MS"] = 60000  # a slow machine must not turn waiting into a 503 here
    register_gm(app, "other", "other")
    other = logged_in(app, "other")
    results = {}

    def importing():
        results["import"] = logged_in(app).post("/import", data={"log": (io.BytesIO(body), "big.jsonl")},
                                                content_type="multipart/form-data").status_code

    thread = threading.Thread(target=importing)
    thread.start()
    statuses = [new_campaign(other, f"Meanwhile {i}").status_code for i in range(5)]
    thread.join()
    assert results["import"] == 302 and statuses == [302] * 5
