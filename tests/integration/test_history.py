"""The duel history: facts each ruleset's duels leave behind, the history page and its filters,
a character's record and the campaign's statistics."""
import dataclasses
import re

import pytest

from tests.conftest import fixed_context
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.projections import history, schema
from tracker.projections.rebuild import rebuild
from tracker import bootstrap

SEELAH, VEX = demo.CHARACTERS[4], demo.CHARACTERS[5]
MARA, BARBANEGRA = demo.CHARACTERS[2], demo.CHARACTERS[3]
INES, LOPE = demo.CHARACTERS[0], demo.CHARACTERS[1]


class Campaign:
    """A campaign at the table, played through the service with typed dice."""

    def __init__(self, service):
        self.service = service
        self.id = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
        self.session = self.plan(1, "2026-11-29", "Swords at dawn")

    def plan(self, number, date, title):
        return self.service.handle({"type": "PlanSession", "campaign_id": self.id, "number": number,
                                    "date": date, "title": title}).key

    def character(self, sheet, name=None):
        return self.service.handle({"type": "CreateCharacter", "campaign_id": self.id,
                                    **dict(sheet, name=name or sheet["name"])}).key

    def duel(self, ruleset, a, b, session=None, **setup):
        return self.service.handle({"type": "StartDuel", "session_id": session or self.session, "ruleset": ruleset,
                                    "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}],
                                    "setup": setup}).key

    def do(self, duel, command, **fields):
        return self.service.handle({"type": command, "duel_id": duel,
                                    "expected_version": self.service.version(f"duel-{duel}"), **fields})

    def facts(self, kind, duel, columns):
        """The duel's history facts of one kind, in the order they happened."""
        return self.service.db.execute(f"SELECT {columns} FROM history_facts WHERE duel_id = ? AND kind = ?"
                                       " ORDER BY seq", [duel, kind]).fetchall()

    def rocet_duel(self, session=None):
        """Inés and Lope, physical cards: Inés's Estocada Alta beats an Insulto, then Lope's Tajo
        Circular beats her Insulto, then Inés yields."""
        ines, lope = self.character(INES), self.character(LOPE)
        duel = self.duel("rocet", ines, lope, session, kind="relojes", cards="physical", weapon_type="Espada")
        self.do(duel, "PlayTurn", card_a="Estocada Alta", card_b="Insulto", dice_a=[3, 4], dice_b=[2, 3])
        self.do(duel, "DeclineDamage")
        self.do(duel, "PlayTurn", card_a="Insulto", card_b="Tajo Circular", dice_a=[1, 2], dice_b=[5, 4])
        self.do(duel, "DealDamage", source="attack")
        self.do(duel, "Yield", side="a")
        return duel, ines, lope

    def wit_duel(self):
        """Mara and Barbanegra trade insults for one exchange; Barbanegra yields, humiliated."""
        mara, barba = self.character(MARA), self.character(BARBANEGRA)
        duel = self.duel("pirate", mara, barba, kind="wit")
        self.do(duel, "RollInitiative", dice_a=[12], dice_b=[7])
        self.do(duel, "Insult", side="a", insult="Burla ingeniosa", dice_a=[15, 3])   # a hit: 3 CAR
        self.do(duel, "Insult", side="b", insult="Burla ingeniosa", dice_b=[1])       # a miss
        self.do(duel, "Yield", side="b")
        return duel, mara, barba

    def pf2e_duel(self):
        """Seelah wins round 1's initiative with Intimidation, Vex round 2's; Seelah yields."""
        seelah, vex = self.character(SEELAH), self.character(VEX)
        duel = self.duel("pf2e", seelah, vex, kind="combat")
        self.do(duel, "RollInitiative", duelist=seelah, skill="intimidation", dice_roll=[12])   # 21
        self.do(duel, "RollInitiative", duelist=vex, skill="deception", dice_roll=[5])          # 13
        self.do(duel, "EndTurn")
        self.do(duel, "EndTurn")
        self.do(duel, "RollInitiative", duelist=seelah, skill="perception", dice_roll=[3])      # 13
        self.do(duel, "RollInitiative", duelist=vex, skill="intimidation", dice_roll=[15])      # 27
        self.do(duel, "Yield", side="a")
        return duel, seelah, vex


@pytest.fixture
def campaign(service):
    return Campaign(service)


# --- facts each ruleset leaves (one test per extractor) ---------------------------------------

