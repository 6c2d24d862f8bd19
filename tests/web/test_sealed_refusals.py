"""No refusal the web gives names a sealed value or a hand. For each ruleset one seated duel is
driven to a sealed choice; then every command the ruleset knows (offered or not, the endings aside) is
sent by the GM, and every seat command by the other side's seat, with right and deliberately wrong
values, in English and in Spanish. A command accepted while the choice stays sealed does not end the
scan: it goes on from the new state (and the whole list is sent again), for that is how the pirate
leak of issue 27 was reached: the GM's RollInitiative accepted while an insult was sealed, then the
GM's Insult refused "… chose Humillación in secret". The thorough sweep of values is the pure one
(tests/unit/test_sealed_refusals.py); this one covers the doors: the routes, the policy, the forms.
A refusal that lists every option (the insult table, the skills allowed) names nothing in particular."""
from __future__ import annotations

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


def candidates(field, secret: dict) -> list:
    """A few right and wrong values for one field, as a form would post them."""
    if field.kind == "choice":
        return [value for value, _ in field.choices][:4] + ["x"]
    if field.kind == "character":
        return secret["ids"][:2] + ["x"]
    if field.kind == "bool":
        return ["", "on"]
    if field.kind == "dice":
        return ["", "5 3", "100 99"]
    if field.kind == "int":
        return ["", "0", "7", "x"]
    return ["", "x", *secret["sealed"][:1], *secret["options"][:2]]


def tries(cls, secret: dict):
    """A plausible form, each field varied in turn, and each side or duelist named with each value
    of the fields a refusal could echo."""
    fields = getattr(cls, "FIELDS", ())
    base = {f.name: ("on" if f.name == "server_roll" else candidates(f, secret)[0]) for f in fields}
    yield dict(base)
    for f in fields:
        for value in candidates(f, secret)[1:]:
            yield {**base, f.name: value}
    for f in (f for f in fields if f.name in WHO):
        for who in secret["ids"][:2]:
            for g in (g for g in fields if g.kind in ("text", "choice") and g.name not in WHO):
                for value in candidates(g, secret):
                    yield {**base, f.name: who, g.name: value}


def sealed_still(gm, duel: dict, choice) -> bool:
    now = state(gm, duel["duel"])
    return not now.get("outcome") and (now.get("sealed") or {}) == choice


@pytest.mark.parametrize("ruleset, drive", [("rocet", rocet), ("pirate", pirate), ("pf2e", pf2e)])
def test_no_refusal_names_a_sealed_value_or_a_hand(client, anonymous, gm_service, ruleset, drive):
    module = importlib.import_module(f"tracker.rules.{ruleset}")
    duel, other_seat, secret = drive(client, anonymous, gm_service)
    choice = state(gm_service, duel["duel"])["sealed"]
    seen, accepted, sent, duels = [], [], 0, 1

    def post(door: str, name: str, data: dict):
        nonlocal sent
        sent += 1
        language = "es" if sent % 2 else "en"
        if door == "gm":
            version = gm_service.version(f"duel-{duel['duel']}")
            answer = client.post(f"/duels/{duel['duel']}/do/{name}?lang={language}", headers={"HX-Request": "true"},
                                 data={**data, "expected_version": version})
        else:
            answer = anonymous.post(f"{other_seat}/do/{name}?lang={language}", headers={"HX-Request": "true"},
                                    data={**data, "duel_id": duel["duel"], "command_id": f"scan{sent}"})
        assert answer.status_code < 500, (door, name, data)
        for message in refusals(answer):
            seen.append(message)
            assert not leaks(message, secret, data), (door, name, data, language, message, accepted)
        return answer.status_code < 400

    for _ in range(3):  # the list again after a command went through: the duel has moved on, still sealed
        went_through = False
        for name, command in module.COMMANDS.items():
            if name in ENDINGS:
                continue
            doors = ["gm", "seat"] if name in getattr(module, "SEAT_COMMANDS", {}) else ["gm"]
            for door in doors:
                for data in tries(command, secret):
                    before = gm_service.version(f"duel-{duel['duel']}")
                    post(door, name, data)
                    if gm_service.version(f"duel-{duel['duel']}") == before:
                        continue
                    if sealed_still(gm_service, duel, choice):
                        went_through = True
                        accepted.append(name)  # and the scan goes on from here
                    else:  # the choice is revealed or the duel over: seal a fresh duel
                        duel, other_seat, secret = drive(client, anonymous, gm_service)
                        choice, duels = state(gm_service, duel["duel"])["sealed"], duels + 1
            post("seat", name, {f.name: candidates(f, secret)[0] for f in getattr(command, "FIELDS", ())})
        if not went_through:
            break
    assert len(seen) > 50  # the scan read refusals, not silence
    assert duels < 30, "almost every command revealed the choice: the scan stayed on fresh duels"
