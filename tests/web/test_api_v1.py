"""The JSON API v1: duel reads as data (steps, legal actions, assumptions), per audience; the old
paths as aliases; player-link URLs; old field names; following changes; a duel of each ruleset
played through /api/v1 by a client that reads only legal-actions data."""
from __future__ import annotations

import pytest

from tests import api_client
from tracker import rules

pytestmark = pytest.mark.both_backends  # the same tests on SQLite and on PostgreSQL

V1 = "/api/v1"


def send(client, **command):
    response = client.post(f"{V1}/commands", json=command)
    assert response.status_code in (200, 201), response.json
    return response.json


def duel_of(client, ruleset, setup=None, kind_of_sample=0):
    """A campaign, the ruleset's two sample duellists, a session and a duel between them."""
    module = rules.get(ruleset)
    campaign = send(client, type="CreateCampaign", name="Season", ruleset=ruleset)["id"]
    ids = [send(client, type="CreateCharacter", campaign_id=campaign, **sheet)["id"] for sheet in module.samples.DUELISTS]
    session = send(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-30", title="Dawn")["id"]
    return send(client, type="StartDuel", session_id=session, ruleset=ruleset,
                duelists=[{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                setup=setup or module.samples.SETUPS[kind_of_sample])["id"]


def described(client, name):
    """A validator of the OpenAPI description's schema ``name``."""
    from jsonschema import Draft202012Validator

    components = client.get(f"{V1}/openapi.json").json["components"]
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": components})


@pytest.mark.parametrize("ruleset", [m.NAME for m in rules.shipped()])
def test_a_client_plays_a_duel_of_each_ruleset_from_legal_actions_alone(client, ruleset):
    duel = duel_of(client, ruleset)
    sent, schema = [], described(client, "DuelRead")

    def post(command):
        sent.append(command["type"])
        send(client, **command)

    def read():
        answer = client.get(f"{V1}/duels/{duel}").json
        schema.validate(answer)  # every read as the OpenAPI description says
        return answer

    final = api_client.play(read, post)
    assert final["status"] == "over" and final["state"]["outcome"]["winner"] in ("a", "b")
    assert final["steps"][-1]["event"] == "DuelWon"
    assert not set(sent) & api_client.ENDINGS  # won by the rules, not by a yield


def test_a_client_rolling_its_own_dice_types_them_and_rerolls_each_tie_as_offered(client):
    import itertools

    # Each turn ties at 2+2 against 2+2, then the reroll's 2+1 beats a fumble.
    faces, sent = itertools.cycle([2, 2, 2, 2, 2, 1, 1, 1]), []
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"})

    def post(command):
        sent.append(command["type"])
        send(client, **command)

    final = api_client.play(lambda: client.get(f"{V1}/duels/{duel}").json, post, roll=lambda n: next(faces))
    assert final["status"] == "over" and final["state"]["outcome"]["ending"] == "clock"
    # A read carries its latest versions' steps; every step since the start is steps_since=0.
    whole = client.get(f"{V1}/duels/{duel}?steps_since=0").json
    ties = [s for s in whole["steps"] if s["event"] == "RocetTurnTied"]
    assert len(ties) == sent.count("PlayTurn") == sent.count("RerollTie") == 3


def test_a_rocet_read_carries_each_turns_numbers_the_legal_actions_and_the_assumptions(client):
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"})
    read = client.get(f"{V1}/duels/{duel}").json
    play = next(a for a in read["legal_actions"] if a["type"] == "PlayTurn")
    assert play["by"] == "gm" and "Finta" in play["fields"]["card_a"]["choices"]
    assert play["fields"]["dice_a"]["dice"] == [10, 8] and play["fields"]["dice_b"]["dice"] == [8, 8]
    assert any("tie is rerolled" in line for line in read["assumptions"])
    send(client, type="PlayTurn", duel_id=duel, expected_version=read["version"], card_a="Finta", card_b="Treta",
         dice_a=[3, 3], dice_b=[4, 3])
    read = client.get(f"{V1}/duels/{duel}").json
    turn = next(s for s in read["steps"] if s["event"] == "RocetTurnResolved")
    assert turn["ventaja"] == "a" and turn["winner"] == "a" and turn["ta"] == 3
    assert turn["rolls"] == [{"a": {"dice": [3, 3], "bonus": 4, "total": 10, "mark": ""},
                              "b": {"dice": [4, 3], "bonus": 0, "total": 7, "mark": ""}, "result": "a"}]
    assert turn["clocks"] == {"a": 1, "b": 0} and turn["discard_owed"] is True
    (discard,) = [a for a in read["legal_actions"] if a["type"] == "Discard"]
    assert discard["side"] == "b" and discard["fields"]["side"]["choices"] == ["b"]


def test_a_tie_sent_alone_shows_as_a_step_and_the_reroll_as_the_only_action(client):
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"})
    version = client.get(f"{V1}/duels/{duel}").json["version"]
    send(client, type="PlayTurn", duel_id=duel, expected_version=version, card_a="Finta", card_b="Finta",
         dice_a=[6, 6], dice_b=[6, 6])
    read = client.get(f"{V1}/duels/{duel}").json
    assert read["steps"][-1]["event"] == "RocetTurnTied" and read["steps"][-1]["rolls"][0]["a"]["mark"] == "critical"
    assert [a["type"] for a in read["legal_actions"] if a["type"] not in api_client.ENDINGS] == ["RerollTie"]


def test_pirate_and_pf2e_steps_carry_their_numbers(client):
    pirate = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    version = client.get(f"{V1}/duels/{pirate}").json["version"]
    send(client, type="RollInitiative", duel_id=pirate, expected_version=version, dice_a=[15], dice_b=[2])
    read = client.get(f"{V1}/duels/{pirate}").json
    attack = next(a for a in read["legal_actions"] if a["type"] == "Attack")
    assert attack["side"] == "a" and attack["fields"]["side"]["choices"] == ["a"]
    send(client, type="Attack", duel_id=pirate, expected_version=read["version"], side="a", ventaja=True,
         dice_a=[4, 17, 6])
    step = next(s for s in client.get(f"{V1}/duels/{pirate}").json["steps"] if s["event"] == "PirateSwordAttacked")
    assert (step["d20s"], step["d20"], step["edge"], step["total"], step["hit"], step["damage"]) == \
        ([4, 17], 17, "ventaja", 22, True, 6)

    pf2e = duel_of(client, "pf2e")
    read = client.get(f"{V1}/duels/{pf2e}").json
    ids = [d["id"] for d in read["state"]["duelists"]]
    roll = next(a for a in read["legal_actions"] if a["type"] == "RollInitiative")
    assert roll["fields"]["duelist"]["choices"] == ids
    send(client, type="RollInitiative", duel_id=pf2e, expected_version=read["version"], duelist=ids[0],
         skill="intimidation", dice_roll=[15])
    send(client, type="RollInitiative", duel_id=pf2e, expected_version=read["version"] + 1, duelist=ids[1],
         skill="deception", dice_roll=[2])
    read = client.get(f"{V1}/duels/{pf2e}").json
    send(client, type="Strike", duel_id=pf2e, expected_version=read["version"], dice_attack=[15], damage=7)
    strike = next(s for s in client.get(f"{V1}/duels/{pf2e}").json["steps"] if s["event"] == "Pf2eStrikeRolled")
    assert (strike["die"], strike["total"], strike["ac"], strike["degree"]) == (15, 28, 21, "success")


def test_the_table_display_read_keeps_the_secrets_and_offers_nothing(client, anonymous):
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"})
    gm = client.get(f"{V1}/duels/{duel}").json
    assert len(gm["state"]["sides"]["a"]["hand"]) == 3
    link = send(client, type="IssuePlayerLink", link_kind="display", target=duel)
    token = link["url"].rsplit("/", 2)[-2]
    assert link["url"] == f"http://localhost/play/{token}/display"
    table = anonymous.get(f"{V1}/display/{token}").json
    assert table["audience"] == "table" and table["legal_actions"] == []
    assert "hand" not in table["state"]["sides"]["a"] and "pile" not in table["state"]["decks"]["shared"]
    assert anonymous.get(f"{V1}/display/not-a-token").status_code == 404
    assert anonymous.get(f"{V1}/duels/{duel}").status_code == 401


def test_pf2e_initiative_skills_stay_secret_from_the_table(client, anonymous):
    duel = duel_of(client, "pf2e")
    read = client.get(f"{V1}/duels/{duel}").json
    first = read["state"]["duelists"][0]["id"]
    send(client, type="RollInitiative", duel_id=duel, expected_version=read["version"], duelist=first,
         skill="deception", dice_roll=[9])
    assert client.get(f"{V1}/duels/{duel}").json["steps"][-1]["skill"] == "deception"
    token = send(client, type="IssuePlayerLink", link_kind="display", target=duel)["url"].rsplit("/", 2)[-2]
    table = anonymous.get(f"{V1}/display/{token}").json
    assert table["state"]["rolls"] == {first: {"total": 20}}
    assert "deception" not in str(table["steps"]) + str(table["state"]["history"]) and table["steps"][-1] == {
        "at": table["steps"][-1]["at"], "event": "Pf2eInitiativeRolled", "round": 1, "duelist": first, "total": 20}


def test_old_paths_and_old_field_names_still_work(client):
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"})
    old = client.get(f"/api/duels/{duel}")
    assert old.status_code == 200 and old.json == client.get(f"{V1}/duels/{duel}").json
    assert old.headers["Link"] == f'<{V1}/duels/{duel}>; rel="successor-version"'
    link = client.post("/api/commands", json={"type": "IssuePlayerLink", "kind": "display", "target": duel})
    assert link.status_code == 201 and link.json["events"][0]["data"]["link_kind"] == "display" and link.json["url"]
    version = old.json["version"]
    send(client, type="PlayTurn", duel_id=duel, expected_version=version, card_a="Estocada Alta",
         card_b="Finta", dice_a=[5, 5], dice_b=[1, 2])
    dealt = send(client, type="DealDamage", duel_id=duel, expected_version=version + 4, kind="attack")
    assert dealt["events"][0]["data"]["source"] == "attack"


def test_following_a_duel_and_a_campaign_answers_what_changed_since(client):
    duel = duel_of(client, "pirate", {"kind": "sword", "sword_victory": "first_blood"})
    send(client, type="RollInitiative", duel_id=duel, expected_version=1, dice_a=[14], dice_b=[9])  # A first
    read = client.get(f"{V1}/duels/{duel}").json
    unchanged = client.get(f"{V1}/duels/{duel}/changes?since={read['version']}&wait=0").json
    assert unchanged == {"changed": False, "version": read["version"], "duel": None}
    changed = client.get(f"{V1}/duels/{duel}/changes?since={read['version'] - 1}").json
    assert changed["changed"] and changed["duel"]["version"] == read["version"]
    campaign = read["campaign_id"]
    position = client.get(f"{V1}/campaigns/{campaign}").json["position"]
    assert client.get(f"{V1}/campaigns/{campaign}/changes?since={position}").json["changed"] is False
    send(client, type="Attack", duel_id=duel, expected_version=read["version"], side="a", dice_a=[15, 3])
    news = client.get(f"{V1}/campaigns/{campaign}/changes?since={position}").json
    assert news["changed"] and [e["type"] for e in news["entries"]] == ["PirateSwordAttacked", "DuelWon"]
    assert news["position"] == news["entries"][-1]["position"]
    assert client.get(f"{V1}/duels/{duel}/changes?wait=31").status_code == 400