def test_rocet_facts_are_every_card_laid_and_whether_it_won_the_turn(campaign):
    duel, ines, lope = campaign.rocet_duel()
    cards = campaign.facts("cards", duel, "character_id, round, subject, won")
    assert cards == [(ines, 1, "Estocada Alta", 1), (lope, 1, "Insulto", 0),
                     (ines, 2, "Insulto", 0), (lope, 2, "Tajo Circular", 1)]
    stats = history.campaign_stats(campaign.service.db, campaign.id)
    assert stats["cards"][0] == {"name": "Insulto", "used": 2, "won": 0, "rate": 0}
    assert stats["longest"][0]["turns"] == 2


def test_pirate_facts_are_every_insult_tried(campaign):
    duel, mara, barba = campaign.wit_duel()
    insults = campaign.facts("insults", duel, "character_id, subject, won, amount")
    assert insults == [(mara, "Burla ingeniosa", 1, 3), (barba, "Burla ingeniosa", 0, 0)]
    stats = history.campaign_stats(campaign.service.db, campaign.id)
    assert stats["insults"] == [{"name": "Burla ingeniosa", "used": 2, "won": 1, "damage": 3, "rate": 50}]


def test_pf2e_facts_are_each_secret_skill_and_who_won_initiative(campaign):
    duel, seelah, vex = campaign.pf2e_duel()
    rolls = campaign.facts("skills", duel, "round, character_id, subject, won, duel_won")
    assert sorted(rolls) == [(1, seelah, "intimidation", 1, 0), (1, vex, "deception", 0, 1),  # and won the duel
                             (2, seelah, "perception", 0, 0), (2, vex, "intimidation", 1, 1)]
    skills = {s["name"]: s for s in history.campaign_stats(campaign.service.db, campaign.id)["skills"]}
    # each skill by the name the game gives it, not by its key
    assert skills["Intimidation"] == {"name": "Intimidation", "used": 2, "won": 2, "duels_won": 1, "rate": 100}
    assert skills["Perception"]["duels_won"] == 0
    assert campaign.service.db.execute("SELECT turns FROM history_duels WHERE duel_id = ?",
                                       [duel]).fetchone() == (2,)  # two rounds


def test_a_retracted_turn_leaves_no_facts_and_rebuild_gives_the_same_rows(campaign):
    duel, ines, lope = campaign.rocet_duel()
    campaign.wit_duel()
    campaign.pf2e_duel()
    db = campaign.service.db
    turn_two = db.execute("SELECT position FROM events WHERE stream = ? AND type = 'RocetTurnResolved'"
                          " ORDER BY version DESC LIMIT 1", [f"duel-{duel}"]).fetchone()[0]
    campaign.service.handle({"type": "RetractEvent", "position": turn_two, "reason": "misread",
                             "expected_version": campaign.service.version(f"duel-{duel}")})
    assert [row[0] for row in campaign.facts("cards", duel, "subject")] == ["Estocada Alta", "Insulto"]

    def snapshot():
        return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in history.TABLES}

    live = snapshot()
    rebuild(db, campaign.service.store)
    assert snapshot() == live and all(live.values())
    assert set(history.TABLES) <= set(schema.TABLES)


def test_a_rebuild_drops_the_per_ruleset_tables_of_old_and_fills_the_one_fact_table(campaign):
    duel, _, _ = campaign.rocet_duel()
    db = campaign.service.db
    db.execute("CREATE TABLE history_cards (duel_id TEXT, card TEXT)")
    rebuild(db, campaign.service.store)
    assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'history_cards'").fetchall()
    assert len(campaign.facts("cards", duel, "subject")) == 4


# --- the history page -----------------------------------------------------------------------

@pytest.fixture
def played(app):
    """A campaign with a duel of each ruleset, and a second session with another Rocèt duel."""
    db = open_db(app.config["DATABASE"])
    ids = iter(range(1, 10**6))  # apart from the ids the app's own service hands out
    table = Campaign(bootstrap.service(db, dataclasses.replace(fixed_context(), new_id=lambda: f"h{next(ids):04d}")))
    table.duels = {"rocet": table.rocet_duel(), "pirate": table.wit_duel(), "pf2e": table.pf2e_duel()}
    table.later = table.plan(2, "2026-12-06", "A rematch")
    table.duels["rematch"] = table.rocet_duel(session=table.later)
    yield table
    db.close()


def titles(html):
    return re.findall(r'<td><a href="/duels/(\w+)">', html)


def test_the_history_lists_every_duel_newest_first(client, played):
    html = client.get(f"/campaigns/{played.id}/history").text
    assert "<html" in html and "4 duels" in html
    assert titles(html) == [played.duels[k][0] for k in ("rematch", "pf2e", "pirate", "rocet")]
    assert "Lope de Calatrava" not in html and "Lope Calatrava won by yield" in html
    assert "−7 PG" in html and "Dec 6, 2026" in html and "Session 2" in html


