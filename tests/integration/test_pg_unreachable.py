"""PostgreSQL restarting or failing over under a running app: the requests that meet a dead
connection are a 503 with Retry-After (nothing they sent was logged), never a 500, and the pool
replaces the dead connections so the next request is served."""
import psycopg
import pytest

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def test_a_lost_database_connection_is_a_503_and_the_next_request_is_served(app, client):
    assert client.get("/api/campaigns").status_code == 200
    url = app.config["DATABASE"]
    with psycopg.connect(url, autocommit=True) as admin:  # every other connection cut, as a restart does
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      " WHERE datname = current_database() AND pid <> pg_backend_pid()")
    cut = client.get("/api/campaigns")
    assert cut.status_code == 503 and cut.headers["Retry-After"]
    assert "cannot be reached" in cut.json["message"]
    assert client.get("/api/campaigns").status_code == 200
