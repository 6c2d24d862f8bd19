"""What the GM can tell a Pathfinder 2e duel to do: one command per table action."""
from __future__ import annotations

from tracker.rules.fields import Field, command
from tracker.rules.duel import ENDING_COMMANDS, SIDE_CHOICES

from .sheet import SKILL_NAMES, SKILLS, TRADITION_CHOICES
from tracker.rules.text import Text, t

SKILL_CHOICES = tuple((s, SKILL_NAMES[s]) for s in SKILLS)
REACTION_CHOICES = (("", t("none")), ("bullying_press", t("Bullying Press")), ("sense_weakness", t("Sense Weakness")))
EFFECT_CHOICES = (("full", t("full damage (failed save / hit)")), ("half", t("half (successful save)")),
                  ("double", t("double (critical)")), ("none", t("none (critical success on the save)")))


def _who(name: str, label: Text) -> Field:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    return Field(name, label, "character", required=False,
                 help=t("leave empty for whoever's turn it is") if name != "target" else
                 "leave empty when there is a single opponent")


SERVER_ROLL = Field("server_roll", t("Let the server roll what was not typed"), "bool", default=False)
DAMAGE_DICE = Field("dice_damage", t("Damage dice (as rolled)"), "dice", required=False,
                    help=t("the die faces of the damage expression, e.g. 3 5"))
DAMAGE_TYPED = Field("damage", t("Damage total (typed)"), "int", required=False, minimum=0, maximum=999,
                     help=t("instead of the dice: the damage before doubling"))


END_TURN = Field("end_turn", t("Then end the turn"), "bool", default=False)


@command
class RollInitiative:
    FIELDS = (Field("duelist", t("Duelist"), "character", required=False,
                    help=t("leave empty to roll for everyone still to roll, each with their usual skill")),
              Field("skill", t("Skill (secret)"), "choice", required=False, choices=SKILL_CHOICES, depends_on=("duelist",),
                    help=t("leave empty for the duelist's usual skill: the one they last rolled")),
              Field("dice_roll", t("d20 (as rolled)"), "dice", required=False,
                    help=t("for everyone: one d20 per duelist, in the order the page lists them")), SERVER_ROLL)
    duelist: str | None = None
    skill: str | None = None
    dice_roll: tuple | None = None
    server_roll: bool = False


@command
class ChooseSkill:
    """A duelist's secret initiative skill for the round: from their seat, or an NPC's from the GM's page."""

    FIELDS = (Field("duelist", t("Duelist"), "character"),
              Field("skill", t("Skill (secret)"), "choice", choices=SKILL_CHOICES),
              Field("round", t("For round"), "int", required=False, minimum=1, maximum=100_000),
              Field("dice_roll", t("Your d20"), "dice", required=False,
                    help=t("When each seat rolls its own: the d20 as it fell, sealed with the skill")))
    duelist: str
    skill: str
    round: int | None = None
    dice_roll: tuple | None = None
    server_roll = True  # the roll the last choice triggers is the server's
    ANY_VERSION = True  # duelists choose at once: ``round``, not the stream's version, keeps a late tap out


@command
class RevealSkills:
    """The GM rolls every sealed skill (the server's d20s, or the table's typed in duelist order)."""

    FIELDS = (Field("dice_roll", t("d20s (as rolled, in duelist order)"), "dice", required=False), SERVER_ROLL)
    dice_roll: tuple | None = None
    server_roll: bool = False


@command
class BreakTie:
    FIELDS = (Field("first", t("Who acts first"), "character"),)
    first: str


@command
class ActSecond:
    FIELDS = ()


