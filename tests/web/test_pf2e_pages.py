"""The Pathfinder 2e duel page through Flask's test client: combat, spellcasting and mixed duels
played with typed dice, refusals next to their field, the htmx fragment, the secret initiative
skill kept off the players' view and the log, a duel of pairs through the JSON API, and a
retraction anywhere in a duel."""
import json
import re

import pytest
from flask import render_template

from tests.conftest import fixed_context
from tracker.bootstrap.db import get_db, open_db
from tracker.projections import engine, queries, schema
from tracker.projections.rebuild import rebuild
from tracker.rules import pf2e
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import Dice
from tracker.rules.fields import parse_command
from tracker.rules.pf2e.sheet import SKILLS
from tracker import bootstrap
from tests.conftest import count_events, text_of, redirect_key as key

FIGHTER = dict(level=3, hp_max=40, ac=20, attack_bonus=10, weapon="Longsword", damage="1d8+4",
               deception=7, deception_rank="trained", intimidation=9, intimidation_rank="expert",
               perception=8, perception_rank="trained")
DUELIST = dict(level=3, hp_max=38, ac=19, attack_bonus=9, weapon="Rapier", damage="1d6+4",
               deception=10, deception_rank="expert", intimidation=6, intimidation_rank="trained",
               perception=7, perception_rank="trained")
WIZARD = dict(level=3, hp_max=30, ac=17, attack_bonus=6, weapon="Staff", damage="1d4", arcana=10,
              arcana_rank="expert", occultism=6, occultism_rank="trained", perception=7, perception_rank="trained",
              spell_dc=20, spell_slots="1:3, 2:2")
SORCERER = dict(level=3, hp_max=28, ac=16, attack_bonus=5, weapon="Dagger", damage="1d4", arcana=9,
                arcana_rank="trained", nature=8, nature_rank="trained", deception=7, deception_rank="trained",
                perception=6, spell_dc=20, spell_slots="1:2, 2:2")


@pytest.fixture
def table(client):
    """A PF2e campaign with four characters and a session to duel in."""
    campaign = key(client.post("/campaigns", data={"name": "Absalom Nights", "ruleset": "pf2e"}))
    ids = {}
    for name, rank, block in (("Seelah", "pj", FIGHTER), ("Baron Vex", "villano", DUELIST),
                              ("Ezren", "pj", WIZARD), ("Seoni", "villano", SORCERER)):
        form = {"name": name, "rank": rank, **{f"pf2e.{k}": str(v) for k, v in block.items()}}
        ids[name] = key(client.post(f"/campaigns/{campaign}/characters", data=form))
    session = key(client.post(f"/campaigns/{campaign}/sessions",
                              data={"number": "1", "date": "2026-11-29", "title": "The Grand Bazaar"}))
    return {"campaign": campaign, "session": session, **ids}


def start(client, table, a, b, **terms):
    data = {"ruleset": "pf2e", "side_a": table[a], "side_b": table[b], "stakes": "a seat on the council",
            "judge": "Magistrate Ilse", "challenger": "a", "victory": "knockout", **terms}
    return key(client.post(f"/sessions/{table['session']}/duels", data=data))


class Play:
    """Posts the duel page's forms as the GM would, each at the version the page showed."""

    def __init__(self, client, duel):
        self.client, self.duel = client, duel

    def version(self) -> int:
        return int(re.search(r'name="expected_version" value="(\d+)"', self.page()).group(1))

    def page(self) -> str:
        return self.client.get(f"/duels/{self.duel}").text

    def do(self, command, htmx=False, status=302, **form):
        headers = {"HX-Request": "true"} if htmx else {}
        data = {"expected_version": str(self.version()), **{k: str(v) for k, v in form.items()}}
        response = self.client.post(f"/duels/{self.duel}/do/{command}", data=data, headers=headers)
        assert response.status_code == (200 if htmx and status == 302 else status), response.text
        return response

    def text(self) -> str:
        return text_of(self.page())


def log_lines(app, campaign):
    with app.app_context():
        return [str(e["summary"]) for e in queries.log_page(get_db(), campaign, category="duel")["entries"]]


