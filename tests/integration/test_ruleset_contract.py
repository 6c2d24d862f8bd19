"""Every registered ruleset, the small test ruleset included, run through the whole face the core
asks of it: registration, its sample duels started and played (decide and evolve agreeing with the
log), legal actions, plain-language lines, the public view, progress, assumptions, its history facts
and statistics, and what its recap keeps from the players."""
import dataclasses
from tests import plain_json as json
import os
import re
from types import ModuleType

import orjson
import pytest

from tracker.rules import legal

from tests import coin_ruleset
from tests.coin_ruleset import samples as coin_samples
from tests.conftest import fixed_context
from tracker import bootstrap, recap, rules
from tracker.bootstrap.db import open_db
from tracker.projections import history
from tracker.projections.engine import refold
from tracker.projections.rebuild import rebuild
from tracker.rules import contract
from tracker.rules.dice import Dice
from tracker.rules.fields import parse_command
from tracker.rules.text import Joined, Text

READABLE = (str, Text, Joined)  # what a ruleset says: a message id with values, or plain words

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "templates")
RULESETS = [*rules.shipped(), coin_ruleset]  # the coin ruleset is registered per test (conftest)


def test_the_test_ruleset_is_registered_beside_the_shipped_ones():
    assert [m.NAME for m in rules.shipped()] == ["rocet", "pirate", "pf2e"]
    assert rules.get("coin").samples is coin_samples


@pytest.mark.parametrize("module", RULESETS, ids=lambda m: m.NAME)
def test_every_ruleset_shows_the_whole_declared_face(module):
    assert contract.missing(module) == []
    assert isinstance(module, contract.Ruleset) and isinstance(module.samples, contract.Samples)
    assert module.TURNS_LABEL and all(isinstance(s, contract.Statistic) for s in module.STATISTICS)
    assert all(isinstance(kind, str) for kind in (*module.HISTORY_EVENTS, *module.HIDDEN_FROM_PLAYERS))
    assert len(module.samples.DUELISTS) == 2 and module.samples.SETUPS


def test_registration_refuses_a_module_lacking_part_of_the_face():
    partial = ModuleType("partial")
    for name in contract.missing(partial):
        if name != "progress" and not name.startswith(("samples.", "CAMPAIGN_SETTINGS")):
            setattr(partial, name, getattr(rules.get("coin"), name))
    partial.NAME = "partial"
    with pytest.raises(TypeError, match="lacks progress"):
        rules.register(partial)
    assert "partial" not in rules.RULESETS


def test_registration_refuses_a_statistic_another_ruleset_already_counts():
    clash = ModuleType("clash")
    for name in contract.missing(clash):
        setattr(clash, name, getattr(rules.get("coin"), name, None))
    clash.NAME, clash.STATISTICS = "clash", (contract.Statistic("cards"),)
    with pytest.raises(TypeError, match="cards"):
        rules.register(clash)
    assert "clash" not in rules.RULESETS


def test_a_statistic_sums_only_known_columns_under_plain_names():
    assert contract.Statistic("hits", sums={"damage": "amount"}).sums == {"damage": "amount"}
    with pytest.raises(ValueError, match="sums only"):
        contract.Statistic("hits", sums={"damage": "amount); DROP TABLE events; --"})
    with pytest.raises(ValueError, match="plain names"):
        contract.Statistic("hits", sums={"damage FROM events; --": "amount"})


class Table:
    """A campaign on the app's database, played through the service with the sample dice."""

    def __init__(self, app, module, prefix="c"):
        self.db = open_db(app.config["DATABASE"])
        ids = iter(range(1, 10**6))
        # Ids apart from those the app's own service hands out.
        self.service = bootstrap.service(self.db, dataclasses.replace(fixed_context(), new_id=lambda: f"{prefix}{next(ids):04d}"))
        self.module = module
        self.campaign = self.handle({"type": "CreateCampaign", "name": "Contract", "ruleset": module.NAME}).key
        self.session = self.handle({"type": "PlanSession", "campaign_id": self.campaign, "number": 1,
                                    "date": "2026-11-29", "title": "Every face"}).key
        self.ids = {side: self.handle({"type": "CreateCharacter", "campaign_id": self.campaign, **sheet}).key
                    for side, sheet in zip("ab", module.samples.DUELISTS)}

    def handle(self, command):
        return self.service.handle(command)

    def start(self, setup):
        return self.handle({"type": "StartDuel", "session_id": self.session, "ruleset": self.module.NAME,
                            "duelists": [{"character_id": i, "side": s} for s, i in self.ids.items()],
                            "setup": setup}).key

    def state(self, duel):
        return self.service.state_of(f"duel-{duel}")