@command
class Strike:
    FIELDS = (_who("attacker", t("Attacker")), _who("target", t("Target")),
              Field("reaction", t("Dueling reaction declared before the roll"), "choice", default="",
                    choices=REACTION_CHOICES),
              Field("melee", t("Melee Strike"), "bool", default=True),
              Field("agile", t("Agile weapon (multiple attack penalty −4/−8)"), "bool", default=False),
              Field("modifier", t("Other modifiers to the attack"), "int", default=0, minimum=-30, maximum=30),
              Field("dice_attack", t("d20 (as rolled)"), "dice", required=False),
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


def _skill_check_against(who: Text) -> tuple:
    """The fields of a one-action skill check against an opponent's DC (Demoralize, Feint)."""
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    return (_who("duelist", who), _who("target", t("Target")),
            Field("modifier", t("Other modifiers to the check"), "int", default=0, minimum=-30, maximum=30),
            Field("dice_check", t("d20 (as rolled)"), "dice", required=False), SERVER_ROLL, END_TURN)


@command
class Demoralize:
    FIELDS = _skill_check_against(t("Who demoralizes"))
    duelist: str | None = None
    target: str | None = None
    modifier: int = 0
    dice_check: tuple | None = None
    server_roll: bool = False
    end_turn: bool = False


@command
class Feint:
    FIELDS = _skill_check_against(t("Who feints"))
    duelist: str | None = None
    target: str | None = None
    modifier: int = 0
    dice_check: tuple | None = None
    server_roll: bool = False
    end_turn: bool = False


COST_CHOICES = (("1", t("1 action")), ("2", t("2 actions")), ("3", t("3 actions")), ("0", t("free action")))


@command
class OtherAction:
    FIELDS = (_who("duelist", t("Who acts")),
              Field("action", t("Action"), "text", maximum=80, help=t("e.g. Stride, Raise a Shield, Recall Knowledge")),
              Field("cost", t("Cost"), "choice", default="1", choices=COST_CHOICES),
              Field("check_modifier", t("Check modifier"), "int", required=False, minimum=-30, maximum=60,
                    depends_on=("dc",), help=t("only for an action with a check: the modifier before frightened")),
              Field("dc", t("DC of the check"), "int", required=False, minimum=1, maximum=70,
                    depends_on=("check_modifier",)),
              Field("attack", t("Attack trait (counts for the multiple attack penalty)"), "bool", default=False),
              Field("dice_check", t("d20 (as rolled)"), "dice", required=False, depends_on=("dc",)),
              SERVER_ROLL, END_TURN)
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
    FIELDS = (Field("dice_attack", t("The attacker's new d20"), "dice", required=False),
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

    FIELDS = (Field("duelist", t("Duelist"), "character"),
              Field("reaction", t("Dueling reaction"), "choice", choices=REACTION_CHOICES[1:]))
    duelist: str
    reaction: str


@command
class WithdrawReaction:
    """A player takes back the reaction they readied, before the Strike."""

    FIELDS = (Field("duelist", t("Duelist"), "character"),)
    duelist: str


@command
class CastSpell:
    FIELDS = (_who("caster", t("Caster")),
              Field("spell", t("Spell"), "text", maximum=80),
              Field("rank", t("Spell rank"), "int", minimum=1, maximum=10,
                    help=t("for a cantrip, its heightened rank")),
              Field("tradition", t("Tradition"), "choice", choices=TRADITION_CHOICES),
              Field("cantrip", t("Cantrip (no slot)"), "bool", default=False),
              Field("actions", t("Actions it costs"), "int", default=2, minimum=1, maximum=3),
              _who("target", t("Target")),
              Field("damage_expr", t("Damage dice"), "text", required=False, maximum=40,
                    help=t("e.g. 2d6+4; empty for no damage")),
              DAMAGE_TYPED,
              Field("effect", t("Effect on the target"), "choice", default="full", choices=EFFECT_CHOICES),
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
    FIELDS = (Field("duelist", t("Who counters"), "character"),
              Field("slot_rank", t("Rank of the slot expended"), "int", minimum=1, maximum=10),
              Field("dice_check", t("d20 of the counteract check"), "dice", required=False),
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
    FIELDS = (_who("duelist", t("Duelist")),
              Field("tradition", t("New tradition"), "choice", choices=TRADITION_CHOICES))
    tradition: str
    duelist: str | None = None


@command
class EndTurn:
    FIELDS = (_who("duelist", t("Duelist")),)
    duelist: str | None = None


@command
class Tag:
    FIELDS = (Field("side", t("Side that tags"), "choice", choices=SIDE_CHOICES),)
    side: str


@command
class ConfirmVictory:
    FIELDS = (Field("side", t("Winning side"), "choice", required=False, choices=SIDE_CHOICES,
                    help=t("needed only for a custom victory condition")),
              Field("detail", t("What the judge saw"), "text", required=False, maximum=500))
    side: str | None = None
    detail: str | None = None


@command
class DeclineVictory:
    FIELDS = (Field("reason", t("Why the judge does not accept it"), "text", required=False, maximum=500),)
    reason: str | None = None


@command
class EscalateToCombat:
    FIELDS = (Field("side", t("Who fought on"), "choice", required=False,
                    choices=(("", t("both / unclear")),) + SIDE_CHOICES),
              Field("detail", t("What happened"), "text", required=False, maximum=500))
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
