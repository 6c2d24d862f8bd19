"""What the GM can tell a Pathfinder 2e duel to do: one command per table action."""
from __future__ import annotations

from tracker.rules.fields import Field, command
from tracker.rules.duel import ENDING_COMMANDS, SIDE_CHOICES

from .sheet import SKILLS, TRADITION_CHOICES

SKILL_CHOICES = tuple((s, s.capitalize()) for s in SKILLS)
REACTION_CHOICES = (("", "none"), ("bullying_press", "Bullying Press"), ("sense_weakness", "Sense Weakness"))
EFFECT_CHOICES = (("full", "full damage (failed save / hit)"), ("half", "half (successful save)"),
                  ("double", "double (critical)"), ("none", "none (critical success on the save)"))


def _who(name: str, label: str) -> Field:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    return Field(name, label, "character", required=False,
                 help="leave empty for whoever's turn it is" if name != "target" else
                 "leave empty when there is a single opponent")


SERVER_ROLL = Field("server_roll", "Let the server roll what was not typed", "bool", default=False)
DAMAGE_DICE = Field("dice_damage", "Damage dice (as rolled)", "dice", required=False,
                    help="the die faces of the damage expression, e.g. 3 5")
DAMAGE_TYPED = Field("damage", "Damage total (typed)", "int", required=False, minimum=0, maximum=999,
                     help="instead of the dice: the damage before doubling")


END_TURN = Field("end_turn", "Then end the turn", "bool", default=False)


@command
class RollInitiative:
    FIELDS = (Field("duelist", "Duelist", "character", required=False,
                    help="leave empty to roll for everyone still to roll, each with their usual skill"),
              Field("skill", "Skill (secret)", "choice", required=False, choices=SKILL_CHOICES,
                    help="leave empty for the duelist's usual skill: the one they last rolled"),
              Field("dice_roll", "d20 (as rolled)", "dice", required=False,
                    help="for everyone: one d20 per duelist, in the order the page lists them"), SERVER_ROLL)
    duelist: str | None = None
    skill: str | None = None
    dice_roll: tuple | None = None
    server_roll: bool = False


@command
class ChooseSkill:
    """A duelist's secret initiative skill for the round: from their seat, or an NPC's from the GM's page."""

    FIELDS = (Field("duelist", "Duelist", "character"),
              Field("skill", "Skill (secret)", "choice", choices=SKILL_CHOICES),
              Field("round", "For round", "int", required=False, minimum=1, maximum=100_000),
              Field("dice_roll", "Your d20", "dice", required=False,
                    help="When each seat rolls its own: the d20 as it fell, sealed with the skill"))
    duelist: str
    skill: str
    round: int | None = None
    dice_roll: tuple | None = None
    server_roll = True  # the roll the last choice triggers is the server's
    ANY_VERSION = True  # duelists choose at once: ``round``, not the stream's version, keeps a late tap out


@command
class RevealSkills:
    """The GM rolls every sealed skill (the server's d20s, or the table's typed in duelist order)."""

    FIELDS = (Field("dice_roll", "d20s (as rolled, in duelist order)", "dice", required=False), SERVER_ROLL)
    dice_roll: tuple | None = None
    server_roll: bool = False


@command
class BreakTie:
    FIELDS = (Field("first", "Who acts first", "character"),)
    first: str


@command
class ActSecond:
    FIELDS = ()


@command
class Strike:
    FIELDS = (_who("attacker", "Attacker"), _who("target", "Target"),
              Field("reaction", "Dueling reaction declared before the roll", "choice", default="",
                    choices=REACTION_CHOICES),
              Field("melee", "Melee Strike", "bool", default=True),
              Field("agile", "Agile weapon (multiple attack penalty −4/−8)", "bool", default=False),
              Field("modifier", "Other modifiers to the attack", "int", default=0, minimum=-30, maximum=30),
              Field("dice_attack", "d20 (as rolled)", "dice", required=False),
              DAMAGE_DICE, DAMAGE_TYPED, SERVER_ROLL, END_TURN)
    attacker: str | None = None
    target: str | None = None
    reaction: str = ""
    melee: bool = True
    agile: bool = False
    modifier: int = 0
    dice_attack: tuple | None = None
    dice_damage: tuple | None = None
    damage: int | None = None
    server_roll: bool = False
    end_turn: bool = False


