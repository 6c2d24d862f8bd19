"""Sealed means sealed, whatever the duel does: random seated duels of each ruleset, played through
the app users run (the GM's API with the duel read's legal actions and the server's dice, each
sealed choice made on its player's seat), and at every step every audience's outputs are read —
the GM's page, each seat, the table display and its JSON, the API duel read, the event pages of
the last events, the players' recap, the campaign's backup — in English and Spanish. None may name a value sealed for it:
a card, a skill, an insult and its words (known from the duel's fold of the log), nor a sealed
command's id or fingerprint.

A sealed value's name may rightly be on a page for another reason (a stat block, the rules, the
rival's own hand and what its cards beat, an earlier exchange's insult), so a name is not searched
outright: while a choice is sealed its seat changes it to another value and back, and no output of
any other audience may name either value more often once the choice is back than with the other
value chosen: what a reader could learn of the choice is what changes with it. Free words and fingerprints are
searched outright. Refusals are left out: a refused command's answer is not read (their wording is
tests/web/test_sealed_refusals.py's and tests/unit/test_sealed_refusals.py's).
"""
from __future__ import annotations

import html
import json
import re
import secrets

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings, strategies as st

from tests.web.test_display import display_link, gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat, pf2e_sealed, setup_duel, wit_sealed
from tracker import rules
from tracker.rules import legal
from tracker.application.commands.base import KEYED
from tracker.rules.pf2e.sheet import SKILL_NAMES
from tracker.rules.pf2e.table import initiative_skills
from tests.unit.test_rules_in_spanish import spanish

STEPS = 10
LANGUAGES = ("", "?lang=es")
ENDINGS = {"Yield", "Disqualify", "Abandon"}  # a duel ended at once teaches nothing


def spellings(value: str) -> set[str]:
    found = set()
    for said in {value, value.capitalize()}:
        found |= {said, html.escape(said), json.dumps(said)[1:-1], json.dumps(said, ensure_ascii=False)[1:-1]}
    return found


# --- what each ruleset's seat chooses, and what its fold holds sealed ---------------------------

def rocet_choice(state, side, draw):
    hand = state["sides"][side]["hand"]
    return {"side": side, "card": draw(st.sampled_from(sorted(hand)))}


def pf2e_choice(state, side, draw):
    who = next(d["id"] for d in state["duelists"] if d["side"] == side)
    return {"duelist": who, "skill": draw(st.sampled_from(sorted(SKILL_NAMES)))}


def pirate_choice(state, side, draw):
    insult = draw(st.sampled_from([i["name"] for i in state["settings"]["insults"]]))
    words = draw(st.sampled_from(["", f"Zq{secrets.token_hex(4)} fights like a dairy farmer"]))
    return {"side": side, "insult": insult, "line": words}


def side_of(state, key):
    return key if key in ("a", "b") else next(d["side"] for d in state["duelists"] if d["id"] == key)


SPANISH = spanish()


def names_of(ruleset, value: str) -> list[str]:
    """The names a page gives one value of a choice, in either language."""
    if ruleset == "pf2e":
        name = SKILL_NAMES[value]  # a translated term (Engaño), or a plain word
        return [value, str(name), SPANISH.gettext(getattr(name, "msgid", name))]
    return [value]


def sealed_values(ruleset, state):
    """(key, side, value, words searched outright) of each choice the fold holds sealed: ``key`` is
    what the choice is filed under (a side, a PF2e duelist), ``value`` what is chosen."""
    found = []
    for key, choice in (state.get("sealed") or {}).items():
        side = side_of(state, key)
        if ruleset == "rocet":
            found.append((key, side, choice["card"], []))
        elif ruleset == "pf2e":
            found.append((key, side, choice if isinstance(choice, str) else choice["skill"], []))
        else:
            found.append((key, side, choice["insult"], [choice["line"]] if choice.get("line") else []))
    return found


def another(ruleset, state, key, value):
    """The fields of the same seat's choice with another value the rules accept now, or None."""
    if ruleset == "rocet":
        others = sorted(set(state["sides"][key]["hand"]) - {value})
        return others and {"side": key, "card": others[0], "turn": state["turn"] + 1}
    if ruleset == "pf2e":
        others = [skill for skill in initiative_skills(state["kind"]) if skill != value]
        return others and {"duelist": key, "skill": others[0], "round": state["round"]}
    others = [i["name"] for i in state["settings"]["insults"] if i["name"] != value]
    line = state["sealed"][key].get("line") or ""
    return others and {"side": key, "insult": others[0], "line": line, "round": state["round"] + 1}


def again(ruleset, state, key, value):
    """The fields of the seat's choice as it was (``value``), to choose it back."""
    fields = another(ruleset, state, key, value)
    name = {"rocet": "card", "pf2e": "skill", "pirate": "insult"}[ruleset]
    return fields and {**fields, name: value}


