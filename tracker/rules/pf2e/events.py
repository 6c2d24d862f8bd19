"""The facts a Pathfinder 2e duel records, past tense, each with every die it used."""
from __future__ import annotations

from typing import Any

from tracker.domain.events import event, upcaster
from tracker.rules.text import t

DUELIST = "character"  # a duelist is named by their character's id


@event
class Pf2eInitiativeRolled:
    """A duelist rolled initiative with a secretly chosen skill (d20 + modifier − frightened)."""

    LABEL = t("PF2e: initiative rolled")

    REFERENCES = {"duelist": DUELIST}

    round: int
    duelist: str
    skill: str
    die: int
    modifier: int
    total: int


@event
class Pf2eSkillChosen:
    """A duelist chose their initiative skill for the round in secret: sealed until every duelist
    has chosen, then rolled (``Pf2eInitiativeRolled``). A later choice replaces it."""

    LABEL = t("PF2e: initiative skill chosen")

    REFERENCES = {"duelist": DUELIST}

    round: int
    duelist: str
    skill: str
    die: int = 0  # when each seat rolls its own: the d20 the duelist typed, sealed with the skill


@event
class Pf2eRoundOrdered:
    """Everyone had rolled: the turn order by result, NPCs before PCs on ties; tiers of
    more than one duelist still wait for the GM to break the tie."""

    LABEL = t("PF2e: turn order set")

    REFERENCES = {"tiers.*.*": DUELIST}

    round: int
    tiers: tuple  # of tuples of duelist ids, best result first


@event
class Pf2eTieBroken:
    """The GM chose who acts first among duelists tied on initiative."""

    LABEL = t("PF2e: initiative tie broken")

    REFERENCES = {"first": DUELIST}

    round: int
    first: str


@event
class Pf2eActedSecond:
    """The initiative winner chose to act second this round."""

    LABEL = t("PF2e: chose to act second")

    REFERENCES = {"duelist": DUELIST}

    round: int
    duelist: str


@event
class Pf2eStrikeRolled:
    """A Strike's attack roll against AC and its degree of success; ``pending`` when the
    target may still answer a (non-critical) hit with Deceptive Sidestep."""

    LABEL = t("PF2e: Strike rolled")

    REFERENCES = {"attacker": DUELIST, "target": DUELIST}

    attacker: str
    target: str
    die: int
    modifier: int
    total: int
    ac: int
    degree: str
    reaction: str = ""  # bullying_press, sense_weakness or ""
    pending: bool = False
    damage_typed: int | None = None
    melee: bool = True
    end_turn: bool = False  # the attacker ends the turn once the Strike is settled


@event
class Pf2eSidestepUsed:
    """The target used Deceptive Sidestep: the attacker rolled again and took the second result."""

    LABEL = t("PF2e: Deceptive Sidestep used")

    REFERENCES = {"defender": DUELIST, "attacker": DUELIST}

    defender: str
    attacker: str
    die: int
    modifier: int
    penalty: int  # −2 when the attacker had rolled Intimidation, else 0
    total: int
    ac: int
    degree: str


@event
class Pf2eReactionReadied:
    """On their turn, a duelist's player readied the dueling reaction they gained this round
    (Bullying Press or Sense Weakness): their next melee Strike declares it."""

    LABEL = t("PF2e: reaction readied")

    REFERENCES = {"duelist": DUELIST}

    round: int
    duelist: str
    reaction: str


@event
class Pf2eReactionWithdrawn:
    """The player took back the reaction they had readied, before any Strike used it."""

    LABEL = t("PF2e: reaction withdrawn")

    REFERENCES = {"duelist": DUELIST}

    round: int
    duelist: str
    reaction: str


@event
class Pf2eSidestepDeclined:
    """The target let a hit stand without using Deceptive Sidestep."""

    LABEL = t("PF2e: Deceptive Sidestep declined")

    REFERENCES = {"defender": DUELIST}

    defender: str


@event
class Pf2eDamageDealt:
    """Damage from a Strike or a spell: the dice, the multiplier and the HP left."""

    LABEL = t("PF2e: damage dealt")

    REFERENCES = {"attacker": DUELIST, "target": DUELIST}

    attacker: str
    target: str
    source: str  # "Strike" or the spell's name
    expression: str  # "" when the GM typed the amount
    dice: tuple
    base: int
    multiplier: str  # "full", "double" (critical), "half"
    amount: int
    hp_after: int


@event
class Pf2eFrightened:
    """A duelist's frightened value was set (Bullying Press keeps the higher value)."""

    LABEL = t("PF2e: frightened")

    REFERENCES = {"duelist": DUELIST}

    duelist: str
    value: int
    cause: str = ""


@event
class Pf2eOffGuard:
    """A duelist is off-guard (−2 AC) until the start of their next turn (Sense Weakness upgraded)."""

    LABEL = t("PF2e: off-guard")

    REFERENCES = {"duelist": DUELIST}

    duelist: str
    cause: str = ""