@pytest.fixture(params=RULESETS, ids=lambda m: m.NAME)
def table(app, request):
    table = Table(app, request.param)
    yield table
    table.db.close()


def test_every_sample_set_up_starts_a_duel_with_something_to_do(table):
    for setup in table.module.samples.SETUPS:
        _, state = table.state(table.start(setup))
        assert state["ruleset"] == table.module.NAME and state["outcome"] is None
        assert table.module.actions(state) and set(table.module.actions(state)) <= set(table.module.COMMANDS)
        assert isinstance(table.module.progress(state), READABLE)
        assert all(isinstance(line, READABLE) for line in table.module.assumptions(state))


def test_the_legal_actions_offer_every_scripted_command_with_its_values(table):
    """The data the API answers and the page draws from: the scripted duel only ever sends what it
    offered, each narrowed field holding the value sent; the table is offered nothing."""
    module = table.module
    setup, commands = module.samples.scripted(table.ids)
    duel = table.start(setup)
    for command in commands:
        version, before = table.state(duel)
        offered = {a["type"]: a for a in module.legal_actions(before, legal.GM)}
        assert list(offered) == module.actions(before)
        assert module.legal_actions(before, legal.TABLE) == []
        action = offered[command["type"]]
        for name, spec in action["fields"].items():
            if "choices" in spec and command.get(name) not in (None, ""):
                assert command[name] in spec["choices"], f"{command['type']}.{name}={command[name]!r} not offered"
        table.handle({**command, "duel_id": duel, "expected_version": version})
    json.dumps(module.legal_actions(table.state(duel)[1], legal.GM))


def test_the_scripted_duel_runs_through_decide_evolve_and_every_face(table):
    module, store = table.module, table.service.store
    setup, commands = module.samples.scripted(table.ids)
    duel = table.start(setup)
    stream = f"duel-{duel}"
    for command in commands:
        version, before = table.state(duel)
        assert command["type"] in module.actions(before), f"{command['type']} is not legal now"
        table.handle({**command, "duel_id": duel, "expected_version": version})
        # The rules alone, with the same dice, decide exactly the events the log holds.
        parsed = parse_command(module.COMMANDS[command["type"]], command)
        typed = {k[5:]: v for k, v in vars(parsed).items() if k.startswith("dice_") and v}
        decided = module.decide(before, parsed, Dice(typed))
        logged = [r.event for r in store.read_stream(stream) if r.version > version]
        assert decided == logged
        for at, event in enumerate(logged, version + 1):
            assert isinstance(module.describe(before, event), READABLE) and module.describe(before, event)
            before = module.evolve(before, event, at)
        assert before == table.state(duel)[1]
    version, state = table.state(duel)
    assert refold(store, stream, version) == state
    assert state["outcome"] is not None and set(module.actions(state)) <= set(module.COMMANDS)
    assert module.progress(state)
    assert all(isinstance(line, READABLE) for line in [*module.assumptions(state), *module.secrets(state)])
    json.dumps(module.public(state))  # plain data, whatever the ruleset hides

    # Its history: the turns it counted and one row per fact it found, whatever the ruleset.
    found = module.history_facts(state, history._events(table.db, duel, version, module.HISTORY_EVENTS))
    assert table.db.execute("SELECT turns FROM history_duels WHERE duel_id = ?", [duel]).fetchone() == (found.turns,)
    rows = table.db.execute("SELECT kind, character_id, subject FROM history_facts WHERE duel_id = ? ORDER BY seq",
                            [duel]).fetchall()
    assert rows == [(f.kind, f.character, f.subject) for f in found.facts] and rows
    assert {f.kind for f in found.facts} <= {s.kind for s in module.STATISTICS}
    stats = history.campaign_stats(table.db, table.campaign)
    for statistic in module.STATISTICS:
        assert set(stats[statistic.kind][0]) == {"name", "used", "won", "rate", *statistic.sums}
    live = [table.db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in history.TABLES]
    rebuild(table.db, store)
    assert [table.db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in history.TABLES] == live


