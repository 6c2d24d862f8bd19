"""The legal-actions contract, for every ruleset and kind (issue 28): random reachable duels
(with a player's seat and without, sealed and open, server and typed dice); at every state each
offered action, with each declared choice, default and bound of each field, is accepted by the
rules; an action not offered is refused; and "the first action, with the first choice of each
field, server dice" plays every kind to its end."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.fuzz.test_retraction_properties import SETUPS
from tests.legal_play import apply, decide, first_command, offered, refusal, start, variants
from tracker import rules
from tracker.rules.base import Invalid, Refused

ENDINGS = {"Yield", "Disqualify", "Abandon"}
KINDS = [(module.NAME, i) for module in rules.shipped() for i in range(len(SETUPS[module.NAME]))]

# Lies still open (issue 28), each a rules bug rather than an offer to narrow; kept visible here
# so the property test stays strict about everything else. None is left: PF2e's seat d20 is set
# aside with its sealed skill, and Rocèt's seat dice are checked against the side's own dice.
OPEN_LIES: tuple[str, ...] = ()


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(kind=st.sampled_from(KINDS), seats=st.booleans(), seed=st.integers(0, 2**16))
def test_every_offered_step_is_accepted(kind, seats, seed):
    name, index = kind
    module, rng = rules.get(name), random.Random(seed)
    state, at = start(module, SETUPS[name][index], seats=seats, seed=seed), 100
    lies = []
    for step in range(25):
        if state.get("outcome"):
            break
        accepted = []
        for action in offered(module, state):
            for typed in (None, rng):
                for what, raw in variants(action, typed):
                    problem, used = refusal(module, state, action, what, raw, seed=step)
                    if problem is None:
                        accepted.append((action["type"], used))
                    elif not any(known in f"{action['type']} {problem}" for known in OPEN_LIES):
                        lies.append(f"step {step}: {action['type']} {what}: {problem}")
        moves = [a for a in accepted if a[0] not in ENDINGS] or accepted
        chosen, raw = rng.choice(moves)
        state, at = apply(module, state, decide(module, state, chosen, raw, seed=step), at)
    assert not lies, "\n".join(lies[:10])


@pytest.mark.parametrize("name,index", KINDS)
def test_the_first_action_with_its_first_choices_finishes_every_kind(name, index):
    module = rules.get(name)
    state, at = start(module, SETUPS[name][index], seats=False, seed=index), 100
    for _ in range(400):
        if state.get("outcome"):
            return
        action = offered(module, state)[0]
        assert action["type"] not in ENDINGS, f"only an ending is offered first: {action['type']}"
        state, at = apply(module, state, decide(module, state, action["type"], first_command(action)), at)
    pytest.fail(f"{name} {SETUPS[name][index]} did not end in 400 steps of the first-action policy")


@pytest.mark.parametrize("name,index", KINDS)
def test_every_offered_roll_is_a_dice_expression_and_the_dice_always_rolled_are_its_dice(name, index):
    """A client that rolls its own dice reads ``rolls``: each a valid expression, made always, on a
    hit or on a miss; the sizes in ``dice`` are those of the rolls made always, in order."""
    from tracker.rules import dice_expr, legal

    module = rules.get(name)
    state, at = start(module, SETUPS[name][index], seats=False, seed=index), 100
    seen = 0
    for _ in range(60):
        if state.get("outcome"):
            break
        actions = offered(module, state)
        for action in actions:
            for spec in action["fields"].values():
                for made in spec.get("rolls", ()):
                    assert dice_expr.check(made["expression"]) and made["when"] in legal.ROLL_WHEN
                    seen += 1
                always = [size for made in spec.get("rolls", ()) if made["when"] == "always"
                          for size in dice_expr.sizes(made["expression"])]
                if spec.get("rolls") and "dice" in spec:
                    assert spec["dice"] == always, (action["type"], spec)
        state, at = apply(module, state, decide(module, state, actions[0]["type"], first_command(actions[0])), at)
    # Rocèt's dice are the duellists' own DES and INT (`dice` alone says them); a sealed exchange
    # the server throws shows the GM no blow to roll.
    if name != "rocet" and SETUPS[name][index].get("choices") != "sealed":
        assert seen, f"{name} {SETUPS[name][index]}: no roll offered"
