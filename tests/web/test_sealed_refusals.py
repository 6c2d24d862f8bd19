"""No refusal names a sealed value or a hand. For each ruleset a seated duel is driven to a sealed
choice; then every command the ruleset knows is sent, with right and deliberately wrong field
values, by the GM and by the other side's seat, in English and in Spanish, and every refusal read
back must hold neither the sealed value nor a listing of the chooser's hand. A refusal that lists
every option (the insult table, the skills allowed) names nothing in particular and is not a leak."""
from __future__ import annotations

import dataclasses
import html
import importlib
import re

import pytest

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import (WORDS, choose, choose_insult, choose_skill, issue_seat, pf2e_sealed, secret_card,
                                  state, wit_sealed)
from tracker.rules.pf2e.rounds import initiative_skills
from tracker.rules.pirate import DEFAULT_INSULTS
from tracker.rules.rocet.terms import CARDS

ENDINGS = {"Yield", "Abandon", "Disqualify", "EscalateToCombat"}  # they end the duel, sealed or not
WHO = {"side", "duelist", "attacker", "target", "caster", "first"}
ERROR = re.compile(r'class="error[^"]*"[^>]*>(.*?)</(?:p|span)>', re.S)


def refusals(answer) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in ERROR.findall(answer.text)]


def rocet(client, anonymous, gm):
    duel, card = secret_card(gm)
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    hand = state(gm, duel["duel"])["sides"]["a"]["hand"]
    assert choose(anonymous, seats[0], duel["duel"], "a", card).status_code == 200
    return duel, seats[1], {"sealed": [card], "options": list(CARDS), "hand": ", ".join(hand), "ids": ["a", "b"]}


def pirate(client, anonymous, gm):
    duel = wit_sealed(gm)
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    assert choose_insult(anonymous, seats[0], duel["duel"], "a", "Humillación", WORDS).status_code == 200
    names = [i["name"] for i in DEFAULT_INSULTS]
    return duel, seats[1], {"sealed": ["Humillación", WORDS], "options": names, "hand": None, "ids": ["a", "b"]}


def pf2e(client, anonymous, gm):
    duel = pf2e_sealed(gm)
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    assert choose_skill(anonymous, seats[0], duel["duel"], duel["people"][0], "intimidation").status_code == 200
    options = [s for s in initiative_skills("combat")] + ["Engaño", "Intimidación", "Percepción"]
    return duel, seats[1], {"sealed": ["intimidation", "Intimidación"], "options": options, "hand": None,
                            "ids": duel["people"] + ["a", "b"]}


def leaks(message: str, secret: dict, sent: dict) -> list[str]:
    """The sealed values (or hand) ``message`` names, beyond what the sender typed themselves."""
    lowered, typed = message.lower(), " ".join(str(v) for v in sent.values()).lower()
    # A refusal listing every choice (by its key or, in Spanish, by its name) singles none out.
    groups = [secret["options"][i:i + 3] for i in range(0, len(secret["options"]), 3)]
    listing = any(len(group) == 3 and all(option.lower() in lowered for option in group) for group in groups)
    found = [value for value in secret["sealed"]
             if value.lower() in lowered and value.lower() not in typed and not listing]
    if secret["hand"] and secret["hand"] in message:
        found.append(secret["hand"])
    return found + (["holds:"] if "holds:" in lowered or "tiene:" in lowered else [])


@pytest.mark.parametrize("ruleset, drive", [("rocet", rocet), ("pirate", pirate), ("pf2e", pf2e)])
def test_no_refusal_names_a_sealed_value_or_a_hand(client, anonymous, gm_service, ruleset, drive):
    commands = importlib.import_module(f"tracker.rules.{ruleset}.commands").COMMANDS
    duel, other_seat, secret = drive(client, anonymous, gm_service)
    values = ["", "x", "0", "7", "100 99", "3 4", "-1", *secret["options"], *secret["sealed"], *secret["ids"]]
    seen, sent = [], 0
    for name, command in commands.items():
        if name in ENDINGS:
            continue
        fields = [f.name for f in dataclasses.fields(command)]
        for value in values:
            for who in [None] + secret["ids"][:2]:
                data = {field: (who if who and field in WHO else value) for field in fields}
                stream = f"duel-{duel['duel']}"
                version = gm_service.version(stream)
                language = "es" if sent % 2 else "en"
                sent += 1
                answers = [client.post(f"/duels/{duel['duel']}/do/{name}?lang={language}", headers={"HX-Request": "true"},
                                       data={**data, "expected_version": version}),
                           anonymous.post(f"{other_seat}/do/{name}?lang={language}", headers={"HX-Request": "true"},
                                          data={**data, "duel_id": duel["duel"], "command_id": f"scan{sent}"})]
                for answer in answers:
                    assert answer.status_code < 500, (name, data)
                    for message in refusals(answer):
                        seen.append(message)
                        assert not leaks(message, secret, data), (name, data, language, message)
                if gm_service.version(stream) != version:  # a command went through: seal a fresh duel
                    duel, other_seat, secret = drive(client, anonymous, gm_service)
    assert len(seen) > 50  # the scan read refusals, not silence
