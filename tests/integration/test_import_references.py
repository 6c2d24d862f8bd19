"""An imported file may only refer to what it holds: a hand-edited backup that names another
GM's campaign, session, character or duelist is refused whole, with its line (issue 10, finding 2)."""
import dataclasses
import io
import json

import pytest

from tests.conftest import GM_ID, count_events, logged_in, register_gm
from tracker.backup import references
from tracker.backup import BadLog, Check, chain
from tracker.bootstrap.db import open_db
from tracker.domain.events import EVENT_TYPES
from tracker import bootstrap

# Its tests share one module-wide fixture (costly to build): under xdist they run on one worker.
pytestmark = pytest.mark.xdist_group("import-references")

VICTIM = "victim"


def service_for(app, actor):
    db = open_db(app.config["DATABASE"])
    return db, bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=actor))


def small_campaign(service, name):
    campaign = service.handle({"type": "CreateCampaign", "name": name, "ruleset": "coin"}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Dawn"}).key
    a, b = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": who, "rank": "pj",
                            "stats": {"coin": {"hp": 10}}}).key for who in ("Inés", "Lope"))
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "coin", "hits": 3,
                           "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}]}).key
    return {"campaign": campaign, "session": session, "character": a, "duel": duel}


@pytest.fixture
def world(app):
    """Two GMs, each with a small campaign; the logged-in client is the other GM's attacker."""
    register_gm(app, VICTIM, "victim")
    db, service = service_for(app, VICTIM)
    victim = small_campaign(service, "The victim's")
    db.close()
    db, service = service_for(app, GM_ID)
    mine = small_campaign(service, "Mine")
    service.handle({"type": "IssuePlayerLink", "kind": "recap", "target": mine["session"]})
    db.close()
    return {"victim": victim, "mine": mine}


def rechained(items):
    """The lines of a forged file whose chain was recomputed, as anyone can."""
    out, digest = [], ""
    for item in items:
        item = {k: v for k, v in item.items() if k != "hash"}
        digest = chain(digest, item)
        out.append(json.dumps({**item, "hash": digest}))
    out.append(json.dumps({"format": "touche-log/2", "events": len(items), "hash": digest}))
    return "\n".join(out) + "\n"


def upload(client, text):
    return client.post("/import", data={"log": (io.BytesIO(text.encode()), "b.jsonl")},
                       content_type="multipart/form-data")


def exported(client, campaign):
    return [json.loads(line) for line in client.get(f"/campaigns/{campaign}/backup.jsonl").text.splitlines()[:-1]]


def plant_character(items, victim):
    last = items[-1]
    planted = {"position": last["position"] + 1, "stream": "character-planted", "version": 1,
               "type": "CharacterCreated", "schema": 2, "metadata": dict(last["metadata"]),
               "data": {"character_id": "planted", "campaign_id": victim["campaign"], "name": "Mole",
                        "rank": "pj", "player": "", "notes": "", "stats": {}}}
    return items + [planted], len(items) + 1


def edit(kind, change):
    def forge(items, victim):
        index = next(i for i, item in enumerate(items) if item["type"] == kind)
        change(items[index]["data"], victim)
        return items, index + 1
    return forge


FORGERIES = {
    "a character planted in their campaign": plant_character,
    "a duel in their session": edit("DuelStarted", lambda d, v: d.update(session_id=v["session"])),
    "a wound on their character": edit("DuelStarted", lambda d, v: d["duelists"][0].update(id=v["character"])),
    "a player link to their session": edit("PlayerLinkIssued", lambda d, v: d.update(target=v["session"])),
    "a campaign that claims their id": edit("CampaignCreated", lambda d, v: d.update(campaign_id=v["campaign"])),
}


def test_an_event_filed_under_a_campaign_the_file_does_not_hold_is_refused():
    lines = minimal_duel_log("pf2e", "Pf2eFocusChanged", {"duelist": "a", "tradition": "arcane"})
    items = [json.loads(line) for line in lines[:-1]]
    items[3]["metadata"]["campaign_id"] = "theirs"
    with pytest.raises(BadLog, match="line 4: its metadata puts it in campaign 'theirs'"):
        list(Check().lines(rechained(items).splitlines()))


