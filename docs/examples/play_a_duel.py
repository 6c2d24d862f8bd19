"""Play a duel of every ruleset and kind to its end, choosing only from the legal actions offered.

Written from docs/api.md and /api/v1/openapi.json alone, with the standard library: no Touché
import. For each ruleset it creates a campaign and a session, then for each kind of duel two
characters and the duel, and plays it as docs/api.md promises a duel can be played: the first
legal action, each field at its first choice (else its default, else its lowest bound), and
``server_roll: true`` wherever there are dice (a die the rules need typed, a seat's, at its lowest
face). Each command's answer carries the next legal actions and version, so a step is one request.
A command refused (any 4xx) is a *refused offer*: the promise broken. A 429 is waited out as its
``Retry-After`` says and sent again, and the ``RateLimit-*`` headers are followed so it rarely comes.

    TOUCHE_URL=http://127.0.0.1:5000 TOUCHE_TOKEN=… python docs/examples/play_a_duel.py [--json]

It prints, per kind, the requests sent, the steps, the refused offers and how the duel ended,
then the totals; ``--json`` prints the same as one JSON object. Exit status 1 when an offer was
refused or a duel did not end.
"""
from __future__ import annotations

import itertools
import json
import os
import sys
import time
import urllib.error
import urllib.request

ENDINGS = {"Yield", "Disqualify", "Abandon"}
MAX_STEPS = 400

