"""The pirate duel's own events (the common endings live in ``tracker.rules.duel``)."""
from __future__ import annotations

from tracker.domain.events import event
from tracker.rules.text import t


@event
class PirateInitiativeRolled:
    """Both duelists rolled initiative (d20 + Iniciativa) for a round or exchange; ties were rerolled."""

    LABEL = t("Pirate: initiative rolled")

    round: int
    rolls_a: tuple  # every d20 side a rolled, tie rerolls included, in order
    rolls_b: tuple
    total_a: int  # the deciding (last) roll + Iniciativa
    total_b: int
    order: tuple  # the sides that act this round, first to last


@event
class PirateSwordAttacked:
    """A duelist attacked with a sword: d20 + ATQ against the defender's DEF; a hit rolls damage to PV."""

    LABEL = t("Pirate: sword attack")

    round: int
    side: str
    weapon: str
    edge: str  # "", "ventaja", "desventaja" or "cancelled"
    d20s: tuple  # every d20 rolled (two with Ventaja or Desventaja)
    d20: int  # the d20 kept
    bonus: int  # ATQ
    total: int
    defence: int  # the defender's DEF
    hit: bool
    damage_expression: str
    damage_dice: tuple
    damage: int


@event
class PirateShotFired:
    """A duelist fired a pistol: d20 + ATQ against DEF, at Desventaja from beyond the pistol's range."""

    LABEL = t("Pirate: shot fired")

    round: int
    side: str
    weapon: str
    distance: int  # paces agreed
    range: int  # the pistol's range in paces
    edge: str
    d20s: tuple
    d20: int
    bonus: int
    total: int
    defence: int
    hit: bool
    damage_expression: str  # "" when bullets deal no PV damage in this duel
    damage_dice: tuple
    damage: int
    shots_left: int  # the shooter's shots after this one


@event
class PirateInsultTraded:
    """A duelist insulted the other: d20 + Comunicación + the insult's modifier against SAB; damage to CAR."""

    LABEL = t("Pirate: insult thrown")

    round: int  # the exchange
    side: str
    insult: str
    edge: str
    d20s: tuple
    d20: int
    bonus: int  # Comunicación + the insult's to-hit modifier
    total: int
    defence: int  # the target's SAB
    hit: bool
    damage_expression: str
    damage_dice: tuple
    damage: int  # to the target's CAR on a hit
    backlash_expression: str = ""
    backlash_dice: tuple = ()
    backlash: int = 0  # to the insulter's own CAR on a miss
    line: str = ""  # the words actually spoken, quoted in the log, the display and the recap


@event
class PirateInsultChosen:
    """A side chose, in secret, the insult they will throw in the coming exchange (and the line they
    will speak): sealed until both have chosen. A later choice for the same exchange replaces it."""

    LABEL = t("Pirate: insult chosen")

    round: int
    side: str
    insult: str
    line: str = ""
    die: int = 0  # when each seat rolls its own: the insult's d20 the duelist typed, sealed with it


@event
class PirateDuelistFell:
    """The GM ruled on a duelist at 0 PV: down (alive, out of the fight) or dead."""

    LABEL = t("Pirate: duelist fell")

    side: str
    fate: str  # "down" or "dead"


@event
class PirateWorthinessMarked:
    """A duelist was marked a worthy or unworthy opponent (no effect on the rules)."""

    LABEL = t("Pirate: worthiness marked")

    side: str
    worthy: bool
    note: str = ""