def test_a_campaign_id_that_is_no_string_is_refused_with_its_line():
    lines = minimal_duel_log("pf2e", "Pf2eFocusChanged", {"duelist": "a", "tradition": "arcane"})
    items = [json.loads(line) for line in lines[:-1]]
    items[3]["metadata"]["campaign_id"] = ["c"]  # could not even be looked up: it crashed the import
    with pytest.raises(BadLog, match=r"line 4: its metadata puts it in campaign \['c'\]"):
        list(Check().lines(rechained(items).splitlines()))


@pytest.mark.parametrize("field, value, words", [
    ("position", True, "line 1: position True is out of order"),
    ("version", 1.0, "line 1: campaign-c jumps to version 1.0; expected 1"),
    ("schema", True, "line 1: unknown schema True for CampaignCreated"),
])
def test_a_whole_number_must_be_an_int_not_a_bool_or_a_float(field, value, words):
    lines = minimal_duel_log("pf2e", "Pf2eFocusChanged", {"duelist": "a", "tradition": "arcane"})
    items = [json.loads(line) for line in lines[:-1]]
    items[0][field] = value
    with pytest.raises(BadLog, match=words):
        list(Check().lines(rechained(items).splitlines()))


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_file_naming_another_campaign_is_refused_with_its_line(app, client, world, forgery):
    items, line = FORGERIES[forgery](exported(client, world["mine"]["campaign"]), world["victim"])
    before = count_events(app)
    response = upload(client, rechained(items))
    assert response.status_code == 422, response.text
    assert f"Line {line}:" in response.text and "refers to" in response.text
    assert "Nothing was imported." in response.text
    assert count_events(app) == before


def test_the_untouched_file_still_imports_and_stays_inside_the_copy(app, client, world):
    response = upload(client, rechained(exported(client, world["mine"]["campaign"])))  # unsigned: still fine
    assert response.status_code == 302
    db = open_db(app.config["DATABASE"])
    victim_rows = db.execute("SELECT COUNT(*) FROM characters WHERE campaign_id = ?",
                             [world["victim"]["campaign"]]).fetchone()[0]
    db.close()
    assert victim_rows == 2


def test_a_shared_campaign_imports_unshared_and_its_versions_close_up(app, client, world):
    db, service = service_for(app, GM_ID)
    mine = world["mine"]["campaign"]
    service.handle({"type": "ShareCampaign", "campaign_id": mine, "username": "victim"})
    edit_event = service.handle({"type": "EditCampaign", "campaign_id": mine, "name": "Renamed", "ruleset": "coin",
                                 "expected_version": service.version(f"campaign-{mine}")}).events[0]
    service.handle({"type": "RetractEvent", "position": edit_event.position,
                    "expected_version": service.version(f"campaign-{mine}")})
    db.close()
    response = upload(client, client.get(f"/campaigns/{mine}/backup.jsonl").text)
    assert response.status_code == 302, response.text
    copy = response.headers["Location"].rsplit("/", 1)[1]
    db = open_db(app.config["DATABASE"])
    shared = db.execute("SELECT gm_id FROM campaign_access WHERE campaign_id = ?", [copy]).fetchall()
    types = [r[0] for r in db.execute("SELECT type FROM events WHERE stream = ? ORDER BY version",
                                      [f"campaign-{copy}"])]
    db.close()
    assert shared == [(GM_ID,)]
    assert "CoGMAdded" not in types and types[-1] == "EventRetracted"
    assert client.get(f"/api/campaigns/{copy}").get_json()["campaign"]["name"] == "Mine"  # the retraction held