@pytest.mark.parametrize("query, expected", [
    ("ruleset=rocet", ["rematch", "rocet"]),
    ("ruleset=pf2e&outcome=won", ["pf2e"]),
    ("outcome=running", []),
    ("ending=yield&sort=oldest", ["rocet", "pirate", "pf2e", "rematch"]),
    ("sort=longest&ruleset=pirate", ["pirate"]),
    ("outcome=bogus&ruleset=chess", ["rematch", "pf2e", "pirate", "rocet"]),
])
def test_filters_and_sorts_live_in_the_url(client, played, query, expected):
    html = client.get(f"/campaigns/{played.id}/history?{query}").text
    assert titles(html) == [played.duels[k][0] for k in expected]


def test_filtering_by_character_session_and_their_outcome(client, played):
    duel, ines, _ = played.duels["rocet"]
    html = client.get(f"/campaigns/{played.id}/history?character={ines}&outcome=loss").text
    assert titles(html) == [duel]
    assert titles(client.get(f"/campaigns/{played.id}/history?character={ines}&outcome=win").text) == []
    assert titles(client.get(f"/campaigns/{played.id}/history?session={played.later}").text) == \
        [played.duels["rematch"][0]]


def test_htmx_gets_the_fragment_and_pages_keep_the_filters(client, played, monkeypatch):
    monkeypatch.setattr(history, "PAGE_SIZE", 3)
    fragment = client.get(f"/campaigns/{played.id}/history?sort=oldest", headers={"HX-Request": "true"}).text
    assert "<html" not in fragment and "page 1 of 2" in fragment
    assert len(titles(fragment)) == 3
    link = re.search(r'rel="next" href="([^"]+)"', fragment).group(1).replace("&amp;", "&")
    assert "sort=oldest" in link and "page=2" in link
    assert titles(client.get(link).text) == [played.duels["rematch"][0]]


def test_user_written_names_come_out_escaped(client, played):
    villain = played.character(LOPE, name="<script>alert(1)</script>")
    hero = played.character(INES, name="Inés II")
    played.duel("rocet", hero, villain, kind="relojes", cards="physical", weapon_type="Espada")
    for url in (f"/campaigns/{played.id}/history", f"/characters/{villain}/record"):
        html = client.get(url).text
        assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- a character's record and the statistics ---------------------------------------------------

def test_a_character_s_record_losses_and_rivals(client, played):
    _, ines, lope = played.duels["rocet"]
    html = client.get(f"/characters/{ines}/record").text
    assert "Inés de Ayala's duel record" in html
    assert re.search(r"Rocèt.*?<td>0</td><td>1</td><td>0</td>", html, re.S)  # won 0, lost 1
    assert "−7 PG" in html and f'/characters/{lope}/record">Lope Calatrava</a></td><td>1</td>' in html
    assert "<svg" in html and "style=" not in html
    assert "Rocèt cards" in html and "PF2e initiative skills" not in html  # only what Inés played


def test_a_running_duel_counts_as_neither_won_nor_lost_against_a_rival(client, played):
    _, ines, lope = played.duels["rocet"]
    played.duel("rocet", ines, lope, kind="relojes", cards="physical", weapon_type="Espada")
    html = client.get(f"/characters/{ines}/record").text
    assert f'/characters/{lope}/record">Lope Calatrava</a></td><td>2</td><td>0</td><td>1</td>' in html
    assert "None" not in html


def test_the_statistics_page_names_the_favourites(client, played):
    html = client.get(f"/campaigns/{played.id}/statistics").text
    assert re.search(r'class="most-card">Insulto<', html)
    assert re.search(r'class="most-insult">Burla ingeniosa<', html)
    assert "Intimidation" in html and "<svg" in html and "style=" not in html


def test_the_dashboard_and_the_sheet_link_here(client, played):
    _, ines, _ = played.duels["rocet"]
    assert f'href="/campaigns/{played.id}/history"' in client.get(f"/campaigns/{played.id}").text
    assert f'href="/characters/{ines}/record"' in client.get(f"/characters/{ines}").text


def test_another_gm_s_campaign_is_not_found(app, played):
    from tests.conftest import logged_in, register_gm

    stranger = logged_in(app, register_gm(app, "other", "other"))
    owned = stranger.post("/campaigns", data={"name": "Mine", "ruleset": "rocet"}).headers["Location"]
    mine = owned.rsplit("/", 1)[1]
    client = logged_in(app)
    assert client.get(f"/campaigns/{mine}/history").status_code == 404
    assert client.get(f"/campaigns/{mine}/statistics").status_code == 404
