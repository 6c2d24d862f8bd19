"""What a Pathfinder 2e duel shows: the players' view, its progress, the legal actions and the
assumptions it runs under (what the page draws is in ``board``)."""
from __future__ import annotations

from .ending import knocked_out
from .results import public_line, secret_line
from .setup import judge_name
from .sheet import SKILL_OF_TRADITION, trained
from .table import can_react, able, actions_left, contenders, name, opponents
from .terms import TEAMS, VICTORIES
from tracker.rules.text import Text, t

ATTACKER_REACTIONS = ("bullying_press", "sense_weakness")  # declared before the attacker's own Strike
SECRET_KEYS = ("reaction", "reacted", "readied", "focus", "refocus", "pending", "usual_skill", "sealed", "sealed_dice")


def public(state: dict) -> dict:
    """The state without initiative skills (nor what they grant) and without pending reactions."""
    view = {k: v for k, v in state.items() if k not in SECRET_KEYS}
    view["rolls"] = {who: {"total": roll["total"]} for who, roll in state["rolls"].items()}
    view["waiting"] = state["pending"] is not None
    view["history"] = [public_line(line) for line in state["history"] if not secret_line(line)]
    return view


def progress(state: dict) -> Text:
    if state.get("outcome"):
        return t("Over, escalated to combat") if state["escalated"] else t("Over")
    if state["proposal"]:
        return t("Round {round}, the judge must confirm", round=state["round"])
    if state["turn"]:
        return t("Round {round}, {name}'s turn", round=state["round"], name=name(state, state["turn"]))
    if state["phase"] == "ordering":
        return t("Round {round}, initiative tie", round=state["round"])
    return t("Round {round}, initiative", round=state["round"])


def actions(state: dict) -> list[str]:
    """The commands legal right now: the table's, then a condition set by hand (any time it runs)."""
    legal = _legal(state)
    return legal if state.get("outcome") else legal + ["SetCondition"]


def _legal(state: dict) -> list[str]:
    """The commands the table's moment allows."""
    if state.get("outcome"):
        return [] if state["escalated"] else ["EscalateToCombat"]
    endings = ["Yield", "Disqualify", "Abandon"]
    if state["proposal"]:
        return ["ConfirmVictory", "DeclineVictory"] + endings
    if knocked_out(state) is not None:  # [assumed] a declined knockout the judge may still confirm
        return ["ConfirmVictory"] + _legal_moves(state) + endings
    return _legal_moves(state) + endings


def _legal_moves(state: dict) -> list[str]:
    """The moves of the table's moment, no ending."""
    pending = state["pending"]
    if pending:
        return ["DeceptiveSidestep", "DeclineSidestep"] if pending["kind"] == "strike" else \
            ["DuelingCounter", "DeclineCounter"]
    moves = []
    if state["phase"] == "initiative":
        moves += _initiative_actions(state)
    elif state["phase"] == "ordering":
        moves.append("BreakTie")
    elif state["turn"]:
        moves += _turn_actions(state, state["turn"])
    if state["active"] is not None and _can_tag(state):
        moves.append("Tag")
    if state["settings"]["victory"] == "custom":
        moves.append("ConfirmVictory")
    return moves


def _initiative_actions(state: dict) -> list[str]:
    if state["settings"].get("choices") != "sealed":
        return ["RollInitiative"]
    everyone = set(contenders(state)) <= set(state.get("sealed") or {})
    # Everyone chosen: revealing comes first (a choice may still be changed, after it).
    return ["RevealSkills", "ChooseSkill"] if everyone else ["ChooseSkill"]


def seat_actions(state: dict, side: str) -> list[str]:
    """What ``side``'s seat may do now: choose its secret skill, answer a reaction prompt."""
    if state.get("outcome") or state["settings"].get("choices") != "sealed":
        return []
    legal = actions(state)
    mine = {d["id"] for d in state["duelists"] if d["side"] == side}
    pending = state.get("pending") or {}
    found = []
    if "ChooseSkill" in legal and mine & set(contenders(state)):
        found.append("ChooseSkill")
    if pending.get("kind") == "strike" and pending.get("target") in mine:
        found += ["DeceptiveSidestep", "DeclineSidestep"]
    if pending.get("kind") == "spell" and pending.get("caster") not in mine:
        found += ["DuelingCounter", "DeclineCounter"]
    turn = state.get("turn")
    # The attacker's own dueling reaction, before a Strike (a seat's view has no pending hit, only "waiting").
    if turn in mine and "Strike" in legal and not state.get("waiting"):
        if (state.get("readied") or {}).get(turn):
            found.append("WithdrawReaction")
        elif state["reaction"].get(turn) in ATTACKER_REACTIONS and can_react(state, turn, state["reaction"][turn]):
            found.append("ReadyReaction")
    return found