# The set-ups, from each ruleset's commands page (docs/commands/<ruleset>.md): every kind with the
# options that change how it is played (virtual or physical cards, a shared deck or one each, short
# and long clocks; sealed choices, revealed at once or on the GM's press, with the server's, the
# seats' or the table's dice).
KINDS = {
    "rocet": [{"kind": kind, "cards": cards, "deck": deck, "weapon_type": "Espada", "clock_size": size,
               "meter_steps": size}
              for kind in ("relojes", "primera_sangre", "superioridad", "a_muerte")
              for cards in ("virtual", "physical") for deck in ("shared", "own") for size in (6, 24)]
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

# Two duellists per ruleset, their sheets as the commands pages give them: a player's character
# against an NPC. No player holds a seat here, so the bot plays both sides, as a GM does for a
# player who has no phone: a player character with no live seat is the GM's to play, sealed
# duels included (docs/table.md).
SHEETS = {
    "rocet": [
        {"name": "Inés de Ayala", "rank": "pj",
         "stats": {"rocet": {"des": "d10", "int": "d8", "pg_max": 40, "pm_max": 35,
                             "weapons": "Espada ropera | Espada | 3\nDaga de vizcaína | Daga | 1"}}},
        {"name": "Lope Calatrava", "rank": "villano",
         "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 45, "pm_max": 30,
                             "weapons": "Espada de lazo | Espada | 2\nPuñal | Daga | 1"}}}],
    "pirate": [
        {"name": "Capitana Mara Sal", "rank": "pj",
         "stats": {"pirate": {"atq": 5, "def": 14, "pv": 22, "comunicacion": 6, "sab": 13, "car": 16, "iniciativa": 3,
                              "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}}},
        {"name": "Barbanegra Jr.", "rank": "villano",
         "stats": {"pirate": {"atq": 4, "def": 13, "pv": 18, "comunicacion": 3, "sab": 11, "car": 12, "iniciativa": 2,
                              "weapons": "Alfanje | sword | 1d8\nPistola larga | pistol | 1d10 | 20"}}}],
    "pf2e": [
        {"name": "Seelah Ashcourt", "rank": "pj",
         "stats": {"pf2e": {"level": 5, "hp_max": 68, "ac": 22, "attack_bonus": 13, "weapon": "Rapier",
                            "damage": "1d6+4", "deception": 11, "deception_rank": "expert", "intimidation": 9,
                            "intimidation_rank": "trained", "perception": 10, "perception_rank": "trained",
                            "arcana": 4, "arcana_rank": "untrained", "nature": 3, "nature_rank": "untrained",
                            "occultism": 4, "occultism_rank": "untrained", "religion": 6, "religion_rank": "trained",
                            "spell_dc": 19, "spell_slots": "1:2, 2:1"}}},
        {"name": "Baron Vex", "rank": "elite",
         "stats": {"pf2e": {"level": 5, "hp_max": 75, "ac": 21, "attack_bonus": 14, "weapon": "Longsword",
                            "damage": "1d8+4", "deception": 8, "deception_rank": "trained", "intimidation": 12,
                            "intimidation_rank": "expert", "perception": 11, "perception_rank": "trained",
                            "arcana": 10, "arcana_rank": "trained", "nature": 2, "nature_rank": "untrained",
                            "occultism": 3, "occultism_rank": "untrained", "religion": 3, "religion_rank": "untrained",
                            "spell_dc": 20, "spell_slots": "1:3, 2:2"}}}],
}


class Refused(Exception):
    """The API answered a command with a 4xx problem."""

    def __init__(self, status: int, problem: dict):
        super().__init__(f"{status} {problem.get('detail') or problem}")
        self.status, self.problem = status, problem


class Api:
    """The JSON API at ``url`` with a GM's token: counts its requests, waits out its rate limit."""

    def __init__(self, url: str, token: str):
        self.base, self.token, self.requests = url.rstrip("/") + "/api/v1", token, 0

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        while True:
            request = urllib.request.Request(self.base + path, data=data, method=method, headers={
                "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    self._pace(answer.headers)
                    return json.load(answer)
            except urllib.error.HTTPError as error:
                problem = json.loads(error.read() or b"{}")
                if error.code == 429:  # nothing was run: wait as told, then send the same again
                    time.sleep(float(error.headers.get("Retry-After") or 1))
                    continue
                raise Refused(error.code, problem) from None

    @staticmethod
    def _pace(headers) -> None:
        """At the window's last request, wait for the next window rather than meet a 429."""
        if headers.get("RateLimit-Remaining") == "0":
            time.sleep(float(headers.get("RateLimit-Reset") or 1))

    def send(self, **command) -> dict:
        return self.call("POST", "/commands", command)


def first_value(field: dict):
    """A field's first value as docs/api.md promises it legal: the first choice, else the default,
    else the lowest bound; a die the rules need typed at its lowest face; None to leave it out."""
    if field.get("choices"):
        return field["choices"][0]
    if field["kind"] == "dice" and field.get("required") and field.get("dice"):
        return [1] * len(field["dice"])
    if "default" in field:
        return field["default"]
    if field["kind"] == "int" and field.get("required") and "minimum" in field:
        return field["minimum"]
    if field["kind"] in ("text", "character") and field.get("required"):
        return "Force Barrage"  # a name the rules take as is (a spell's)
    return None


def first_command(duel: str, version: int, action: dict) -> dict:
    command = {"type": action["type"], "duel_id": duel, "expected_version": version}
    for name, field in action["fields"].items():
        value = first_value(field)
        if value is not None:
            command[name] = value
    if "server_roll" in action["fields"]:
        command["server_roll"] = True
    return command


def play(api: Api, session: str, ruleset: str, campaign: str, setup: dict) -> dict:
    """One duel of ``setup`` between two new characters, played to its end; its figures."""
    start = api.requests
    people = [api.send(type="CreateCharacter", campaign_id=campaign, **sheet)["id"] for sheet in SHEETS[ruleset]]
    answer = api.send(type="StartDuel", session_id=session, ruleset=ruleset, setup=setup,
                      duelists=[{"character_id": who, "side": side} for who, side in zip(people, "ab")])
    duel, steps, refused, ended_by_first = answer["id"], 0, [], None
    while answer["status"] != "over" and steps < MAX_STEPS:
        action = answer["legal_actions"][0]
        if action["type"] in ENDINGS:
            ended_by_first = action["type"]  # only an ending is offered first: the promise fails
        command = first_command(duel, answer["current_version"], action)
        steps += 1
        try:
            answer = api.send(**command)
        except Refused as no:
            refused.append(f"{command['type']}: {no}")
            break  # the same state would offer the same refused step again
    read = api.call("GET", f"/duels/{duel}")
    return {"ruleset": ruleset, "setup": setup, "duel": duel, "requests": api.requests - start, "steps": steps,
            "refused": len(refused), "refusals": refused, "ended": read["status"] == "over",
            "ending": read.get("ending"), "winner": read.get("winner"), "first_was_an_ending": ended_by_first}


def play_every_kind(api: Api) -> dict:
    """A campaign and a session per ruleset, then every kind's duel; the figures of each and in all."""
    began, duels = time.monotonic(), []
    for ruleset, setups in KINDS.items():
        campaign = api.send(type="CreateCampaign", name=f"Every {ruleset} duel", ruleset=ruleset)["id"]
        session = api.send(type="PlanSession", campaign_id=campaign, number=1, date="2026-12-03",
                           title="Every kind")["id"]
        duels += [play(api, session, ruleset, campaign, setup) for setup in setups]
    return {"duels": duels, "kinds": len(duels), "requests": api.requests,
            "steps": sum(d["steps"] for d in duels), "refused": sum(d["refused"] for d in duels),
            "ended": sum(d["ended"] for d in duels), "seconds": round(time.monotonic() - began, 1)}


def _kind(setup: dict) -> str:
    return " ".join(f"{key}={value}" for key, value in setup.items() if key not in ("weapon_type", "second_a",
                                                                                      "second_b"))


def report(figures: dict) -> str:
    lines = [f"{'ruleset':7} {'requests':>8} {'steps':>5} {'refused':>7} {'ended':>5}  kind"]
    for d in figures["duels"]:
        lines.append(f"{d['ruleset']:7} {d['requests']:>8} {d['steps']:>5} {d['refused']:>7} "
                     f"{'yes' if d['ended'] else 'NO':>5}  {_kind(d['setup'])}" + (f"  ({d['ending']})" if d["ending"] else ""))
        lines += [f"        refused: {why}" for why in d["refusals"]]
    for ruleset, group in itertools.groupby(figures["duels"], key=lambda d: d["ruleset"]):
        group = list(group)
        lines.append(f"{ruleset}: {len(group)} kinds, {sum(d['requests'] for d in group)} requests, "
                     f"{sum(d['refused'] for d in group)} refused, {sum(d['ended'] for d in group)} ended")
    lines.append(f"all: {figures['kinds']} kinds, {figures['requests']} requests, {figures['steps']} steps, "
                 f"{figures['refused']} refused offers, {figures['ended']} of {figures['kinds']} ended, "
                 f"{figures['seconds']} s")
    return "\n".join(lines)


def main() -> int:
    api = Api(os.environ.get("TOUCHE_URL", "http://127.0.0.1:5000"), os.environ["TOUCHE_TOKEN"])
    figures = play_every_kind(api)
    print(json.dumps(figures) if "--json" in sys.argv[1:] else report(figures))
    return 0 if figures["refused"] == 0 and figures["ended"] == figures["kinds"] else 1


if __name__ == "__main__":
    sys.exit(main())