def test_a_combat_round_through_the_page(app, client, table):
    duel = start(client, table, "Seelah", "Baron Vex", kind="combat")
    play = Play(client, duel)
    page = play.page()
    assert page.count('action="/duels/%s/do/RollInitiative"' % duel) == 3  # everyone, or one by one
    assert "Roll initiative for everyone" in page
    assert "Intimidation +9" in text_of(page) and "expert → Bullying Press" in text_of(page)

    play.do("RollInitiative", duelist=table["Seelah"], skill="intimidation", dice_roll=12)   # 21
    play.do("RollInitiative", duelist=table["Baron Vex"], skill="deception", dice_roll=5)    # 15
    text = play.text()
    assert "Round 1 · Seelah’s turn" in text
    assert "Seelah 21 Intimidation" in text and "Baron Vex 15 Deception" in text  # the GM sees the skills
    assert "Bullying Press: available" in text and "Deceptive Sidestep: available" in text

    before = count_events(app)
    refused = play.do("Strike", status=422, reaction="bullying_press", dice_attack=25)
    assert 'id="e-Strike-dice_attack">a d20 cannot show 25' in refused.text
    assert re.search(r'value="bullying_press" checked', refused.text)  # the GM's choice is kept
    assert count_events(app) == before

    play.do("Strike", reaction="bullying_press", dice_attack=12, server_roll="true")  # 22 vs AC 19: a hit
    text = play.text()
    assert "Baron Vex may use Deceptive Sidestep against Seelah's hit (22 against AC 19)" in text
    assert "Strike" not in re.findall(r"do/(\w+)", play.page())
    play.do("DeceptiveSidestep", dice_attack=11, dice_damage=5)  # 11 + 10 − 2 = 19: still a hit, 9 damage
    text = play.text()
    assert "HP 29/38" in text and "Frightened 1" in text
    assert "Bullying Press: used" in text and "Deceptive Sidestep: used" in text

    fragment = play.do("EndTurn", htmx=True)
    assert fragment.text.lstrip().startswith('<div id="duel"') and "<html" not in fragment.text
    assert "Baron Vex’s turn" in text_of(fragment.text)
    page = client.get(f"/duels/{duel}").text
    assert "<html" in page and '<div id="duel"' in page

    play.do("Strike", dice_attack=15, dice_damage=4)  # 15 + 9 − frightened 1 = 23 vs AC 20: 8 damage
    assert "HP 32/40" in play.text()
    play.do("EndTurn")
    text = play.text()
    assert "Round 2 · initiative" in text and "Frightened 1" not in text

    lines = " ".join(log_lines(app, table["campaign"]))
    assert "Round 1 initiative: Seelah 21, Baron Vex 15." in lines
    assert not any(skill in lines.lower() for skill in SKILLS)


def test_the_fragment_is_what_htmx_swaps(client, table):
    duel = start(client, table, "Seelah", "Baron Vex", kind="combat")
    play = Play(client, duel)
    fragment = play.do("RollInitiative", htmx=True, duelist=table["Seelah"], skill="perception", dice_roll=10)
    assert fragment.text.lstrip().startswith('<div id="duel"') and "<html" not in fragment.text
    assert 'hx-target="#duel"' in fragment.text and 'hx-swap="outerHTML"' in fragment.text
    stale = client.post(f"/duels/{duel}/do/EndTurn", data={"expected_version": "1"}, headers={"HX-Request": "true"})
    assert stale.status_code == 409 and "changed since you opened it" in stale.text