def _turn_actions(state: dict, who: str) -> list[str]:
    moves = []
    if state["kind"] != "spellcasting" and not state["acted"] and state["order"][:1] == [who] \
            and len(state["order"]) > 1:
        moves.append("ActSecond")
    left = actions_left(state)
    if able(state, who) and opponents(state, who) and left:
        if state["kind"] != "spellcasting":
            moves.append("Strike")
        if state["kind"] != "combat":
            moves.append("CastSpell")
        if any([who, foe] not in state.get("demoralized", []) for foe in opponents(state, who)):
            moves.append("Demoralize")  # never against a target already immune to it
        if state["kind"] != "spellcasting":
            moves.append("Feint")
    if state["refocus"].get(who) and left and new_focus(state, who):
        moves.append("ChangeTraditionFocus")
    # A free action is always possible; offered after the turn's end, so that a client taking the
    # first action never loops on one of no cost (the page draws its forms in its own order).
    return moves + ["EndTurn"] + (["OtherAction"] if able(state, who) else [])


def new_focus(state: dict, who: str) -> list[str]:
    """The traditions ``who`` may change their focus to: trained in its skill, not the one held."""
    sheet = next(d.get("stats") or {} for d in state["duelists"] if d["id"] == who)
    return [tradition for tradition, skill in SKILL_OF_TRADITION.items()
            if trained(sheet, skill) and state["focus"].get(who) != tradition]


def _can_tag(state: dict) -> bool:
    for out in state["active"].values():
        into = next(d["id"] for d in state["duelists"] if d["side"] == _side(state, out) and d["id"] != out)
        if state["hp"][into] > 0 and (state["turn"] == out or state["hp"][out] <= 0):
            return True
    return False


def _side(state: dict, who: str) -> str:
    return next(d["side"] for d in state["duelists"] if d["id"] == who)


FEINT = t("Feint: Deception against the target's Perception DC (10 + Perception); success: off-guard against "
          "the feinter's next melee Strike this turn; critical success: against their melee Strikes until the "
          "end of the feinter's next turn; critical failure: the feinter is off-guard against the target's "
          "melee Strikes until the end of their next turn.")


DECLINED_KNOCKOUT = {
    "confirm": t("[assumed] A knockout the judge declined may still be confirmed while the side stays at 0 HP "
                 "(a setting)."),
    "fight_on": t("[assumed] A knockout the judge declined stands: only a yield, a disqualification or "
                  "abandoning ends the duel (a setting)."),
}


def assumptions(state: dict) -> list[Text]:
    """The readings this duel runs under where the source leaves room, with their settings."""
    s = state["settings"]
    victory = (t("{victory}: {text}", victory=VICTORIES[s["victory"]], text=s["victory_text"])
               if s["victory"] == "custom" else VICTORIES[s["victory"]])
    notes = [
        t("Duelists: {teams}.", teams=TEAMS[s["teams"]]),
        t("Victory condition: {victory}; the rules propose it and {judge} confirms it.", victory=victory,
          judge=judge_name(state)),
        *([DECLINED_KNOCKOUT[s.get("declined_knockout", "confirm")]] if s["victory"] == "knockout" else []),
        t("Initiative ties: an NPC acts before a PC; between two PCs or two NPCs the GM decides."),
        t("Frightened is a status penalty to attack rolls, initiative and counteract checks, AC and spell DC; "
          "it drops by 1 at the end of its holder's turn."),
        t("Each duelist has one reaction per round; reactions come back when a new round starts."),
        t("Deceptive Sidestep: a non-critical hit waits until the target uses or declines it."),
        t("Each turn has three actions: a Strike, Demoralize, Feint and Change Tradition Focus cost 1, a spell "
          "what the GM enters (2 unless told), any other action its stated cost; the GM ends the turn."),
        t("Demoralize: Intimidation against the target's Will DC (10 + Will); success frightened 1, critical "
          "success frightened 2; the target is then immune to that duelist's Demoralize for the rest of the duel "
          "(10 minutes)."),
        t("Frightened lowers skill checks and the DCs they are rolled against too."),
        t("Initiative without a chosen skill uses the duelist's usual one: the skill they last rolled in this "
          "duel, else [assumed] their best trained skill."),
        t("Multiple attack penalty applies (−5/−10, agile −4/−8).") if s["attack_penalty"]
        else t("Multiple attack penalty is off."),
    ]
    if s["kind"] != "spellcasting":
        notes.append(FEINT)
    if s["kind"] != "combat":
        notes.append(t("Counteract check: d20 + the focus skill's modifier against the caster's spell DC; the "
                       "counteract rank is the expended slot's rank.") if s["counteract_with"] == "skill"
                     else t("Counteract check: d20 + spell attack (spell DC − 10) against the caster's spell DC; the "
                            "counteract rank is the expended slot's rank."))
        notes.append(t("A spell waits while an opponent with the matching tradition focus may counter it."))
    if s["kind"] == "mixed":
        notes.append(t("Mixed duel: the tradition focus comes from that round's initiative roll and lasts the round."))
    if s["kind"] == "spellcasting":
        notes.append(t("Spellcasting duel: Strikes are not allowed; initiative holds for the whole duel."))
    if s["teams"] == "tag":
        notes.append(t("Tag teams: the first duelist listed on each side starts; tagging ends the outgoing duelist's "
                       "turn (or may be done at once when the active duelist is knocked out); the partner rolls "
                       "initiative from the next round."))
    if s["melee_only"]:
        notes.append(t("Only melee Strikes are accepted."))
    return notes
