"""A GM who plays any duel at random: picks a legal action, fills its fields from their specs,
and lets the server roll. Used to build large logs for the benchmarks (and by the fuzz tests)."""
from __future__ import annotations

import random

from tracker import rules
from tracker.rules.base import Invalid, Refused
from tracker.application.services import Service

ENDINGS = {"Yield", "Disqualify", "Abandon"}


def random_value(field, rng: random.Random):
    if field.name == "server_roll":
        return True
    if field.kind == "choice":
        return rng.choice(field.choices)[0] if field.choices else ""
    if field.kind == "bool":
        return rng.random() < 0.3
    if field.kind == "int":
        low = field.minimum if field.minimum is not None else 0
        high = field.maximum if field.maximum is not None else low + 10
        return field.default if field.default is not None and rng.random() < 0.5 else rng.randint(low, min(high, low + 10))
    if field.kind in ("text", "character"):
        return field.default or ""
    return field.default


def random_action(service: Service, duel_id: str, rng: random.Random, tries: int = 30) -> bool:
    """Log one random legal action in the duel; False when the duel is over or nothing fits."""
    version, state = service.state_of(f"duel-{duel_id}")
    if state is None or state.get("outcome"):
        return False
    module = rules.get(state["ruleset"])
    legal = [a for a in module.actions(state) if a not in ENDINGS] or []
    if not legal:
        return False
    for _ in range(tries):
        name = rng.choice(legal)
        command = {"type": name, "duel_id": duel_id, "expected_version": version}
        for field in module.COMMANDS[name].FIELDS:
            command[field.name] = random_value(field, rng)
            if field.kind == "character":
                command[field.name] = rng.choice(state["duelists"])["id"]
        hand_fields(state, command, module.COMMANDS[name].FIELDS, rng)
        try:
            service.handle(command)
            return True
        except (Invalid, Refused):
            continue
    return False


def hand_fields(state, command, fields, rng):
    """Prefer values the state suggests (a card actually in hand) to make legal moves likely."""
    hands = state.get("hands") if isinstance(state.get("hands"), dict) else None
    if not hands:
        return
    for field in fields:
        if field.kind == "choice" and field.name.startswith("card_"):
            side = field.name[-1]
            hand = hands.get(side)
            if isinstance(hand, list) and hand and isinstance(hand[0], str):
                command[field.name] = rng.choice(hand)


def play(service: Service, duel_id: str, rng: random.Random, max_actions: int = 200,
         end_with: str | None = "Yield") -> int:
    """Play up to ``max_actions`` random actions; end the duel if it still runs. Returns actions."""
    count = 0
    while count < max_actions and random_action(service, duel_id, rng):
        count += 1
    version, state = service.state_of(f"duel-{duel_id}")
    if end_with and not state.get("outcome"):
        service.handle({"type": end_with, "duel_id": duel_id, "expected_version": version,
                        "side": rng.choice("ab"), "reason": "bench"})
    return count