def test_a_spellcasting_duel_with_a_dueling_counter(app, client, table):
    duel = start(client, table, "Ezren", "Seoni", kind="spellcasting")
    play = Play(client, duel)
    text = play.text()
    assert "Arcana +10 expert → Dueling Counter, arcane focus" in text and "Deception" not in text

    play.do("RollInitiative", duelist=table["Ezren"], skill="arcana", dice_roll=12)  # 22
    play.do("RollInitiative", duelist=table["Seoni"], skill="arcana", dice_roll=5)   # 14
    actions = set(re.findall(r"do/(\w+)", play.page()))
    assert "CastSpell" in actions and "Strike" not in actions and "ActSecond" not in actions
    assert "Focus arcane" in play.text()

    play.do("CastSpell", spell="Force Barrage", rank=1, tradition="arcane", damage_expr="1d4+1")
    text = play.text()
    assert "Dueling Counter by Seoni?" in text and "waiting for a counter" in text
    refused = play.do("DuelingCounter", status=422, duelist=table["Seoni"], slot_rank=3, dice_check=15)
    assert 'id="e-DuelingCounter-%s-slot_rank">Seoni has no rank-3 slot left' % table["Seoni"] in refused.text
    play.do("DuelingCounter", duelist=table["Seoni"], slot_rank=2, dice_check=15)  # 24 vs DC 20: countered
    text = play.text()
    assert "Force Barrage 1 arcane countered" in text
    assert "rank 1: 2 left, 1 expended" in text and "rank 2: 1 left, 1 expended" in text
    assert "HP 28/28" in text

    play.do("EndTurn")
    play.do("CastSpell", spell="Electric Arc", rank=2, tradition="arcane", cantrip="true", damage_expr="2d4")
    play.do("DeclineCounter", dice_damage="3 4")
    text = play.text()
    assert "HP 23/30" in text and "Electric Arc 2 (cantrip) arcane cast" in text
    assert "No Dueling Counter: Electric Arc takes effect." in text


def test_a_mixed_duel_strikes_casts_and_changes_focus(client, table):
    duel = start(client, table, "Seelah", "Ezren", kind="mixed")
    play = Play(client, duel)
    play.do("RollInitiative", duelist=table["Seelah"], skill="perception", dice_roll=15)  # 23
    play.do("RollInitiative", duelist=table["Ezren"], skill="arcana", dice_roll=10)       # 20
    assert "Sense Weakness" in play.text()
    play.do("Strike", reaction="sense_weakness", dice_attack=9, dice_damage=5)  # 19 vs AC 17 − 2: 9 damage
    assert "HP 21/30" in play.text()
    play.do("EndTurn")
    actions = re.findall(r"do/(\w+)", play.page())
    assert {"Strike", "CastSpell", "ChangeTraditionFocus", "EndTurn"} <= set(actions)
    play.do("ChangeTraditionFocus", tradition="occult")
    assert "Focus occult" in play.text()
    play.do("CastSpell", spell="Daze", rank=1, tradition="occult", cantrip="true", damage_expr="1d6",
            dice_damage=4, effect="half")
    assert "HP 38/40" in play.text()


def test_the_players_view_never_shows_the_initiative_skill(app, client, table):
    duel = start(client, table, "Seelah", "Baron Vex", kind="mixed")
    play = Play(client, duel)
    play.do("RollInitiative", duelist=table["Seelah"], skill="perception", dice_roll=15)
    play.do("RollInitiative", duelist=table["Baron Vex"], skill="deception", dice_roll=10)
    play.do("Strike", reaction="sense_weakness", dice_attack=9)  # Vex could still Sidestep: secret too
    with app.test_request_context():
        row = queries.duel(get_db(), duel)
        view = pf2e.public(row["state"])
        shown = render_template("duels/pf2e/_state.html", duel=row, state=view, ruleset=pf2e, public_view=True)
        gm = render_template("duels/pf2e/_state.html", duel=row, state=row["state"], ruleset=pf2e)
    assert "Perception" in gm and "Deceptive Sidestep" in gm
    assert not any(skill in shown.lower() for skill in SKILLS)
    assert "Sidestep" not in shown and "<form" not in shown and "HP 38/38" in text_of(shown)
    visible = {k: v for k, v in view.items() if k != "duelists"}
    visible["duelists"] = [{k: v for k, v in d.items() if k != "stats"} for d in view["duelists"]]
    assert not any(skill in json.dumps(visible, default=str).lower() for skill in SKILLS)
    assert not any(skill in line.lower() for line in log_lines(app, table["campaign"]) for skill in SKILLS)


