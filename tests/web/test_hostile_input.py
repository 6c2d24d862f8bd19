"""Hostile input answers a 4xx with a message, never a 500: numbers beyond SQLite's 64-bit range,
lone surrogates, JSON nested 100,000 deep, NaN and Infinity, bytes that are not UTF-8. Each case
here crashed (or slipped through) before tracker/web/inputs.py and tracker/backup/strictjson.py."""
import io
import json
import logging

import pytest

from tests.conftest import count_events, logged_in, text_of
from tracker.rules.base import Invalid
from tracker.rules.fields import Field, parse_fields

HUGE = 10**30
BEYOND_SQLITE = 2**63  # one past the largest integer SQLite stores


@pytest.fixture
def campaign(client):
    response = client.post("/api/commands", json={"type": "CreateCampaign", "name": "Season", "ruleset": "rocet"})
    return response.json["id"]


@pytest.fixture
def alarms(app):
    """The records of the last-resort handler: a root fix, not the safety net, must answer."""
    caught = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = caught.append
    app.logger.addHandler(handler)
    yield caught
    app.logger.removeHandler(handler)
    assert not [r.getMessage() for r in caught]


def rocet_duel(client, campaign):
    def run(**command):
        response = client.post("/api/commands", json=command)
        assert response.status_code == 201, response.json
        return response.json["id"]

    session = run(type="PlanSession", campaign_id=campaign, number=1, date="2026-11-29", title="Dawn")
    sides = [run(type="CreateCharacter", campaign_id=campaign, name=name, rank="pj", stats={"rocet": {"des": "d8", "int": "d8", "pg_max": 5, "pm_max": 5, "weapons": "Sable | Espada | 2"}})
             for name in ("Ana", "Bea")]
    return run(type="StartDuel", session_id=session, ruleset="rocet", weapon_type="Espada",
               duelists=[{"character_id": sides[0], "side": "a"}, {"character_id": sides[1], "side": "b"}])


def refused_page(response, status, *words):
    assert response.status_code == status, response.text[:300]
    page = text_of(response.text)
    assert all(word in page for word in words), page[:500]


def refused_json(response, status, *words):
    assert response.status_code == status, response.text[:300]
    body = response.json
    assert body["error"] and all(word in body["message"] for word in words), body


# --- numbers beyond what SQLite holds ---------------------------------------------------------

@pytest.mark.parametrize("page", [str(HUGE), "²", "-5", "2nd"])
def test_a_page_number_out_of_range_is_a_400_naming_it(client, campaign, alarms, page):
    refused_page(client.get(f"/campaigns/{campaign}/history?page={page}"), 400, "'page' must be a whole number")


@pytest.mark.parametrize("cursor", [str(HUGE), "1e30", str(BEYOND_SQLITE), "²"])
def test_a_log_cursor_out_of_range_is_a_400_on_the_page_and_the_api(client, campaign, alarms, cursor):
    refused_page(client.get(f"/campaigns/{campaign}/log?before={cursor}"), 400, "'before' must be a whole number")
    refused_json(client.get(f"/api/campaigns/{campaign}/log?before={cursor}"), 400, "'before' must be a whole number")


def test_an_in_range_cursor_still_pages(client, campaign, alarms):
    assert client.get(f"/campaigns/{campaign}/log?before={BEYOND_SQLITE - 1}").status_code == 200
    assert client.get(f"/api/campaigns/{campaign}/log?before=").status_code == 200


@pytest.mark.parametrize("position", [str(BEYOND_SQLITE), str(HUGE), "9" * 5000])
def test_an_event_position_beyond_64_bits_is_a_404_with_a_message(client, campaign, alarms, position):
    refused_page(client.get(f"/events/{position}"), 404, "Not found")
    refused_page(client.get(f"/streams/campaign-{campaign}/{position}"), 404, "Not found")
    before = count_events(client.application)
    refused_page(client.post(f"/events/{position}/retract", data={"reason": "x"}), 404, "Not found")
    assert count_events(client.application) == before


@pytest.mark.parametrize("position", [BEYOND_SQLITE, 2**64 - 1, HUGE, 1e30, "1e30", str(HUGE)])
def test_an_event_position_beyond_64_bits_in_a_command_is_a_422(client, campaign, alarms, position):
    before = count_events(client.application)
    response = client.post("/api/commands", json={"type": "RetractEvent", "position": position, "reason": "x"})
    assert response.status_code == 422 and "position" in response.json["errors"], response.json
    assert count_events(client.application) == before