@event
class Pf2eTurnEnded:
    """A duelist's turn ended: frightened drops by 1; ``next`` acts (or a new round starts)."""

    LABEL = t("PF2e: turn ended")

    REFERENCES = {"duelist": DUELIST, "next": DUELIST}

    duelist: str
    frightened: int  # the value after the drop
    next: str  # "" when the round is over and initiative must be rolled again
    new_round: bool = False


@event
class Pf2eTagged:
    """In a tag-team duel a side's active duelist handed over to the partner."""

    LABEL = t("PF2e: tag")

    REFERENCES = {"out": DUELIST, "into": DUELIST}

    side: str
    out: str
    into: str


@event
class Pf2eSpellCast:
    """A spell was cast (slot expended unless a cantrip); ``pending`` while an opponent may counter."""

    LABEL = t("PF2e: spell cast")

    REFERENCES = {"caster": DUELIST, "target": DUELIST}

    caster: str
    spell: str
    rank: int
    tradition: str
    cantrip: bool
    target: str
    damage_expr: str = ""
    damage_typed: int | None = None
    effect: str = "full"  # full, half, double, none: the outcome of the save or spell attack
    pending: bool = False
    actions: int = 2  # what casting it cost of the caster's three actions


@event
class Pf2eCounterAttempted:
    """A Dueling Counter: a slot expended and a counteract check against the caster's spell DC."""

    LABEL = t("PF2e: Dueling Counter attempted")

    REFERENCES = {"duelist": DUELIST, "caster": DUELIST}

    duelist: str
    caster: str
    spell: str
    slot_rank: int
    spell_rank: int
    die: int
    modifier: int
    total: int
    dc: int
    degree: str
    counteracted: bool


@event
class Pf2eCounterDeclined:
    """No opponent countered the spell; it takes effect."""

    LABEL = t("PF2e: no counter")

    spell: str


@event
class Pf2eDemoralized:
    """Demoralize (1 action): Intimidation against the target's Will DC; ``frightened`` is the
    value the target now has (0 when the check did not frighten them)."""

    LABEL = t("PF2e: Demoralize")

    REFERENCES = {"duelist": DUELIST, "target": DUELIST}

    duelist: str
    target: str
    die: int
    modifier: int
    total: int
    dc: int
    degree: str
    frightened: int


@event
class Pf2eFeinted:
    """Feint (1 action): Deception against the target's Perception DC. ``exposed`` is who is now
    off-guard (the target on a success, the feinter on a critical failure, "" otherwise)."""

    LABEL = t("PF2e: Feint")

    REFERENCES = {"duelist": DUELIST, "target": DUELIST, "exposed": DUELIST}

    duelist: str
    target: str
    die: int
    modifier: int
    total: int
    dc: int
    degree: str
    exposed: str = ""


@event
class Pf2eActionTaken:
    """Any other action (Stride, Raise a Shield, Recall Knowledge…): its name, its cost and,
    when the GM asked for one, its check against a DC (``die`` 0 when there was none)."""

    LABEL = t("PF2e: other action")

    REFERENCES = {"duelist": DUELIST}

    duelist: str
    action: str
    cost: int
    die: int = 0
    modifier: int = 0
    total: int = 0
    dc: int = 0
    degree: str = ""
    attack: bool = False  # it has the attack trait: it counts for the multiple attack penalty


@event
class Pf2eFocusChanged:
    """A duelist used Change Tradition Focus (one action)."""

    LABEL = t("PF2e: tradition focus changed")

    REFERENCES = {"duelist": DUELIST}

    duelist: str
    tradition: str


@event
class Pf2eVictoryProposed:
    """The rules saw the agreed victory condition met; the judge must confirm it. ``attacker`` and
    ``target``: who drew first blood from whom (first blood only). ``sentence``: what logs before
    schema 2 stored in ``detail`` (the rules' sentence itself), read as is, never written now."""

    LABEL = t("PF2e: victory proposed")

    SCHEMA = 2
    REFERENCES = {"attacker": DUELIST, "target": DUELIST}  # empty for a knockout: refers to nothing
    side: str
    ending: str  # first_blood or knockout
    attacker: str = ""
    target: str = ""
    sentence: Any = ""


@upcaster("Pf2eVictoryProposed", 1)
def _proposal_detail_was_a_sentence(data: dict) -> dict:
    data["sentence"] = data.pop("detail", "")
    return data


@event
class Pf2eVictoryDeclined:
    """The judge did not accept the proposed victory; the duel goes on."""

    LABEL = t("PF2e: victory not confirmed")

    reason: str = ""


@event
class Pf2ePenaltyImposed:
    """A disqualified side incurs the penalty agreed when the challenge was accepted."""

    LABEL = t("PF2e: penalty imposed")

    side: str
    penalty: str


@event
class Pf2eDuelEscalated:
    """Someone fought on after the duel's end: it became normal combat."""

    LABEL = t("PF2e: duel became combat")

    side: str = ""
    detail: str = ""