def test_the_set_up_page_s_ticked_boxes_are_read_as_ticked(client, table):
    form = client.get(f"/sessions/{table['session']}/duels/new?ruleset=pf2e").text
    assert re.search(r'name="melee_only" value="false">\s*<input type="checkbox" id="f-melee_only" name="melee_only" '
                     r'value="true" checked', form)
    duel = key(client.post(f"/sessions/{table['session']}/duels",
                           data={"ruleset": "pf2e", "side_a": table["Seelah"], "side_b": table["Baron Vex"],
                                 "melee_only": ["false", "true"], "no_poison": "false", "attack_penalty": ["false"]}))
    with client.application.app_context():
        settings = queries.duel(get_db(), duel)["state"]["settings"]
    assert (settings["melee_only"], settings["no_poison"], settings["attack_penalty"]) == (True, False, False)


def test_the_set_up_form_explains_pairs_and_a_lone_duelist_is_refused_for_them(client, table):
    form = client.get(f"/sessions/{table['session']}/duels/new?ruleset=pf2e").text
    assert form.count('name="side_a"') == 2 and "partner" in form
    response = client.post(f"/sessions/{table['session']}/duels",
                           data={"ruleset": "pf2e", "side_a": table["Seelah"], "side_b": table["Baron Vex"],
                                 "teams": "tag"})
    assert response.status_code == 422 and "needs two duelists on side A" in response.text
    pair = client.post(f"/sessions/{table['session']}/duels",
                       data={"ruleset": "pf2e", "side_a": [table["Seelah"], table["Ezren"]],
                             "side_b": [table["Baron Vex"], table["Seoni"]], "teams": "tag", "kind": "mixed"})
    assert "Seelah & Ezren against Baron Vex & Seoni" in text_of(client.get(f"/duels/{key(pair)}").text)


def api(client, expect=201, **command):
    response = client.post("/api/commands", json=command)
    assert response.status_code == expect, response.json
    return response.json


def test_a_whole_duel_of_pairs_through_the_json_api(client):
    campaign = api(client, type="CreateCampaign", name="Pairs", ruleset="pf2e")["id"]
    ids = [api(client, type="CreateCharacter", campaign_id=campaign, name=name, rank="pj",
               stats={"pf2e": block})["id"]
           for name, block in (("Seelah", FIGHTER), ("Valeros", FIGHTER), ("Vex", DUELIST), ("Kyra", DUELIST))]
    session = api(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-29", title="Pairs")["id"]
    duel = api(client, type="StartDuel", session_id=session, ruleset="pf2e", kind="combat", teams="together",
               victory="first_blood", judge="Magistrate Ilse",
               duelists=[{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "a"},
                         {"character_id": ids[2], "side": "b"}, {"character_id": ids[3], "side": "b"}])["id"]
    version = 1
    for who, skill, die in zip(ids, ("intimidation", "perception", "intimidation", "perception"), (15, 2, 3, 4)):
        version = api(client, type="RollInitiative", duel_id=duel, expected_version=version, duelist=who,
                      skill=skill, dice_roll=[die])["version"]
    state = client.get(f"/api/duels/{duel}").json["state"]
    assert state["order"][0] == ids[0] and state["turn"] == ids[0]
    refused = api(client, expect=422, type="Strike", duel_id=duel, expected_version=version, dice_attack=[12])
    assert refused["errors"] == {"target": "choose a target: there is more than one opponent"}
    version = api(client, type="Strike", duel_id=duel, expected_version=version, target=ids[2],
                  reaction="bullying_press", dice_attack=[12], dice_damage=[6])["version"]
    assert client.get(f"/api/duels/{duel}").json["state"]["proposal"]["ending"] == "first_blood"
    version = api(client, type="ConfirmVictory", duel_id=duel, expected_version=version)["version"]
    row = client.get(f"/api/duels/{duel}").json
    assert row["status"] == "over"
    assert row["state"]["outcome"]["summary"] == "Seelah & Valeros won by first blood (Seelah drew first blood from Vex)"
    assert row["state"]["hp"][ids[2]] == 28
    page = text_of(client.get(f"/duels/{duel}").text)
    assert "Seelah & Valeros won by first blood" in page and "Someone fought on after the end?" in page


# --- retracting any event of a duel ------------------------------------------------------

def snapshot(db):
    return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in schema.TABLES}