def minimal_duel_log(ruleset, extra_type, extra_data):
    """A synthetic file: a campaign, a session, two characters, a duel, and one more duel event."""
    def item(position, stream, version, kind, data):
        return {"position": position, "stream": stream, "version": version, "type": kind,
                "schema": EVENT_TYPES[kind].SCHEMA, "data": data, "metadata": {"campaign_id": "c"}}
    items = [
        item(1, "campaign-c", 1, "CampaignCreated", {"campaign_id": "c", "name": "C", "ruleset": ruleset}),
        item(2, "session-s", 1, "SessionPlanned", {"session_id": "s", "campaign_id": "c", "number": 1,
                                                   "date": "2026-11-29", "title": "T"}),
        item(3, "character-a", 1, "CharacterCreated", {"character_id": "a", "campaign_id": "c", "name": "A",
                                                       "rank": "pj"}),
        item(4, "character-b", 1, "CharacterCreated", {"character_id": "b", "campaign_id": "c", "name": "B",
                                                       "rank": "pj"}),
        item(5, "duel-d", 1, "DuelStarted", {"duel_id": "d", "campaign_id": "c", "session_id": "s",
                                             "ruleset": ruleset, "kind": "combat", "settings": {},
                                             "duelists": [{"id": "a", "side": "a"}, {"id": "b", "side": "b"}]}),
        item(6, "duel-d", 2, extra_type, extra_data),
    ]
    return rechained(items).splitlines()


@pytest.mark.parametrize("kind, data", [
    ("Pf2eStrikeRolled", {"attacker": "a", "target": "theirs", "die": 10, "modifier": 5, "total": 15, "ac": 15,
                          "degree": "success"}),
    ("Pf2eRoundOrdered", {"round": 1, "tiers": [["a"], ["theirs"]]}),
    ("Pf2eTagged", {"side": "a", "out": "a", "into": "theirs"}),
    ("Pf2eDamageDealt", {"attacker": "a", "target": "theirs", "source": "Strike", "expression": "", "dice": [],
                         "base": 3, "multiplier": "full", "amount": 3, "hp_after": 1}),
    ("Pf2eVictoryProposed", {"side": "a", "ending": "first_blood", "attacker": "a", "target": "theirs"}),
])
def test_a_pf2e_duelist_must_be_a_character_of_the_file(kind, data):
    with pytest.raises(BadLog, match="line 6: .*refers to 'theirs'"):
        list(Check().lines(minimal_duel_log("pf2e", kind, data)))
    fixed = {k: ([["a"], ["b"]] if k == "tiers" else "b") if v == "theirs" or k == "tiers" else v
             for k, v in data.items()}
    assert len(list(Check().lines(minimal_duel_log("pf2e", kind, fixed)))) == 6


@pytest.fixture(scope="module")
def every_ruleset():
    """A campaign's log with duels of every ruleset played at random (the benchmarks' corpus)."""
    from bench.corpus import template

    return template(duels=10, max_actions=40)


def test_every_id_an_event_holds_is_declared_by_its_type(every_ruleset):
    """Play duels of every ruleset and look for stream keys anywhere in the events' data: each
    must sit where its type declares a reference, or the import would let it through unchecked."""
    items = [json.loads(line) for line in every_ruleset][:-1]
    keys = {item["stream"].split("-", 1)[1] for item in items}
    seen_types = set()
    for item in items:
        seen_types.add(item["type"])
        declared = {**getattr(EVENT_TYPES[item["type"]], "REFERENCES", {}),
                    **getattr(EVENT_TYPES[item["type"]], "DEFINES", {})}
        for path, value in _leaves(item["data"]):
            if value in keys:
                assert path in declared, f"{item['type']}.{path} holds the id {value!r} but does not declare it"
    assert {"DuelStarted", "Pf2eStrikeRolled", "PirateSwordAttacked", "RocetTurnResolved"} <= seen_types


def _leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, path + (k,))
            yield ".".join(path + ("<key>",)), k
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, path + ("*",))
    else:
        yield ".".join(path), value


