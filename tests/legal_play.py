"""Duels played from their legal actions alone, as a client written from the description plays
them: the pure rules, no server. ``variants`` is every command an offered action promises (each
declared choice, default and bound of each field); ``refusals`` tries each of them on a state."""
from __future__ import annotations

import random
from typing import Any, Iterator

from tracker import rules
from tracker.rules import legal
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import Dice
from tracker.rules.fields import parse_command

SHEETS = {module.NAME: module.samples.DUELISTS for module in rules.shipped()}


def start(module, setup: dict, *, seats: bool, seed: int) -> dict:
    """A fresh duel of ``module`` between its sample duelists under ``setup``: with ``seats`` the
    first is a player's character (a seat in a sealed duel), else both are the GM's."""
    duelists = []
    for i, (side, sheet) in enumerate(zip("ab", SHEETS[module.NAME])):
        stats = module.validate_stats(sheet["stats"][module.NAME])
        duelists.append({"id": f"c{side}", "name": sheet["name"], "side": side,
                         "rank": "pj" if seats and i == 0 else "villano", "stats": stats,
                         "current": {t["track"]: stats.get(t["max_stat"], 0) for t in module.TRACKS}})
    header = {"duel_id": "d1", "campaign_id": "c", "session_id": "s", "stakes": "", "judge": "",
              "challenger": ""}
    rng = random.Random(seed)
    dice = Dice({}, source=lambda sides: rng.randint(1, sides), shuffle=lambda n: rng.sample(range(n), n))
    state = None
    for at, event in enumerate(module.start(header, setup, duelists, dice), start=1):
        state = module.evolve(state, event, at)
    return state


def first_value(spec: dict) -> Any:
    """What a client fills a field with from its description: the first choice, else the default,
    else the lowest bound, else nothing (server dice, an optional text) or a word (a required text)."""
    if spec.get("choices"):
        return spec["choices"][0]
    if spec["kind"] == "dice" and spec.get("required") and spec.get("dice"):
        return [1 for _ in spec["dice"]]  # dice the rules need typed (a seat's): the lowest faces
    if "default" in spec:
        return spec["default"]
    if spec["kind"] == "int" and spec.get("required") and "minimum" in spec:
        return spec["minimum"]
    if spec["kind"] in ("text", "character") and spec.get("required"):
        return "Force Barrage"
    return None


def first_command(action: dict) -> dict:
    """The action with the first value of each field, the server rolling."""
    command = {name: first_value(spec) for name, spec in action["fields"].items()}
    if "server_roll" in command:
        command["server_roll"] = True
    return command


def variants(action: dict, rng: random.Random | None = None) -> Iterator[tuple[str, dict]]:
    """Each command the action promises, with what it varies: the first values, then each choice,
    the default and each bound of every field, the others left at their first; with typed dice
    (``rng``) each dice field gets values of its declared sizes instead of the server's roll."""
    base = first_command(action)
    if rng is not None and any("dice" in spec for spec in action["fields"].values()):
        for name, spec in action["fields"].items():
            if "dice" in spec:
                base[name] = [rng.randint(1, size) for size in spec["dice"]]
    yield "first", base
    for name, spec in action["fields"].items():
        if name == "server_roll":
            continue  # where the dice come from, not a value the rules judge
        values = list(spec.get("choices", []))
        if "default" in spec:
            values.append(spec["default"])
        if spec["kind"] == "int" and not spec.get("choices"):
            values += [spec[bound] for bound in ("minimum", "maximum") if bound in spec]
        for value in values:
            if value != base[name]:
                yield f"{name}={value!r}", {**base, name: value}


def decide(module, state: dict, name: str, raw: dict, seed: int = 0) -> list:
    """The events the rules decide for the command, or raise Invalid/Refused as the API would
    (dice typed beyond what the rules used included)."""
    rng = random.Random(seed)
    parsed = parse_command(module.COMMANDS[name], raw)
    typed = {k[5:]: v for k, v in vars(parsed).items() if k.startswith("dice_") and v}
    dice = Dice(typed, source=(lambda sides: rng.randint(1, sides)) if getattr(parsed, "server_roll", False) else None,
                shuffle=lambda n: rng.sample(range(n), n))
    events = module.decide(state, parsed, dice)
    if dice.leftover():
        raise Refused(f"dice left over: {dice.leftover()}")
    return events


def offered(module, state: dict) -> list[dict]:
    """The GM's legal actions, as the API's duel read computes them."""
    return module.legal_actions(module.seen_by(state, "api"), legal.GM)


def apply(module, state: dict, events: list, at: int) -> tuple[dict, int]:
    for event in events:
        at += 1
        state = module.evolve(state, event, at)
    return state, at


def refusal(module, state: dict, action: dict, varied: str, raw: dict, seed: int = 0) -> tuple:
    """(None, the command accepted) when the rules accept the command ``varied`` from the action's first values; else
    (their refusal, None). A field whose choices depend on the varied one is free to take any value its
    command declares (a client asks again, or reads the rules), as ``depends_on`` promises."""
    try:
        decide(module, state, action["type"], raw, seed)
        return None, raw
    except (Invalid, Refused) as problem:
        refused = problem
    field = varied.split("=")[0]
    for name, spec in action["fields"].items():
        if field not in spec.get("depends_on", ()) and name not in action["fields"].get(field, {}).get("depends_on", ()):
            continue
        declared = next(f for f in module.COMMANDS[action["type"]].FIELDS if f.name == name)
        values = [v for v, _ in declared.choices] or (
            list(range(declared.minimum, declared.maximum + 1)) if declared.kind == "int" else
            [None])
        if declared.kind == "dice" and spec.get("dice"):
            values = [[1] * len(spec["dice"])]
        for value in values:
            try:
                decide(module, state, action["type"], {**raw, name: value}, seed)
                return None, {**raw, name: value}
            except (Invalid, Refused):
                continue
    return refused, None