@pytest.mark.parametrize("name", ["at", "a", "b"])
@pytest.mark.parametrize("value", ["1e30", str(HUGE), "x"])
def test_time_travel_refuses_a_moment_that_is_not_a_number(client, campaign, name, value, alarms):
    duel = rocet_duel(client, campaign)
    view = "travel" if name == "at" else "compare"
    refused_page(client.get(f"/duels/{duel}/{view}?{name}={value}"), 400, f"'{name}' must be a whole number")


def test_an_unbounded_number_field_takes_only_what_sqlite_holds():
    field = Field("n", "N", "int")
    assert parse_fields([field], {"n": str(BEYOND_SQLITE - 1)}) == {"n": BEYOND_SQLITE - 1}
    for value in (BEYOND_SQLITE, -BEYOND_SQLITE, str(HUGE), "9" * 5000):
        with pytest.raises(Invalid):
            parse_fields([field], {"n": value})


def test_an_infinite_or_huge_expected_version_is_a_422(client, campaign, alarms):
    body = '{"type": "EditCampaign", "campaign_id": "%s", "name": "x", "ruleset": "rocet", "expected_version": %s}'
    for number in ("Infinity", "1e400", str(HUGE), str(2**64 - 1)):
        response = client.post("/api/commands", data=body % (campaign, number), content_type="application/json")
        assert response.status_code == 422, (number, response.json)


# --- text that is not text ------------------------------------------------------------------------

def test_a_lone_surrogate_in_a_json_command_is_a_422_and_appends_nothing(client, campaign, alarms):
    before = count_events(client.application)
    for body in ('{"type": "CreateCampaign", "name": "\\ud800", "ruleset": "rocet"}',
                 '{"type": "CreateCampaign", "name": "x", "ruleset": "rocet", "\\udfff": 1}',
                 '{"type": "PlanSession", "campaign_id": "%s", "number": 1, "date": "2026-11-29", '
                 '"title": "a\\ud83d"}' % campaign):
        response = client.post("/api/commands", data=body, content_type="application/json")
        refused_json(response, 422, "not valid JSON", "surrogate")
    assert count_events(client.application) == before


def test_a_lone_surrogate_in_a_field_is_refused_whichever_way_it_came(service):
    """The one field parser every route shares, so the command line's undecodable arguments too."""
    with pytest.raises(Invalid) as refused:
        service.handle({"type": "CreateCampaign", "name": "Season \udcff", "ruleset": "rocet"})
    assert "not valid text" in refused.value.errors["name"]


def test_a_lone_surrogate_from_the_command_line_is_refused(runner):
    # Python hands undecodable command-line bytes over as lone surrogates (surrogateescape).
    result = runner.invoke(args=["create-gm", "newgm", "--password", "password \udcff\udcfe"])
    assert result.exit_code == 1 and "not valid text" in result.output, result.output


def test_a_lone_surrogate_in_a_form_field_never_reaches_the_log(client, app, alarms):
    """Over HTTP a form field cannot hold a lone surrogate: werkzeug keeps the bytes of one
    percent-encoded, or drops a body it cannot decode. Either way the answer is not a 500."""
    for body in (b"name=%ED%A0%80&ruleset=rocet", b"name=\xed\xa0\x80&ruleset=rocet", b"name=\xff&ruleset=rocet"):
        response = client.post("/campaigns", data=body, content_type="application/x-www-form-urlencoded")
        assert response.status_code in (302, 422), response.status_code
    names = [row["name"] for row in client.get("/api/campaigns").json["campaigns"]]
    assert all(name.encode("utf-8") for name in names)


def test_non_bmp_text_is_kept_whole(client, campaign, alarms):
    name = "Temporada 🤺 𝔇𝔲𝔢𝔩𝔬"
    response = client.post("/api/commands", json={"type": "CreateCampaign", "name": name, "ruleset": "rocet"})
    assert response.status_code == 201
    assert name in client.get(f"/campaigns/{response.json['id']}").text
    form = client.post("/campaigns", data={"name": name, "ruleset": "rocet"})
    assert form.status_code == 302 and name in client.get(form.headers["Location"]).text
    assert client.get(f"/campaigns/{campaign}/log?subject=🤺&type=𝔇").status_code == 200


@pytest.mark.parametrize("path", ["/campaigns/{c}/log?subject=%ED%A0%80", "/campaigns/%ED%A0%80",
                                  "/api/campaigns/%ED%A0%80", "/campaigns/{c}/history?character=%ED%A0%80"])
def test_a_percent_encoded_lone_surrogate_in_an_address_is_not_a_500(client, campaign, alarms, path):
    assert client.get(path.format(c=campaign)).status_code in (200, 404)