def test_references_are_walked_and_rewritten_by_their_declared_paths():
    data = {"tiers": [["a", "b"], ["c"]], "round": 1}
    assert [v for _, _, v in references.references("Pf2eRoundOrdered", data)] == ["a", "b", "c"]
    assert references.rewrite("Pf2eRoundOrdered", data, lambda cat, old: cat + ":" + old)["tiers"] == \
        [["character:a", "character:b"], ["character:c"]]


def test_a_copy_of_every_ruleset_keeps_none_of_the_originals_ids(tmp_path, every_ruleset):
    import itertools

    from tracker.backup.campaign_import import import_campaign

    db = open_db(str(tmp_path / "copy.db"))
    counter = itertools.count(1)
    copy, _ = import_campaign(db, every_ruleset, owner="gm", new_id=lambda: f"new{next(counter)}")
    old_keys = {json.loads(line)["stream"].split("-", 1)[1] for line in every_ruleset[:-1]}
    stored = "\n".join(row[0] for row in db.execute("SELECT data FROM events"))
    duels = db.execute("SELECT COUNT(*) FROM duels WHERE campaign_id = ?", [copy]).fetchone()[0]
    db.close()
    assert not [key for key in old_keys if f'"{key}"' in stored]
    assert duels == sum('"type":"DuelStarted"' in line for line in every_ruleset)


# --- the owner is a reference like any other (issue 27) ---------------------------------------

def assign_owner(items, owner):
    """The file with a CampaignOwnerAssigned naming ``owner`` on its campaign's stream."""
    stream = items[0]["stream"]
    version = max(item["version"] for item in items if item["stream"] == stream) + 1
    return items + [{"position": items[-1]["position"] + 1, "stream": stream, "version": version,
                     "type": "CampaignOwnerAssigned", "schema": 1, "metadata": dict(items[0]["metadata"]),
                     "data": {"owner": owner}}]


def owner_and_access(app, campaign):
    db = open_db(app.config["DATABASE"])
    owner = db.execute("SELECT owner FROM campaigns WHERE id = ?", [campaign]).fetchone()[0]
    access = db.execute("SELECT gm_id, role FROM campaign_access WHERE campaign_id = ?", [campaign]).fetchall()
    db.close()
    return owner, sorted(access)


@pytest.mark.parametrize("forge", ["nobody in CampaignCreated", "the victim in CampaignCreated",
                                   "owner left out of CampaignCreated", "the victim assigned after",
                                   "nobody assigned after"])
def test_an_imported_campaign_always_belongs_to_the_importer(app, client, world, forge):
    items = exported(client, world["mine"]["campaign"])
    created = items[0]["data"]
    if forge == "nobody in CampaignCreated":
        created["owner"] = ""
    elif forge == "the victim in CampaignCreated":
        created["owner"] = VICTIM
    elif forge == "owner left out of CampaignCreated":
        del created["owner"]
    else:
        items = assign_owner(items, VICTIM if "victim" in forge else "")
    response = upload(client, rechained(items))
    assert response.status_code == 302, response.text
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert owner_and_access(app, copy) == (GM_ID, [(GM_ID, "owner")])
    victim = logged_in(app, VICTIM)
    assert victim.get(f"/campaigns/{copy}").status_code == 404
    assert copy not in victim.get("/").text


def test_import_log_refuses_an_owner_the_file_does_not_create(tmp_path):
    from tracker import create_app

    lines = minimal_duel_log("pf2e", "Pf2eFocusChanged", {"duelist": "a", "tradition": "arcane"})
    items = assign_owner([json.loads(line) for line in lines[:-1]], "someone-else")
    path = tmp_path / "forged.jsonl"
    path.write_text(rechained(items))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "empty.db"), "SECRET_KEY": "s"})
    result = app.test_cli_runner().invoke(args=["import-log", str(path), "--accept-unsigned"])
    assert result.exit_code != 0
    assert "line 7: CampaignOwnerAssigned refers to 'someone-else' (owner)" in result.output
