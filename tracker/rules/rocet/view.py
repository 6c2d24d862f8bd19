"""What a Rocèt duel shows: the legal actions, the public state, its progress, its assumptions and rolls."""
from __future__ import annotations

from tracker.rules.duel import ENDING_COMMANDS
from tracker.rules.rocet.results import roll_rows
from tracker.rules.rocet.terms import BEATS
from tracker.rules.text import Text, t

ENDINGS = list(ENDING_COMMANDS)


def actions(state: dict) -> list[str]:
    """The command names legal now."""
    if state["outcome"]:
        return []
    damage, down = state["pending_damage"], state["pending_down"]
    if state.get("tie"):
        return ["RerollTie"] + ENDINGS
    if damage and damage["win"]:
        return ["DealDamage", "DeclineDamage"] + ENDINGS
    if down:
        confirm = ["ConfirmDeath"] if state["variant"] == "a_muerte" else ["ConfirmUnconscious", "ConfirmDeath"]
        return confirm + ENDINGS
    # The damage on offer before the next turn: a client taking the first action deals it (and so
    # ends a duel to the death) rather than playing on past it.
    owed = ["DealDamage", "DeclineDamage"] if damage else []
    if state["pending_discard"]:
        return ["Discard"] + owed + ENDINGS
    return owed + _turn_actions(state) + ENDINGS


def _turn_actions(state: dict) -> list[str]:
    if not all(side["hand_size"] for side in state["sides"].values()):
        return []  # no card to play (the draw for it comes with what is still to settle)
    if state["settings"].get("choices") != "sealed":
        return ["PlayTurn"]
    # Both chosen: turning them over comes first (a choice may still be changed, after it).
    return ["RevealCards", "ChooseCard"] if len(state.get("sealed") or {}) == 2 else ["ChooseCard"]


def seat_actions(state: dict, side: str) -> list[str]:
    """What ``side``'s seat may do now: choose its card, discard, take or decline its damage."""
    if state["outcome"] or state["settings"].get("choices") != "sealed":
        return []
    legal = actions(state)
    damage = state["pending_damage"] or {}
    mine = {"ChooseCard": True, "Discard": state["pending_discard"] == side,
            "DealDamage": damage.get("side") == side, "DeclineDamage": damage.get("side") == side}
    return [name for name in legal if mine.get(name)]


def last_rolls(state: dict) -> list[dict]:
    """The last turn's opposed rolls, for the page: each side's dice, Ventaja, total and mark.

    Every row but the last is a tie that was rerolled; ``result`` is "a", "b" or "tie".
    """
    last = state.get("last_turn")
    if not last:
        return []
    return roll_rows(last["rolls"], last["advantage"])


def beats(card: str) -> str:
    """The card ``card`` gets Ventaja against."""
    return BEATS[card]


def assumptions(state: dict) -> list[Text]:
    """Every rule this duel runs under that the seed leaves open (inferred or assumed), as set."""
    s, variant = state["settings"], state["variant"]
    found = [
        t("Where Rocèt is silent, Fabula Ultima's rules apply: a roll is the DES die plus the INT die "
          "(+4 with Ventaja); a tie is rerolled; a double of 6 or more is a critical and beats any roll but "
          "another critical; double 1s are a fumble and lose to any roll but another fumble; TA is the "
          "higher die of the winner's roll."),
        t("The Ventaja cycle's sixth card, printed as a second Estocada Profunda, is read as Insulto "
          "(Insulto beats Finta)."),
        t("PG damage dealt “the usual way” is TA + the weapon's fixed damage."),
    ]
    if s["reshuffle"]:
        found.append(t("When a pile runs out, its discards are shuffled into a new pile."))
    else:
        found.append(t("When a pile runs out, nobody draws from it again (no reshuffle)."))
        found.append(t("A duelist left with no card to play ends the duel: a draw, the cards ran out."))
    found.append(t("A forced discard from an empty hand does nothing."))
    found.append(t("The cards played in a turn go to the discards once the turn is resolved, "
                   "after both duelists drew back up to three."))
    if variant in ("relojes", "a_muerte"):
        found.append(t("A clock never goes below 0.") if s["clock_floor"]
                     else t("A clock may go below 0 (Insulto can leave it in debt)."))
    if variant == "superioridad":
        found.append(t("The superiority meter starts in the middle; a duelist wins on reaching their end, "
                       "{steps} steps out.", steps=s["meter_steps"]))
    if variant == "a_muerte":
        found.append(t("A completed clock starts again from 0.") if s["restart"] == "zero"
                     else t("A completed clock keeps the intervals past its end."))
        found.append(t("A duelist at 0 PG in a duel to the death is confirmed dead (or yields): "
                       "an unconscious duelist cannot go on."))
    found.append(t("PG and PM never go below 0: damage beyond what is left is not recorded."))
    return found


def public(state: dict) -> dict:
    """The state without secrets (as the table display sees it): no hands, no pile order, no sealed card."""
    from tracker.rules.rocet.secrecy import seen_by

    return seen_by(state, "display")


def progress(state: dict) -> Text:
    """Where the duel stands, for duel lists."""
    if state["outcome"]:
        return t("Over after turn {turn}", turn=state["turn"]) if state["turn"] else t("Over")
    return t("Turn {turn}", turn=state["turn"]) if state["turn"] else t("Before the first turn")