def test_a_query_string_of_raw_bytes_that_are_not_utf8_is_a_400(client, anonymous, campaign, alarms):
    raw = {"QUERY_STRING": b"character=\xff\xed\xa0\x80".decode("latin-1")}  # as a WSGI server hands it on
    refused_page(client.get(f"/campaigns/{campaign}/history", environ_overrides=raw), 400, "not UTF-8")
    refused_json(client.get(f"/api/campaigns/{campaign}/log", environ_overrides=raw), 400, "not UTF-8")
    refused_page(anonymous.get(f"/campaigns/{campaign}/log", environ_overrides=raw), 400, "not UTF-8")


# --- JSON that is not a command ------------------------------------------------------------------

@pytest.mark.parametrize("depth", [100_000, 1_025, 65])
def test_deeply_nested_json_is_a_422(client, alarms, depth):
    before = count_events(client.application)
    for body in ("[" * depth + "]" * depth,
                 '{"type": "CreateCampaign", "name": "x", "ruleset": "rocet", "notes": %s}'
                 % ('{"a":' * depth + "1" + "}" * depth)):
        response = client.post("/api/commands", data=body, content_type="application/json")
        assert response.status_code == 422, response.text[:200]
        assert "body" in response.json["errors"] and response.json["message"]
    assert count_events(client.application) == before


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_and_infinity_are_not_json(client, campaign, alarms, number):
    body = '{"type": "PlanSession", "campaign_id": "%s", "number": %s, "date": "2026-11-29", "title": "x"}'
    refused_json(client.post("/api/commands", data=body % (campaign, number), content_type="application/json"),
                 422, "not valid JSON")


@pytest.mark.parametrize("number", ["1.5", "1e30", str(HUGE), str(2**64 - 1), str(-BEYOND_SQLITE - 1)])
def test_a_float_or_huge_int_where_a_whole_number_goes_is_a_422(client, campaign, alarms, number):
    body = '{"type": "PlanSession", "campaign_id": "%s", "number": %s, "date": "2026-11-29", "title": "x"}'
    response = client.post("/api/commands", data=body % (campaign, number), content_type="application/json")
    assert response.status_code == 422 and "number" in response.json["errors"], response.json


def test_a_huge_int_anywhere_in_a_command_is_not_a_500(client, campaign, alarms):
    body = '{"type": "CreateCampaign", "name": "x", "ruleset": "rocet", "extra": [%s]}'
    # Read as a float, so it never reaches SQLite or orjson as an integer beyond 64 bits; a field the
    # command does not take is refused by its name (issue 28), never a 500.
    answer = client.post("/api/commands", data=body % ("9" * 30), content_type="application/json")
    assert answer.status_code == 422 and list(answer.json["errors"]) == ["extra"], answer.json
    refused_json(client.post("/api/commands", data=body % ("9" * 400), content_type="application/json"),
                 422, "infinity")


def test_an_imported_line_nested_too_deep_is_refused_with_its_line(client, alarms):
    nested = "[" * 300 + "]" * 300
    line = ('{"position":1,"stream":"campaign-x","version":1,"type":"CampaignCreated","schema":1,'
            '"data":{"campaign_id":"x","name":"n","ruleset":"rocet","notes":%s},"metadata":{},"hash":"0"}\n' % nested)
    response = client.post("/import", data={"log": (io.BytesIO(line.encode()), "b.jsonl")},
                           content_type="multipart/form-data")
    refused_page(response, 422, "ine 1", "nests deeper than 64 levels", "Nothing was imported.")


# --- errors werkzeug raises speak our language ------------------------------------------------

def test_the_api_answers_its_own_404_and_405_in_json(client, alarms):
    refused_json(client.get("/api/nowhere"), 404, "nothing at this address")
    response = client.get("/api/commands")
    refused_json(response, 405, "does not take that kind of request")
    assert "POST" in response.headers["Allow"]


def test_a_page_404_is_the_error_page(client, alarms):
    refused_page(client.get("/nowhere"), 404, "Not found", "Back to the campaigns")


def test_the_safety_net_answers_400_and_logs_the_missed_check(app, caplog):
    def overflow():
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    app.add_url_rule("/overflow", view_func=overflow)
    app.add_url_rule("/api/overflow", view_func=overflow)
    client = logged_in(app)
    with caplog.at_level(logging.ERROR):
        refused_page(client.get("/overflow"), 400, "cannot handle")
        refused_json(client.get("/api/overflow"), 400, "cannot handle")
    assert [r for r in caplog.records if "unchecked" in r.getMessage() and r.exc_info]


def test_the_body_json_helper_is_used_for_every_api_command(client, alarms):
    """A body without a JSON content type is still a 422 saying what to send, as before."""
    response = client.post("/api/commands", data=json.dumps({"type": "x"}), content_type="text/plain")
    assert response.status_code == 422 and "JSON object" in response.json["errors"]["body"]
