"""The legal next actions of a PF2e duel as data (see ``tracker.rules.legal``): the commands
``view.actions`` names, each field narrowed by ``board.choices``, what the GM's forms offer."""
from __future__ import annotations

from tracker.rules.legal import GM, offer, roll

from .board import choices
from .commands import COMMANDS, _counter_side
from .ending import knocked_out
from .table import contenders, initiative_skills, stats
from .view import actions


def legal_actions(state: dict, audience: str) -> list[dict]:
    """What ``audience`` may send now: the GM everything legal; nobody else anything (yet)."""
    if audience != GM:
        return []
    offered = choices(state)
    return [_offer(state, offered, name) for name in actions(state)]


def _side(state: dict, who: str | None) -> str | None:
    return next((d["side"] for d in state["duelists"] if d["id"] == who), None)


def _offer(state: dict, offered: dict, name: str) -> dict:
    command, turn = COMMANDS[name], offered["turn"]
    ids = lambda rows: [row["id"] for row in rows]  # noqa: E731
    if name == "RollInitiative":
        rolling = offered["initiative"]
        skills = sorted({s["skill"] for d in rolling for s in d["skills"]})
        return offer(command, name, dice={"dice_roll": [20]}, duelist=ids(rolling), skill=skills,
                     rolls={"dice_roll": [roll("initiative", "1d20")]}, depends={"skill": ["duelist"]})
    if name == "ChooseSkill":
        # Who has not chosen yet, this round; where the seats roll, the chooser types their d20.
        chosen = state.get("sealed") or {}
        waiting = sorted(contenders(state), key=lambda i: i in chosen)  # who has not chosen, first
        by_seat = state["settings"].get("dice_by") == "seats"
        return offer(command, name, duelist=waiting, round=[state["round"]],
                     skill=list(initiative_skills(state["kind"])), needed=("dice_roll",) if by_seat else (),
                     dice={"dice_roll": [20]} if by_seat else None)
    if name == "BreakTie":
        return offer(command, name, first=ids(offered["tied"]))
    if name == "Strike":
        return offer(command, name, for_side=_side(state, turn), dice={"dice_attack": [20]},
                     rolls={"dice_attack": [roll("attack", "1d20")],
                            "dice_damage": [roll("damage", stats(state, turn)["damage"], "hit")]},
                     attacker=[turn], target=ids(offered["targets"]),
                     reaction=[""] + [r["value"] for r in offered["reactions"]])
    if name == "CastSpell":
        # A slot's rank while one is left, else a cantrip (of any rank); never more actions than are left.
        ranks = [int(r) for r in offered["slots"]]
        # Defaults a client without a spell of its own sends: Force Barrage, two missiles for two
        # actions (1d4+1 each), a spell of every arcane or occult caster's list.
        return offer(command, name, for_side=_side(state, turn), caster=[turn], target=ids(offered["targets"]),
                     rank=ranks or list(range(1, 11)), cantrip=[False, True] if ranks else [True],
                     actions=[n for n in (2, 1, 3) if n <= offered["actions_left"]],
                     defaults={"spell": "Force Barrage", "damage_expr": "2d4+2"},
                     rolls={"dice_damage": [roll("damage", "2d4+2", "hit")]},
                     depends={"damage_expr": ["actions"], "dice_damage": ["damage_expr"]})
    if name == "DuelingCounter":
        counters = offered["counters"]
        ranks = sorted({int(r) for c in counters for r in c["slots"]})
        return offer(command, name, for_side=_side(state, counters[0]["id"]) if counters else None,
                     duelist=ids(counters), slot_rank=ranks, rolls=_pending_damage(state, check=True))
    if name in ("Demoralize", "Feint"):
        # Demoralize only a target not yet immune to this duelist's.
        targets = offered["demoralize"] if name == "Demoralize" else offered["targets"]
        return offer(command, name, for_side=_side(state, turn), dice={"dice_check": [20]},
                     rolls={"dice_check": [roll("check", "1d20")]}, duelist=[turn], target=ids(targets))
    if name == "OtherAction":
        costs = [c for c in ("1", "2", "3") if int(c) <= offered["actions_left"]] + ["0"]
        return offer(command, name, for_side=_side(state, turn), duelist=[turn], cost=costs,
                     depends={"check_modifier": ["dc"]})
    if name == "DeclineCounter":
        return offer(command, name, for_side=_counter_side(state, {}), rolls=_pending_damage(state))
    if name in ("DeceptiveSidestep", "DeclineSidestep"):
        return offer(command, name, for_side=_side(state, state["pending"]["target"]),
                     rolls=_pending_damage(state, check=name == "DeceptiveSidestep"))
    if name == "ChangeTraditionFocus":
        return offer(command, name, for_side=_side(state, turn), duelist=[turn],
                     tradition=[f["value"] for f in offered["new_focus"]])
    if name in ("EndTurn", "ActSecond"):
        fields = {"duelist": [turn]} if name == "EndTurn" else {}
        return offer(command, name, for_side=_side(state, turn), **fields)
    if name == "Tag":
        return offer(command, name, side=[tag["side"] for tag in offered["tag_sides"]])
    if name == "ConfirmVictory" and state["proposal"]:
        return offer(command, name, for_side=state["proposal"]["side"], side=[state["proposal"]["side"]])
    if name == "ConfirmVictory" and knocked_out(state) is not None:  # [assumed] a declined knockout, still standing
        return offer(command, name, for_side=knocked_out(state), side=[knocked_out(state)])
    if name == "SetCondition":
        return _set_condition(state, command)
    return offer(command, name)


def _pending_damage(state: dict, check: bool = False) -> dict:
    """The rolls of a command that settles a pending Strike or spell: the new d20 (a Deceptive
    Sidestep's attack, a counter's check) and the damage it deals if it lands."""
    pending = state.get("pending") or {}
    found = {}
    if check:
        found["dice_attack" if pending.get("kind") == "strike" else "dice_check"] = [
            roll("attack" if pending.get("kind") == "strike" else "check", "1d20")]
    expression = (stats(state, pending["attacker"])["damage"] if pending.get("kind") == "strike"
                  else pending.get("damage_expr"))
    if expression:
        found["dice_damage"] = [roll("damage", expression, "hit")]
    return found


def _set_condition(state: dict, command: type) -> dict:
    """Any duelist, any condition; the values that change the first duelist's frightened (another
    duelist or condition takes the values that change theirs: the value depends on both)."""
    first = state["duelists"][0]["id"]
    held = state["frightened"][first]
    return offer(command, "SetCondition", duelist=ids_of(state), condition=["frightened", "off_guard"],
                 value=[v for v in (1, 2, 3, 4, 0) if v != held], depends={"value": ["duelist", "condition"]})


def ids_of(state: dict) -> list[str]:
    return [d["id"] for d in state["duelists"]]
