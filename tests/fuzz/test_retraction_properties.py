"""No sequence of legal commands and retractions reaches a state the rules forbid (issue 19).

Hypothesis plays random duels of every variant of every ruleset through the service, with the
server's dice, and at random points retracts an event (which may rewind the duel) or takes back
the latest command. After every step the ruleset's own invariants hold on the live read model,
the stream refolded from the log equals it, and a rebuild of every read model equals what the
live path wrote. Bounded (derandomized, few examples and steps) to stay a fast tier.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bench.driver import ENDINGS, random_value
from tests.conftest import fixed_context
from tracker import bootstrap, rules
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.projections import engine, queries, rebuild, schema, undo
from tracker.rules.base import Invalid, Refused
from tracker.eventstore.store import dumps, write_transaction

SETUPS = {
    "rocet": [{"kind": kind, "cards": cards, "deck": deck, "weapon_type": "Espada", "clock_size": size,
               "meter_steps": size}
              for kind in ("relojes", "primera_sangre", "superioridad", "a_muerte")
              for cards in ("virtual", "physical") for deck in ("shared", "own") for size in (6, 24)]
    # Sealed choices: each side chooses in secret, turned over by the last choice or the GM's press.
    + [{"kind": kind, "cards": "virtual", "weapon_type": "Espada", "choices": "sealed", "reveal": reveal,
        "dice_by": dice_by} for kind in ("relojes", "primera_sangre") for reveal in ("auto", "gm")
       for dice_by in ("server", "seats", "table")],
    "pirate": [{"kind": "sword", "sword_victory": victory, "hits": 2} for victory in ("first_blood", "hits", "death")]
    + [{"kind": "pistol", "distance": distance, "shots": 2, "bullet": bullet, "second_a": "Tom", "second_b": "Jack"}
       for distance in (5, 40) for bullet in ("wounds", "no_damage")]
    + [{"kind": "wit", "wit_end": end, "exchanges": 2, "tie": tie}
       for end in ("points", "humiliation") for tie in ("sudden_death", "draw")]
    + [{"kind": "wit", "wit_end": "points", "exchanges": 2, "choices": "sealed", "reveal": reveal, "dice_by": dice_by}
       for reveal in ("auto", "gm") for dice_by in ("server", "seats", "table")],
    "pf2e": [{"kind": kind} for kind in ("combat", "spellcasting", "mixed")]
    + [{"kind": kind, "choices": "sealed", "reveal": reveal, "dice_by": dice_by} for kind in ("combat", "mixed")
       for reveal in ("auto", "gm") for dice_by in ("server", "seats", "table")],
}
PAIRS = {"rocet": (0, 1), "pirate": (2, 3), "pf2e": (4, 5)}

BOUNDS = settings(max_examples=30, stateful_step_count=25, derandomize=True, deadline=None,
                  suppress_health_check=list(HealthCheck))


def snapshot(db) -> dict:
    return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in schema.TABLES}


class Duel(RuleBasedStateMachine):
    """One duel of ``RULESET`` at the table: commands, retractions, rewinds."""

    RULESET = ""
    SEALED_ONLY = False  # only the set-ups whose choices are made in secret (players' seats)

    def __init__(self):
        super().__init__()
        self.db = open_db(":memory:")
        self.service = bootstrap.service(self.db, fixed_context())
        self.duel = None

    @initialize(setup=st.integers(min_value=0, max_value=99), seed=st.integers(min_value=0, max_value=2**16))
    def start(self, setup, seed):
        self.service.context.rng.seed(seed)
        handle = self.service.handle
        campaign = handle({"type": "CreateCampaign", "name": "Properties", "ruleset": self.RULESET}).key
        session = handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                          "title": "Dawn"}).key
        rivals = [handle({"type": "CreateCharacter", "campaign_id": campaign, **demo.CHARACTERS[i]}).key
                  for i in PAIRS[self.RULESET]]
        choices = [s for s in SETUPS[self.RULESET] if s.get("choices") == "sealed" or not self.SEALED_ONLY]
        self.duel = handle({"type": "StartDuel", "session_id": session, "ruleset": self.RULESET,
                            "setup": choices[setup % len(choices)],
                            "duelists": [{"character_id": rivals[0], "side": "a"},
                                         {"character_id": rivals[1], "side": "b"}]}).key

    @property
    def stream(self) -> str:
        return f"duel-{self.duel}"

    def live(self) -> tuple[int, dict]:
        return self.service.state_of(self.stream)

    # --- what the GM does --------------------------------------------------------------------

    @rule(seed=st.integers(min_value=0, max_value=2**16), actions=st.integers(min_value=1, max_value=15))
    def play(self, seed, actions):
        """A few legal actions in a row, as a GM logs a stretch of the duel."""
        rng = random.Random(seed)
        self.service.context.rng.seed(seed)
        for _ in range(actions):
            self.act(rng)

    def act(self, rng: random.Random) -> None:
        """A legal action (the rules refuse the rest), or now and then an ending."""
        version, state = self.live()
        module = rules.get(state["ruleset"])
        legal = module.actions(state)
        names = [a for a in legal if a not in ENDINGS] or legal
        if not names:
            return
        if rng.random() < 0.02:
            names = [a for a in legal if a in ENDINGS] or names
        for _ in range(20):
            name = names[0] if rng.random() < 0.6 else rng.choice(names)  # mostly the main action
            command = {"type": name, "duel_id": self.duel, "expected_version": version}
            for field in module.COMMANDS[name].FIELDS:
                command[field.name] = random_value(field, rng)
                if field.kind == "character":  # left blank, the rules pick whose turn it is
                    blank = not field.required and rng.random() < 0.7
                    command[field.name] = None if blank else rng.choice(state["duelists"])["id"]
                elif field.kind == "text" and field.required:
                    command[field.name] = rng.choice(("Force Barrage", "Daze", "Electric Arc"))
                elif field.name == "damage_expr":
                    command[field.name] = rng.choice(("", "1d4+1", "2d6"))
            _cards_in_hand(state, command, rng)
            if "insult" in command and state["settings"].get("insults"):
                command["insult"] = rng.choice(state["settings"]["insults"])["name"]
            try:
                self.service.handle(command)
                return
            except (Invalid, Refused):
                continue

    @rule(pick=st.floats(min_value=0, max_value=1, exclude_max=True))
    def retract(self, pick):
        """Retract any event still standing: the rules say what goes with it (often a rewind)."""
        rows = self.db.execute("SELECT e.position FROM events e JOIN log_entries l ON l.position = e.position"
                               " WHERE e.stream = ? AND e.type != 'EventRetracted' AND l.retracted_by IS NULL"
                               " AND e.metadata ->> 'decision' > 1 ORDER BY e.version", [self.stream]).fetchall()
        if not rows:
            return
        position = rows[int(pick * len(rows))][0]
        try:
            self.service.handle({"type": "RetractEvent", "position": position, "reason": "misread",
                                 "expected_version": self.live()[0]})
        except Refused:
            pass  # decided with the opening deal, or a retraction itself

    @rule(pick=st.floats(min_value=0, max_value=1, exclude_max=True))
    def restore(self, pick):
        """Restore any retraction in force: refused unless nothing stands after it."""
        rows = self.db.execute("SELECT position FROM log_entries WHERE stream = ? AND type = 'EventRetracted'"
                               " AND retracted_by IS NULL ORDER BY version", [self.stream]).fetchall()
        if not rows:
            return
        try:
            self.service.handle({"type": "RestoreRetraction", "position": rows[int(pick * len(rows))][0],
                                 "expected_version": self.live()[0]})
        except Refused:
            pass  # something stands after it, or it predates retractions that name what they carry

    @rule()
    def undo_then_restore(self):
        """The duel page's undo of the last action, then its restore: the duel stands as before."""
        last = undo.last_action(self.db, self.duel)
        if last is None:
            return
        _, before = self.live()
        try:
            retracted = self.service.handle({"type": "RetractEvent", "position": last["position"],
                                             "expected_version": self.live()[0]})
        except Refused:
            return  # a history the rules could not have made without it (an old retraction's leftovers)
        self.service.handle({"type": "RestoreRetraction", "position": retracted.events[0].position,
                             "expected_version": self.live()[0]})
        _, after = self.live()
        assert after == before

    # --- a log the old rules wrote ------------------------------------------------------------

    def append_raw(self, rows: list[tuple[str, int, dict]]) -> None:
        """Append (type, schema, data) rows as an older Touché wrote them, and project them."""
        version = self.service.store.version(self.stream)
        meta = dumps({"campaign_id": self.live()[1]["campaign_id"], "actor": "", "decision": version + 1})
        with write_transaction(self.db):
            recorded = self.service.store.append_rows(
                [(self.stream, version + i, kind, schema_, dumps(data), meta, None)
                 for i, (kind, schema_, data) in enumerate(rows, start=1)])
            projector = engine.Projector(self.db, self.service.store)
            projector.apply_all(recorded)
            projector.flush()

    @rule(pick=st.floats(min_value=0, max_value=1, exclude_max=True))
    def retract_as_the_old_rules_did(self, pick):
        """A schema-1 retraction: the event's own command only, the later events left standing."""
        rows = self.db.execute("SELECT e.position FROM events e JOIN log_entries l ON l.position = e.position"
                               " WHERE e.stream = ? AND e.type != 'EventRetracted' AND l.retracted_by IS NULL"
                               " AND e.metadata ->> 'decision' > 1 ORDER BY e.version", [self.stream]).fetchall()
        if not rows:
            return
        target = self.service.store.get(rows[int(pick * len(rows))][0])
        group = [r.version for r in self.service.store.read_stream(self.stream)
                 if r.metadata.get("decision") == target.metadata["decision"] and r.version != target.version]
        self.append_raw([("EventRetracted", 1, {"version": target.version, "retracted_type": target.type,
                                                "reason": "old", "consequences": group})])

    @rule()
    def log_a_command_decided_on_the_old_reading(self):
        """After an old retraction the old rules let the GM go on from a state that kept the later
        events: here, the latest command a retraction took back, logged again as it was."""
        recorded = self.service.store.read_stream(self.stream)
        if not any(r.type == "EventRetracted" and r.schema == 1 for r in recorded):
            return
        gone = {v for r in recorded if r.type == "EventRetracted" for v in r.event.versions}
        taken = [r for r in recorded if r.version in gone and r.metadata.get("decision", 1) > 1]
        if taken:
            last = taken[-1].metadata["decision"]
            self.append_raw([(r.type, r.schema, r.data) for r in taken if r.metadata["decision"] == last])

    # --- what always holds -------------------------------------------------------------------

    @invariant()
    def the_rules_could_reach_this_state(self):
        if self.duel is None:
            return
        version, state = self.live()
        assert rules.get(self.RULESET).invariants(state) == []
        assert engine.refold(self.service.store, self.stream, version) == state
        assert queries.duel(self.db, self.duel)["state"] == state

    @invariant()
    def rebuild_equals_the_live_read_models(self):
        if self.duel is None:
            return
        live = snapshot(self.db)
        rebuild.rebuild(self.db, self.service.store)
        assert snapshot(self.db) == live

    def teardown(self):
        self.db.close()


