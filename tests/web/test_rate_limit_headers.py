"""The API's rate limit, told on every answer (issue 28): RateLimit-Limit, -Remaining, -Reset
(seconds) and -Policy, counted per token; past it a 429 problem with Retry-After, nothing run."""
from tests.conftest import count_events
from tests.web.test_api_v1 import V1


def test_every_api_answer_names_the_limit_what_is_left_and_when_it_resets(app, client):
    app.config["API_LIMIT"] = "5 per minute"
    first, second = client.get(f"{V1}/campaigns"), client.get(f"{V1}/me")
    assert first.headers["RateLimit-Limit"] == "5" and first.headers["RateLimit-Policy"] == "5;w=60"
    assert (first.headers["RateLimit-Remaining"], second.headers["RateLimit-Remaining"]) == ("4", "3")
    assert 0 <= int(second.headers["RateLimit-Reset"]) <= 60
    refused = client.post(f"{V1}/commands", json={"type": "Nothing"})
    assert refused.status_code == 422 and refused.headers["RateLimit-Remaining"] == "2"  # an error counts too


def test_past_the_limit_a_429_problem_with_retry_after_and_nothing_is_run(app, client):
    app.config["API_LIMIT"] = "2 per minute"
    for _ in range(2):
        assert client.get(f"{V1}/campaigns").status_code == 200
    before = count_events(app)
    refused = client.post(f"{V1}/commands", json={"type": "CreateCampaign", "name": "Late", "ruleset": "rocet"})
    assert refused.status_code == 429, refused.json
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert refused.json["error"] == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60 and refused.headers["RateLimit-Remaining"] == "0"
    assert count_events(app) == before


def test_each_token_has_its_own_counter(app, client):
    app.config["API_LIMIT"] = "2 per minute"
    other = client.post(f"{V1}/commands", json={"type": "IssueApiToken", "label": "second"}).json["secret"]
    client.get(f"{V1}/campaigns")
    assert client.get(f"{V1}/campaigns").status_code == 429
    bot = app.test_client()
    bot.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {other}"
    assert bot.get(f"{V1}/campaigns").headers["RateLimit-Remaining"] == "1"


def test_the_description_documents_the_headers_and_the_429(client):
    paths = client.get(f"{V1}/openapi.json").json["paths"]
    for path, operations in paths.items():
        for operation in operations.values():
            assert "RateLimit-Remaining" in operation["responses"]["429"]["headers"], path
            assert "Retry-After" in operation["responses"]["429"]["headers"], path
            assert "RateLimit-Reset" in next(answer for status, answer in operation["responses"].items()
                                             if status.startswith("2"))["headers"], path


def test_pages_are_not_counted(app, client):
    app.config["API_LIMIT"] = "1 per minute"
    for _ in range(3):
        page = client.get("/")
        assert page.status_code == 200 and "RateLimit-Limit" not in page.headers