def scripted_duel(service):
    """A mixed duel between two PC casters that uses a tie, acting second, a counter, a sidestep,
    a focus change, a yield and an escalation. Returns the duel id."""
    campaign = service.handle({"type": "CreateCampaign", "name": "Retractions", "ruleset": "pf2e"}).key
    ezren, seoni = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                                    "stats": {"pf2e": block}}).key for name, block in (("Ezren", WIZARD),
                                                                                       ("Seoni", SORCERER)))
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Spells"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "mixed",
                           "victory": "knockout", "duelists": [{"character_id": ezren, "side": "a"},
                                                               {"character_id": seoni, "side": "b"}]}).key
    script = [
        ("RollInitiative", dict(duelist=ezren, skill="arcana", dice_roll=[10])),      # 20
        ("RollInitiative", dict(duelist=seoni, skill="arcana", dice_roll=[11])),      # 20: a tie between PCs
        ("BreakTie", dict(first=seoni)), ("ActSecond", {}),
        ("CastSpell", dict(spell="Force Barrage", rank=1, tradition="arcane", damage_expr="1d4+1")),
        ("DuelingCounter", dict(duelist=seoni, slot_rank=1, dice_check=[2], dice_damage=[3])),
        ("Strike", dict(dice_attack=[15], dice_damage=[2])),
        ("EndTurn", {}), ("ChangeTraditionFocus", dict(tradition="primal")),
        ("CastSpell", dict(spell="Electric Arc", rank=1, tradition="arcane", cantrip=True, damage_expr="2d4")),
        ("DeclineCounter", dict(dice_damage=[2, 2])), ("EndTurn", {}),
        ("RollInitiative", dict(duelist=ezren, skill="occultism", dice_roll=[15])),
        ("RollInitiative", dict(duelist=seoni, skill="deception", dice_roll=[10])),
        ("Strike", dict(dice_attack=[14])), ("DeceptiveSidestep", dict(dice_attack=[3])),
        ("EndTurn", {}), ("Yield", dict(side="b")), ("EscalateToCombat", dict(side="a")),
    ]
    for name, fields in script:
        service.handle({"type": name, "duel_id": duel, "expected_version": service.version(f"duel-{duel}"), **fields})
    return duel


RETRACTABLE = range(1, 25)  # every event of the scripted duel after its start (DuelStarted cannot go)


def test_the_scripted_duel_covers_every_kind_of_event(service):
    duel = scripted_duel(service)
    records = service.store.read_stream(f"duel-{duel}")
    assert len(records) == 1 + len(RETRACTABLE)
    assert {r.type for r in records} >= {"Pf2eTieBroken", "Pf2eActedSecond", "Pf2eCounterAttempted",
                                         "Pf2eCounterDeclined", "Pf2eSidestepUsed", "Pf2eFocusChanged",
                                         "DuelYielded", "Pf2eDuelEscalated"}


@pytest.mark.parametrize("index", RETRACTABLE)
def test_retracting_any_event_keeps_the_duel_whole(app, client, index):
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, fixed_context())
    duel = scripted_duel(service)
    target = service.store.read_stream(f"duel-{duel}")[index]
    service.handle({"type": "RetractEvent", "position": target.position, "reason": "misread",
                    "expected_version": service.version(f"duel-{duel}")})

    page = client.get(f"/duels/{duel}")
    assert page.status_code == 200 and 'id="duel"' in page.text
    incremental = snapshot(db)
    rebuild(db, service.store)
    assert snapshot(db) == incremental

    state = queries.duel(db, duel)["state"]
    # The duel rewound to just before the target's command: exactly as it stood then.
    assert state == engine.refold(service.store, f"duel-{duel}", target.metadata["decision"] - 1)
    assert pf2e.invariants(state) == []
    anyone = state["duelists"][0]["id"]
    tries = {"duelist": anyone, "first": anyone, "skill": "perception", "slot_rank": 1, "spell": "Daze", "rank": 1,
             "tradition": "arcane", "side": "a", "dice_attack": [10], "dice_check": [10], "dice_roll": [10]}
    for name in pf2e.actions(state):  # whatever is legal on the corrected state decides or refuses
        try:
            pf2e.decide(state, parse_command(pf2e.COMMANDS[name], tries), Dice(source=lambda sides: 1))
        except (Refused, Invalid):
            pass
    db.close()