def _cards_in_hand(state: dict, command: dict, rng: random.Random) -> None:
    """Rocèt's virtual cards: play or discard a card the hand holds, as a GM would."""
    sides = state.get("sides")
    if not isinstance(sides, dict) or state.get("mode") != "virtual":
        return
    for side in ("a", "b"):
        if f"card_{side}" in command and sides[side]["hand"]:
            command[f"card_{side}"] = rng.choice(sides[side]["hand"])
    if command["type"] == "ChooseCard":  # a sealed card: one the chosen side holds
        side = command.get("side") if command.get("side") in ("a", "b") else "a"
        command.update(side=side, card=rng.choice(sides[side]["hand"]) if sides[side]["hand"] else "Finta")
    if command["type"] == "Discard" and state.get("pending_discard"):
        owed = state["pending_discard"]
        command["side"] = owed
        command["card"] = rng.choice(sides[owed]["hand"]) if sides[owed]["hand"] else ""


def test_every_ruleset_declares_what_a_retraction_carries_and_its_invariants():
    """The two faces the core and these tests ask of every ruleset (see ``tracker.rules``)."""
    for module in rules.RULESETS.values():
        assert callable(module.retraction_carries) and callable(module.invariants), module.NAME


class RocetDuel(Duel):
    RULESET = "rocet"


class PirateDuel(Duel):
    RULESET = "pirate"


class Pf2eDuel(Duel):
    RULESET = "pf2e"


TestRocetRetractions = RocetDuel.TestCase
TestRocetRetractions.settings = BOUNDS
TestPirateRetractions = PirateDuel.TestCase
TestPirateRetractions.settings = BOUNDS
TestPf2eRetractions = Pf2eDuel.TestCase
TestPf2eRetractions.settings = BOUNDS


class SealedDuel(Duel):
    SEALED_ONLY = True


class SealedRocetDuel(SealedDuel):
    RULESET = "rocet"


class SealedPirateDuel(SealedDuel):
    RULESET = "pirate"


class SealedPf2eDuel(SealedDuel):
    RULESET = "pf2e"


TestSealedRocetRetractions = SealedRocetDuel.TestCase
TestSealedRocetRetractions.settings = BOUNDS
TestSealedPirateRetractions = SealedPirateDuel.TestCase
TestSealedPirateRetractions.settings = BOUNDS
TestSealedPf2eRetractions = SealedPf2eDuel.TestCase
TestSealedPf2eRetractions.settings = BOUNDS
