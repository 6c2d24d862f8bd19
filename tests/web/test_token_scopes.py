"""API tokens with scopes (issue 28): a read-only token reads and is refused every command (403,
nothing appended); a token for one campaign sees and commands that campaign alone, any other
answered as a stranger's (404). The scope is a fact of the token's own event, checked by the
access policy."""
from tests.conftest import count_events
from tests.web.test_api_v1 import V1, duel_of, send


def token(app, client, **scope):
    """A client carrying a new token of the GM's, with ``scope`` (read_only, campaign_id)."""
    issued = send(client, type="IssueApiToken", label="bot", **scope)
    bot = app.test_client()
    bot.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {issued['secret']}"
    return bot


def campaign_of(client, duel: str) -> str:
    return client.get(f"{V1}/duels/{duel}").json["campaign_id"]


def test_a_read_only_token_reads_and_every_command_it_sends_is_a_403_appending_nothing(app, client):
    duel = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    reader = token(app, client, read_only=True)
    read = reader.get(f"{V1}/duels/{duel}")
    assert read.status_code == 200
    before = count_events(app)
    for command in ({"type": "CreateCampaign", "name": "Mine", "ruleset": "pirate"},
                    {"type": "RollInitiative", "duel_id": duel, "expected_version": read.json["version"],
                     "server_roll": True},
                    {"type": "IssueApiToken", "label": "wider"},
                    {"type": "Yield", "duel_id": duel, "side": "a", "expected_version": read.json["version"]}):
        refused = reader.post(f"{V1}/commands", json=command)
        assert refused.status_code == 403, (command, refused.json)
        assert refused.headers["Content-Type"].startswith("application/problem+json")
        assert "read-only" in refused.json["detail"], refused.json
    assert count_events(app) == before
    assert reader.get(f"{V1}/me").json["token"]["read_only"] is True


def test_a_one_campaign_token_sees_and_commands_that_campaign_alone(app, client):
    mine = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    other = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    here, there = campaign_of(client, mine), campaign_of(client, other)
    bot = token(app, client, campaign_id=here)
    assert [c["id"] for c in bot.get(f"{V1}/campaigns").json["campaigns"]] == [here]
    me = bot.get(f"{V1}/me").json
    assert [c["id"] for c in me["campaigns"]] == [here] and me["token"]["campaign_id"] == here
    assert bot.get(f"{V1}/campaigns/{here}").status_code == 200
    for path in (f"/campaigns/{there}", f"/campaigns/{there}/duels", f"/duels/{other}", f"/campaigns/{there}/log"):
        assert bot.get(V1 + path).status_code == 404, path
    version = bot.get(f"{V1}/duels/{mine}").json["version"]
    played = bot.post(f"{V1}/commands", json={"type": "RollInitiative", "duel_id": mine, "expected_version": version,
                                              "server_roll": True})
    assert played.status_code == 201, played.json
    before = count_events(app)
    elsewhere = bot.post(f"{V1}/commands", json={"type": "RollInitiative", "duel_id": other,
                                                 "expected_version": version, "server_roll": True})
    assert elsewhere.status_code == 404, elsewhere.json
    renamed = bot.post(f"{V1}/commands", json={"type": "EditCampaign", "campaign_id": there, "name": "Taken",
                                               "ruleset": "pirate", "expected_version": 1})
    assert renamed.status_code == 404, renamed.json
    for beyond in ({"type": "CreateCampaign", "name": "New", "ruleset": "pirate"},
                   {"type": "IssueApiToken", "label": "wider"}):
        refused = bot.post(f"{V1}/commands", json=beyond)
        assert refused.status_code == 403 and "one campaign" in refused.json["detail"], refused.json
    assert count_events(app) == before


def test_a_token_for_a_campaign_the_gm_may_not_open_is_not_made(app, client):
    answer = client.post(f"{V1}/commands", json={"type": "IssueApiToken", "label": "x", "campaign_id": "nosuch"})
    assert answer.status_code == 404, answer.json


def test_the_scope_is_a_fact_of_the_tokens_event_and_survives_a_rebuild(app, client):
    duel = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    here = campaign_of(client, duel)
    issued = send(client, type="IssueApiToken", label="vtt", read_only=True, campaign_id=here)
    assert {k: issued["events"][0]["data"][k] for k in ("read_only", "campaign_id")} == {
        "read_only": True, "campaign_id": here}
    from tracker.bootstrap.db import open_db
    from tracker.projections.rebuild import rebuild
    from tracker.eventstore.store import EventStore

    db = open_db(app.config["DATABASE"])
    try:
        before = db.execute("SELECT * FROM api_token_scopes ORDER BY token_id").fetchall()
        rebuild(db, EventStore(db))
        assert db.execute("SELECT * FROM api_token_scopes ORDER BY token_id").fetchall() == before != []
    finally:
        db.close()


def test_scoped_tokens_are_made_and_shown_on_the_settings_page(app, client):
    duel = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    here = campaign_of(client, duel)
    page = client.post("/settings/tokens", data={"label": "vtt", "read_only": "true", "campaign_id": here})
    assert page.status_code == 201
    assert "read-only" in page.text and "only Season" in page.text
    assert 'name="read_only"' in page.text and f'<option value="{here}">Season</option>' in page.text


def test_issue_token_on_the_command_line_takes_a_scope(app, runner, client):
    duel = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    here = campaign_of(client, duel)
    result = runner.invoke(args=["issue-token", "gm", "display bot", "--read-only", "--campaign", here])
    assert result.exit_code == 0, result.output
    bot = app.test_client()
    bot.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {result.output.strip()}"
    assert bot.get(f"{V1}/me").json["token"] == {**bot.get(f"{V1}/me").json["token"], "read_only": True,
                                                 "campaign_id": here}
    refused = bot.post(f"{V1}/commands", json={"type": "CreateCampaign", "name": "New", "ruleset": "pirate"})
    assert refused.status_code == 403