RULESETS = {
    "rocet": (setup_duel, "ChooseCard", rocet_choice),
    "pf2e": (pf2e_sealed, "ChooseSkill", pf2e_choice),
    "pirate": (wit_sealed, "ChooseInsult", pirate_choice),
}


def around(body: str, found: str) -> str:
    at = body.find(found)
    return body[max(0, at - 300):at + 100]


# --- driving the duel ---------------------------------------------------------------------------

def filled(spec: dict, draw, version: int) -> dict:
    """A legal action's fields, drawn from what it offers; dice left to the server."""
    sent = {}
    for name, field in spec["fields"].items():
        if field["kind"] == "dice":
            continue
        if name == "server_roll":
            sent[name] = True
        elif field.get("choices"):
            sent[name] = draw(st.sampled_from(field["choices"]))
        elif field["required"]:
            sent[name] = field.get("default", field.get("minimum", 1) if field["kind"] == "int" else "x")
    return {**sent, "type": spec["type"], "expected_version": version}


class Table:
    def __init__(self, client, anonymous, gm, ruleset):
        make, self.choose, self.choice = RULESETS[ruleset]
        self.ruleset, self.client, self.anonymous, self.gm = ruleset, client, anonymous, gm
        self.module = rules.get(ruleset)
        self.duel = make(gm)
        self.id = self.duel["duel"]
        self.seats = {side: issue_seat(client, self.duel["session"], who)
                      for side, who in zip("ab", self.duel["people"])}
        self.display = display_link(gm, self.id)[0]
        self.recap = display_link(gm, self.duel["session"], kind="recap")[0].replace("/display", "/recap")
        self.answers: list[str] = []  # the GM's command answers since the last read

    def state(self):
        return self.gm.state_of(f"duel-{self.id}")

    def step(self, draw):
        version, state = self.state()
        if state.get("outcome"):
            return False
        moves = [("gm", a) for a in self.client.get(f"/api/duels/{self.id}").json["legal_actions"]
                 if a["type"] not in ENDINGS and not a["type"].startswith("Choose")]
        for side in "ab":
            seen = self.module.seen_by(state, f"seat:{side}")
            moves += [(side, name) for name in self.module.seat_actions(seen, side)]
        if not moves:
            return False
        who, move = draw(st.sampled_from(moves))
        if who == "gm":
            answer = self.client.post("/api/v1/commands", json={**filled(move, draw, version), "duel_id": self.id})
            if answer.status_code < 400:
                self.answers.append(answer.get_data(as_text=True))
            return True
        if move == self.choose:
            sent = self.choice(state, who, draw)
        else:
            offered = [a for a in self.module.legal_actions(state, "gm") if a["type"] == move]
            spec = offered[0] if offered else legal.offer(self.module.COMMANDS[move], move)  # a seat's own
            mine = [d["id"] for d in state.get("duelists", []) if d["side"] == who]
            spec = {**spec, "fields": {name: ({**f, "choices": mine} if f["kind"] == "character" else f)
                                       for name, f in spec["fields"].items()}}
            sent = {k: v for k, v in filled(spec, draw, version).items() if k != "type"}
        data = {**{k: ("true" if v is True else v) for k, v in sent.items()}, "duel_id": self.id,
                "command_id": secrets.token_hex(8)}
        self.anonymous.post(f"{self.seats[who]}/do/{move}", headers={"HX-Request": "true"}, data=data)
        return True

    def rechoose(self, side: str, fields: dict) -> bool:
        """The seat of ``side`` changes its sealed choice to ``fields``: True once it is recorded."""
        version = self.state()[0]
        answer = self.anonymous.post(f"{self.seats[side]}/do/{self.choose}", headers={"HX-Request": "true"},
                                     data={**fields, "duel_id": self.id, "command_id": secrets.token_hex(8)})
        return self.state()[0] == version + 1 or re.findall(r'class="error[^"]*"[^>]*>(.*?)<', answer.text, re.S)

    def outputs(self) -> dict:
        """Every audience's outputs now: {(audience, what): body}."""
        token = self.display.split("/")[2]
        read = {}
        for lang in LANGUAGES:
            read["gm", "duel page" + lang] = self.client.get(f"/duels/{self.id}{lang}")
            read["display", "page" + lang] = self.anonymous.get(self.display + lang)
            read["recap", "players' recap" + lang] = self.anonymous.get(self.recap + lang)
            for side, seat in self.seats.items():
                read[f"seat:{side}", "seat" + lang] = self.anonymous.get(seat + lang)
        for side, seat in self.seats.items():
            read[f"seat:{side}", "live"] = self.anonymous.get(f"{seat}/live?v=0")
        read["recap", "players' recap, md"] = self.anonymous.get(self.recap + "?format=md")
        read["display", "json"] = self.anonymous.get(f"/api/v1/display/{token}")
        read["display", "long-poll"] = self.anonymous.get(f"/api/v1/display/{token}?since=0&wait=0")
        read["gm", "API duel read"] = self.client.get(f"/api/duels/{self.id}")
        read["gm", "backup"] = self.client.get(f"/campaigns/{self.duel['campaign']}/backup.jsonl")
        last = self.gm.store.read_stream(f"duel-{self.id}")[-3:]
        for record in last:
            read["gm", f"event {record.position}"] = self.client.get(f"/events/{record.position}")
        read["gm", "event newest"] = read["gm", f"event {last[-1].position}"]  # (the same page, compared as the newest)
        failed = {where: answer.status_code for where, answer in read.items() if answer.status_code != 200}
        assert not failed, failed  # every audience is read, none answered by an error page
        bodies = {where: answer.get_data(as_text=True) for where, answer in read.items()}
        for where in [w for w in bodies if w[1].startswith("event ")]:
            # An event page's own secret is its stored data and metadata; its lines of the duel are
            # the duel page's (read above), and grow as choices are revealed.
            bodies[where] = "\n".join(re.findall(r'<pre class="data"[^>]*>(.*?)</pre>', bodies[where], re.S))
        for at, answer in enumerate(self.answers):
            bodies["gm", f"command answer {at}"] = answer
        self.answers = []
        return bodies

    def command_secrets(self) -> set[str]:
        found = set()
        for record in self.gm.store.read_stream(f"duel-{self.id}"):
            if record.type in self.module.SEALED:
                fingerprint = record.metadata["fingerprint"]
                found |= {record.metadata["command_id"], fingerprint, fingerprint.removeprefix(KEYED)}
        return found - {None, ""}