def _skill_check_against(who: str) -> tuple:
    """The fields of a one-action skill check against an opponent's DC (Demoralize, Feint)."""
    return (_who("duelist", who), _who("target", "Target"),
            Field("modifier", "Other modifiers to the check", "int", default=0, minimum=-30, maximum=30),
            Field("dice_check", "d20 (as rolled)", "dice", required=False), SERVER_ROLL, END_TURN)


@command
class Demoralize:
    FIELDS = _skill_check_against("Who demoralizes")
    duelist: str | None = None
    target: str | None = None
    modifier: int = 0
    dice_check: tuple | None = None
    server_roll: bool = False
    end_turn: bool = False


@command
class Feint:
    FIELDS = _skill_check_against("Who feints")
    duelist: str | None = None
    target: str | None = None
    modifier: int = 0
    dice_check: tuple | None = None
    server_roll: bool = False
    end_turn: bool = False


COST_CHOICES = (("1", "1 action"), ("2", "2 actions"), ("3", "3 actions"), ("0", "free action"))


@command
class OtherAction:
    FIELDS = (_who("duelist", "Who acts"),
              Field("action", "Action", "text", maximum=80, help="e.g. Stride, Raise a Shield, Recall Knowledge"),
              Field("cost", "Cost", "choice", default="1", choices=COST_CHOICES),
              Field("check_modifier", "Check modifier", "int", required=False, minimum=-30, maximum=60,
                    help="only for an action with a check: the modifier before frightened"),
              Field("dc", "DC of the check", "int", required=False, minimum=1, maximum=70),
              Field("attack", "Attack trait (counts for the multiple attack penalty)", "bool", default=False),
              Field("dice_check", "d20 (as rolled)", "dice", required=False), SERVER_ROLL, END_TURN)
    action: str
    duelist: str | None = None
    cost: str = "1"
    check_modifier: int | None = None
    dc: int | None = None
    attack: bool = False
    dice_check: tuple | None = None
    server_roll: bool = False
    end_turn: bool = False


@command
class DeceptiveSidestep:
    FIELDS = (Field("dice_attack", "The attacker's new d20", "dice", required=False),
              DAMAGE_DICE, DAMAGE_TYPED, SERVER_ROLL)
    dice_attack: tuple | None = None
    dice_damage: tuple | None = None
    damage: int | None = None
    server_roll: bool = False


@command
class DeclineSidestep:
    FIELDS = (DAMAGE_DICE, DAMAGE_TYPED, SERVER_ROLL)
    dice_damage: tuple | None = None
    damage: int | None = None
    server_roll: bool = False


@command
class ReadyReaction:
    """A player readies their duelist's dueling reaction (Bullying Press, Sense Weakness) from their
    seat, on their own turn: the duelist's next melee Strike declares it, without the GM asking."""

    FIELDS = (Field("duelist", "Duelist", "character"),
              Field("reaction", "Dueling reaction", "choice", choices=REACTION_CHOICES[1:]))
    duelist: str
    reaction: str


@command
class WithdrawReaction:
    """A player takes back the reaction they readied, before the Strike."""

    FIELDS = (Field("duelist", "Duelist", "character"),)
    duelist: str


@command
class CastSpell:
    FIELDS = (_who("caster", "Caster"),
              Field("spell", "Spell", "text", maximum=80),
              Field("rank", "Spell rank", "int", minimum=1, maximum=10,
                    help="for a cantrip, its heightened rank"),
              Field("tradition", "Tradition", "choice", choices=TRADITION_CHOICES),
              Field("cantrip", "Cantrip (no slot)", "bool", default=False),
              Field("actions", "Actions it costs", "int", default=2, minimum=1, maximum=3),
              _who("target", "Target"),
              Field("damage_expr", "Damage dice", "text", required=False, maximum=40,
                    help="e.g. 2d6+4; empty for no damage"),
              DAMAGE_TYPED,
              Field("effect", "Effect on the target", "choice", default="full", choices=EFFECT_CHOICES),
              DAMAGE_DICE, SERVER_ROLL)
    spell: str
    rank: int
    tradition: str
    caster: str | None = None
    cantrip: bool = False
    actions: int = 2
    target: str | None = None
    damage_expr: str | None = None
    damage: int | None = None
    effect: str = "full"
    dice_damage: tuple | None = None
    server_roll: bool = False


