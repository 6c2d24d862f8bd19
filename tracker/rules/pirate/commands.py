"""What a GM can ask of a pirate duel: one command per roll at the table."""
from __future__ import annotations

from tracker.rules.fields import Field, command
from tracker.rules.duel import ENDING_COMMANDS, SIDE_CHOICES

from .sheet import INSULT_HELP
from tracker.rules.text import Text, join, t

DICE_HELP = t("The dice as they fell, in order; leave blank and tick 'server rolls' to let the server roll.")


def _dice(side: str, what: Text) -> Field:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    return Field(f"dice_{side}", t("Dice for side {side} ({what})", side=side.upper(), what=what), "dice",
                 required=False, help=DICE_HELP)


SERVER_ROLL = Field("server_roll", t("Server rolls what was not typed"), "bool", default=False)
EDGE = (Field("ventaja", t("Ventaja (roll 2d20, keep the higher)"), "bool", default=False),
        Field("desventaja", t("Desventaja (roll 2d20, keep the lower)"), "bool", default=False,
              help=t("A pistol shot from beyond the pistol's range is at Desventaja without ticking this. "
                     "Ventaja and Desventaja cancel.")))
STRIKE_DICE = (_dice("a", t("d20s, then damage")), _dice("b", t("d20s, then damage")), SERVER_ROLL)


@command
class RollInitiative:
    """Both duelists roll d20 + Iniciativa: the order of this round's attacks, shots or insults."""

    FIELDS = (_dice("a", t("d20, rerolls on a tie")), _dice("b", t("d20, rerolls on a tie")), SERVER_ROLL)
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


LINE = Field("line", t("The line actually spoken (optional)"), "text", required=False, maximum=300,
             help=t("Quoted in the log, on the table display and in the recap"))


@command
class _Strike:
    """What an attack, a shot and an insult share: who acts, the edge, the dice."""

    side: str
    ventaja: bool = False
    desventaja: bool = False
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class Attack(_Strike):
    """A sword attack by the duelist whose turn it is."""

    FIELDS = (Field("side", t("Who attacks"), "choice", choices=SIDE_CHOICES),) + EDGE + STRIKE_DICE


@command
class Shoot(_Strike):
    """A pistol shot by the duelist whose turn it is."""

    FIELDS = (Field("side", t("Who shoots"), "choice", choices=SIDE_CHOICES),) + EDGE + STRIKE_DICE


@command
class Insult(_Strike):
    """An insult in a duelo de labia by the duelist whose turn it is."""

    FIELDS = ((Field("side", t("Who insults"), "choice", choices=SIDE_CHOICES),
               Field("insult", t("Kind of insult"), "text", maximum=80,
                     help=join([t("A name from this duel's insult table."), INSULT_HELP], " ")))
              + EDGE
              + (_dice("a", t("d20s, then damage or backlash")), _dice("b", t("d20s, then damage or backlash")),
                 SERVER_ROLL)
              + (LINE,))
    insult: str = ""  # required all the same: its Field is, and the form and the API parse by FIELDS
    line: str | None = None


@command
class ChooseInsult:
    """A side's insult for the coming exchange, chosen in secret (and the line they will speak)."""

    FIELDS = (Field("side", t("Who insults"), "choice", choices=SIDE_CHOICES),
              Field("insult", t("Kind of insult"), "text", maximum=80, help=t("A name from this duel's insult table.")),
              LINE,
              Field("round", t("For exchange"), "int", required=False, minimum=1, maximum=100_000),
              Field("dice", t("Your d20"), "dice", required=False,
                    help=t("When each seat rolls its own: the insult's d20 as it fell, sealed with the choice")))
    side: str
    insult: str
    line: str | None = None
    round: int | None = None
    dice: tuple | None = None
    server_roll = True  # the exchange the last choice throws is rolled by the server
    ANY_VERSION = True  # both sides choose at once: ``round``, not the stream's version, keeps a late tap out


@command
class ThrowInsults:
    """The GM throws both sealed insults: initiative, then each insult in its order."""

    FIELDS = STRIKE_DICE
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class RecordFall:
    """The GM rules on a duelist at 0 PV: down or dead."""

    FIELDS = (Field("side", t("Who fell"), "choice", choices=SIDE_CHOICES),
              Field("fate", t("Fate"), "choice", choices=(("down", t("Down (alive)")), ("dead", t("Dead")))))
    side: str
    fate: str


@command
class MarkWorthiness:
    """Mark a duelist a worthy or unworthy opponent (no effect on the rules)."""

    FIELDS = (Field("side", t("Who"), "choice", choices=SIDE_CHOICES),
              Field("verdict", t("Verdict"), "choice", choices=(("worthy", t("Worthy")), ("unworthy", t("Unworthy")))),
              Field("note", t("Why"), "text", required=False, maximum=500))
    side: str
    verdict: str
    note: str | None = None


COMMANDS = {
    "RollInitiative": RollInitiative,
    "Attack": Attack,
    "Shoot": Shoot,
    "Insult": Insult,
    "ChooseInsult": ChooseInsult,
    "ThrowInsults": ThrowInsults,
    "RecordFall": RecordFall,
    "MarkWorthiness": MarkWorthiness,
    **ENDING_COMMANDS,
}


# What a duelist's seat may send, and the side it speaks for: only its own side's insult.
SEAT_COMMANDS = {"ChooseInsult": lambda state, fields: fields.get("side") if isinstance(fields.get("side"), str) else None}