def counts(bodies: dict, ruleset: str, values: list[str], side: str) -> dict:
    """How often each output of every audience but ``side``'s seat names each of ``values``."""
    return {(where, spelled): body.count(spelled) for where, body in bodies.items() if where[0] != f"seat:{side}"
            for value in values for name in names_of(ruleset, value) for spelled in spellings(name)}


def play_and_watch(table: Table, data):
    for _ in range(data.draw(st.integers(1, STEPS), label="steps")):
        if not table.step(data.draw):
            break
        now = table.outputs()
        sealed = sealed_values(table.ruleset, table.state()[1])
        event("a choice sealed" if sealed else "nothing sealed")
        hidden = table.command_secrets()
        for where, body in now.items():
            leaked = [s for s in hidden if s in body]
            assert not leaked, (where, "a sealed command's id or fingerprint")
        for key, side, value, words in sealed:
            for said in words:
                for (audience, what), body in now.items():
                    if audience != f"seat:{side}":
                        assert not [s for s in spellings(said) if s in body], (audience, what, "the sealed words")
            # What a reader could learn of the choice: what changes when it is another value.
            state = table.state()[1]
            other, back = another(table.ruleset, state, key, value), again(table.ruleset, state, key, value)
            if not other or state.get("outcome"):
                # Nothing else to choose (a last card in hand), or the duel ended before this choice was
                # thrown (a pirate exchange won by the first insult): it stays sealed, and nobody can
                # change it; its words are still searched above.
                event("a sealed choice left as it is")
                continue
            assert table.rechoose(side, other) is True, ("the seat could not change its choice", other)
            changed = table.outputs()
            assert table.rechoose(side, back) is True, ("the seat could not choose back", back)
            kept = table.outputs()
            for where, body in [*changed.items(), *kept.items()]:
                assert not [s for s in table.command_secrets() if s in body], (where, "a sealed command's id")
            event("a sealed choice changed and back")
            values = [value, next(v for k, v in other.items() if k in ("card", "skill", "insult"))]
            with_other, with_value = counts(changed, table.ruleset, values, side), counts(kept, table.ruleset, values, side)
            # Chosen back, one event later: an output names each value no more often than with the
            # other chosen. (Not "exactly as often": the table display shows the last lines only, and
            # the later change may push an old line, naming either, out of it; it never adds a name.)
            differ = {where: (with_other[where], with_value[where]) for where in with_value
                      if where in with_other and with_value[where] > with_other[where]}  # (the same events)
            assert not differ, (f"the outputs change with the sealed choice ({values[0]!r} or {values[1]!r})",
                                differ, around(kept[next(iter(differ))[0]], next(iter(differ))[1]))


@pytest.mark.parametrize("ruleset", ["pf2e", "rocet", "pirate"])
@settings(max_examples=10, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
           suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_no_audience_ever_reads_a_value_sealed_for_it(app, client, anonymous, gm_service, ruleset, data):
    seed = data.draw(st.integers(0, 2**32), label="the server's dice")
    for context in (app.config["SERVICE_CONTEXT"], gm_service.context):
        context.rng.seed(seed)  # the server's dice, replayed alike when an example runs again
    play_and_watch(Table(client, anonymous, gm_service, ruleset), data)