def test_a_turn_of_demoralize_feint_and_strikes_through_the_page(app, client, table):
    """Seelah (Intimidation +9, Deception +7) against Baron Vex (Will 0: DC 10; Perception +7: DC 17)."""
    duel = start(client, table, "Seelah", "Baron Vex", kind="combat")
    play = Play(client, duel)
    # Vex's player picks Intimidation (no Deceptive Sidestep); "everyone" is then Seelah alone.
    play.do("RollInitiative", duelist=table["Baron Vex"], skill="intimidation", dice_roll="2")
    play.do("RollInitiative", dice_roll="15")  # her usual skill: Intimidation, 24
    text = play.text()
    assert "Seelah’s turn ◆◆◆ 3 of 3 actions left" in text
    assert "Demoralize, Feint, other action" in text
    play.do("Demoralize", dice_check="11")  # 20 vs DC 10: critical success
    text = play.text()
    assert "Seelah Demoralizes Baron Vex: Intimidation 11+9 = 20 vs DC 10, critical success: Baron Vex is frightened 2." in text
    assert "Frightened 2" in text and "2 of 3 actions left" in text
    assert 'action="/duels/%s/do/Demoralize"' % duel not in play.page()  # immune now: no second form
    play.do("Feint", dice_check="8")  # 15 vs Perception DC 17 − 2: success
    text = play.text()
    assert "Off-guard (−2 AC) against Seelah" in text and "1 of 3 actions left" in text
    response = play.do("Strike", htmx=True, dice_attack="5", dice_damage="3", end_turn="true")
    text = text_of(response.text)
    assert "Seelah Strikes Baron Vex: 5+10 = 15 vs AC 15, success." in text  # AC 19 − 2 frightened − 2 off-guard
    assert "Baron Vex’s turn" in text and "Off-guard (−2 AC) against" not in text
    play.do("Strike", dice_attack="10")  # Vex: 10 + 9 − 2 frightened = 17 vs AC 20, a miss
    assert "(Strike 2 this turn: multiple attack penalty −5, agile −4)" in play.text()
    refused = play.do("Feint", status=422, dice_check="25")
    assert 'id="e-Feint-dice_check">a d20 cannot show 25' in refused.text  # by its field, nothing logged
    assert "2 of 3 actions left" in text_of(refused.text)


def test_a_strikes_damage_line_names_the_strike_in_the_readers_language(client, table):
    """The damage line of a Strike read "Strike: Seelah hace 8 de daño…" in the Spanish history: the
    log's fixed word "Strike" is said as the reader's books say it, "Golpe"."""
    duel = start(client, table, "Seelah", "Baron Vex", kind="combat")
    play = Play(client, duel)
    play.do("RollInitiative", duelist=table["Seelah"], skill="intimidation", dice_roll=12)
    play.do("RollInitiative", duelist=table["Baron Vex"], skill="deception", dice_roll=5)
    play.do("Strike", dice_attack=15)  # 15 + 10 = 25 vs AC 19: a hit, Vex may Sidestep
    play.do("DeclineSidestep", dice_damage=4)
    spanish = text_of(client.get(f"/duels/{duel}", headers={"Accept-Language": "es"}).text)
    assert "Golpe: Seelah" in spanish and "Strike:" not in spanish
    assert "Strike: Seelah" in play.text()  # and "Strike" in English