def test_the_recap_keeps_what_the_ruleset_calls_secret(table):
    module = table.module
    setup, commands = module.samples.scripted(table.ids)
    duel = table.start(setup)
    for command in commands:
        version, _ = table.state(duel)
        table.handle({**command, "duel_id": duel, "expected_version": version})
    _, state = table.state(duel)
    gm, players = (recap.build(table.db, table.session, audience)["duels"][0] for audience in ("gm", "players"))
    assert gm["secrets"] == module.secrets(state) and "secrets" not in players and "assumptions" not in players
    hidden = {r.version for r in table.service.store.read_stream(f"duel-{duel}")
              if r.type in module.HIDDEN_FROM_PLAYERS}
    assert not hidden & {line["at"] for line in players["narrative"]}
    for secret in module.secrets(state):
        assert str(secret) not in orjson.dumps(players, default=str).decode()


@pytest.mark.parametrize("module", rules.shipped(), ids=lambda m: m.NAME)
def test_each_shipped_ruleset_brings_its_page_templates_in_its_own_folder(module):
    folder = os.path.join(TEMPLATES, "duels", module.NAME)
    assert {"_state.html", "_actions.html"} <= set(os.listdir(folder))
    if module.STATISTICS:
        assert os.path.exists(os.path.join(folder, "_statistics.html"))


HEADINGS = {"rocet": "<h2>Rocèt cards</h2>", "pirate": "<h2>Insults", "pf2e": "<h2>PF2e initiative skills</h2>"}


def test_the_statistics_pages_show_every_ruleset_s_own_section(client, app):
    tables = [Table(app, module, prefix=module.NAME) for module in rules.shipped()]
    try:
        counted = {}
        for table in tables:
            setup, commands = table.module.samples.scripted(table.ids)
            label = getattr(table.module, "turns_label", None)  # a duel of wits counts exchanges
            counted[table.module.NAME] = label(setup.get("kind", "")) if label else table.module.TURNS_LABEL
            duel = table.start(setup)
            for command in commands:
                table.handle({**command, "duel_id": duel, "expected_version": table.state(duel)[0]})
        for table in tables:
            page = client.get(f"/campaigns/{table.campaign}/statistics").text
            record = client.get(f"/characters/{table.ids['a']}/record").text
            assert f"{counted[table.module.NAME]}</strong>" in page
            assert HEADINGS[table.module.NAME] in page and HEADINGS[table.module.NAME] in record
            # The record page shows only what the character played.
            assert [name for name, heading in HEADINGS.items() if heading in record] == [table.module.NAME]
    finally:
        for table in tables:
            table.db.close()


def test_the_core_never_names_a_ruleset():
    """Only the rulesets' own packages (and the demo data) name a ruleset; only their own template
    folders do among the templates."""
    root = os.path.dirname(TEMPLATES)
    names = re.compile(r"rocet|pirate|pf2e")
    rulesets_folders = tuple(os.path.join("templates", "duels", m.NAME) + os.sep for m in rules.shipped())
    naming = []
    for top, allowed in (("tracker", (os.path.join("tracker", "rules") + os.sep, os.path.join("tracker", "cli", "demo.py"))),
                         ("templates", rulesets_folders)):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                path = os.path.relpath(os.path.join(folder, name), root)
                if top == "tracker" and not name.endswith(".py"):
                    continue
                with open(os.path.join(root, path), encoding="utf-8") as source:
                    if names.search(source.read()) and not path.startswith(allowed):
                        naming.append(path)
    assert naming == []