@command
class DuelingCounter:
    FIELDS = (Field("duelist", "Who counters", "character"),
              Field("slot_rank", "Rank of the slot expended", "int", minimum=1, maximum=10),
              Field("dice_check", "d20 of the counteract check", "dice", required=False),
              DAMAGE_DICE, DAMAGE_TYPED, SERVER_ROLL)
    duelist: str
    slot_rank: int
    dice_check: tuple | None = None
    dice_damage: tuple | None = None
    damage: int | None = None
    server_roll: bool = False


@command
class DeclineCounter:
    FIELDS = (DAMAGE_DICE, DAMAGE_TYPED, SERVER_ROLL)
    dice_damage: tuple | None = None
    damage: int | None = None
    server_roll: bool = False


@command
class ChangeTraditionFocus:
    FIELDS = (_who("duelist", "Duelist"),
              Field("tradition", "New tradition", "choice", choices=TRADITION_CHOICES))
    tradition: str
    duelist: str | None = None


@command
class EndTurn:
    FIELDS = (_who("duelist", "Duelist"),)
    duelist: str | None = None


@command
class Tag:
    FIELDS = (Field("side", "Side that tags", "choice", choices=SIDE_CHOICES),)
    side: str


@command
class ConfirmVictory:
    FIELDS = (Field("side", "Winning side", "choice", required=False, choices=SIDE_CHOICES,
                    help="needed only for a custom victory condition"),
              Field("detail", "What the judge saw", "text", required=False, maximum=500))
    side: str | None = None
    detail: str | None = None


@command
class DeclineVictory:
    FIELDS = (Field("reason", "Why the judge does not accept it", "text", required=False, maximum=500),)
    reason: str | None = None


@command
class EscalateToCombat:
    FIELDS = (Field("side", "Who fought on", "choice", required=False,
                    choices=(("", "both / unclear"),) + SIDE_CHOICES),
              Field("detail", "What happened", "text", required=False, maximum=500))
    side: str | None = None
    detail: str | None = None


COMMANDS = {cls.__name__: cls for cls in (
    RollInitiative, ChooseSkill, RevealSkills, BreakTie, ActSecond, Strike, Demoralize, Feint, OtherAction,
    DeceptiveSidestep, DeclineSidestep, ReadyReaction, WithdrawReaction, CastSpell,
    DuelingCounter, DeclineCounter, ChangeTraditionFocus, EndTurn, Tag, ConfirmVictory,
    DeclineVictory, EscalateToCombat)}
COMMANDS.update(ENDING_COMMANDS)


def _side_of(state: dict, who) -> str | None:
    return next((d["side"] for d in state["duelists"] if d["id"] == who), None)


def _pending_target(state: dict, fields) -> str | None:
    pending = state.get("pending") or {}
    return _side_of(state, pending.get("target")) if pending.get("kind") == "strike" else None


def _counter_side(state: dict, fields) -> str | None:
    pending = state.get("pending") or {}
    caster = _side_of(state, pending.get("caster")) if pending.get("kind") == "spell" else None
    return None if caster is None else ("b" if caster == "a" else "a")


# What a duelist's seat may send, and the side each speaks for: the core lets a seat send one only
# for its own side.
SEAT_COMMANDS = {
    "ChooseSkill": lambda state, fields: _side_of(state, fields.get("duelist")),
    "DeceptiveSidestep": _pending_target, "DeclineSidestep": _pending_target,
    "DuelingCounter": lambda state, fields: _side_of(state, fields.get("duelist")),
    "DeclineCounter": _counter_side,
    "ReadyReaction": lambda state, fields: _side_of(state, fields.get("duelist")),
    "WithdrawReaction": lambda state, fields: _side_of(state, fields.get("duelist")),
}
