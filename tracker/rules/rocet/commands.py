"""What the GM can do in a Rocèt duel (besides the common Yield, Disqualify, Abandon)."""
from __future__ import annotations

from tracker.rules.fields import Field, command
from tracker.rules.duel import ENDING_COMMANDS, SIDE_CHOICES
from tracker.rules.rocet.terms import CARDS
from tracker.rules.text import t

CARD_CHOICES = tuple((card, card) for card in CARDS)


@command
class PlayTurn:
    FIELDS = (
        Field("card_a", t("Side A's card"), "choice", choices=CARD_CHOICES),
        Field("card_b", t("Side B's card"), "choice", choices=CARD_CHOICES),
        Field("dice_a", t("Side A's dice"), "dice", required=False,
              help=t("DES die then INT die, e.g. “{example}”; a tie waits for RerollTie (or add pairs for the rerolls)",
                     example="5 3")),
        Field("dice_b", t("Side B's dice"), "dice", required=False,
              help=t("DES die then INT die, e.g. “{example}”; a tie waits for RerollTie (or add pairs for the rerolls)",
                     example="4 4")),
        Field("server_roll", t("Let the server roll what was not typed"), "bool", default=False),
    )
    card_a: str
    card_b: str
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class RerollTie:
    """Reroll a tied turn: the dice of the reroll (or the server rolls them)."""

    FIELDS = (
        Field("dice_a", t("Side A's dice"), "dice", required=False,
              help=t("DES die then INT die of the reroll; add pairs if it ties again")),
        Field("dice_b", t("Side B's dice"), "dice", required=False,
              help=t("DES die then INT die of the reroll; add pairs if it ties again")),
        Field("server_roll", t("Let the server roll what was not typed"), "bool", default=False),
    )
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class ChooseCard:
    """A duelist's card for the coming turn, face down: from their seat, or the NPC's from the GM's page."""

    FIELDS = (
        Field("side", t("Whose card"), "choice", choices=SIDE_CHOICES),
        Field("card", t("Card"), "choice", choices=CARD_CHOICES),
        Field("turn", t("For turn"), "int", required=False, minimum=1, maximum=100_000,
              help=t("The turn the choice was made for: a late tap never lands on the next turn")),
        Field("dice", t("Your dice"), "dice", required=False,
              help=t("When each seat rolls its own: DES die then INT die, e.g. “{example}”", example="5 3")),
    )
    side: str
    card: str
    turn: int | None = None
    dice: tuple | None = None
    server_roll = True  # a reveal the choice triggers rolls on the server (unless the GM types the dice)
    ANY_VERSION = True  # two sides choose at once: ``turn``, not the stream's version, keeps a late tap out


@command
class RevealCards:
    """The GM turns both sealed cards over (when the duel waits for the GM, or for the table's dice)."""

    FIELDS = (
        Field("dice_a", t("Side A's dice"), "dice", required=False,
              help=t("DES die then INT die, e.g. “{example}”; add pairs for tie rerolls", example="5 3")),
        Field("dice_b", t("Side B's dice"), "dice", required=False,
              help=t("DES die then INT die, e.g. “{example}”; add pairs for tie rerolls", example="4 4")),
        Field("server_roll", t("Let the server roll what was not typed"), "bool", default=False),
    )
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class Discard:
    FIELDS = (
        Field("side", t("Who discards"), "choice", choices=SIDE_CHOICES),
        Field("card", t("Card discarded (shown)"), "choice", choices=CARD_CHOICES, required=False),
    )
    side: str
    card: str | None = None


@command
class DealDamage:
    FIELDS = (
        Field("source", t("Damage"), "choice", required=False,
              choices=(("attack", t("Attack: TA + weapon damage")),
                       ("clock", t("Completed clock: weapon damage, TA=0"))),
              help=t("Leave blank for the first damage on offer")),
    )
    source: str | None = None


@command
class DeclineDamage:
    FIELDS = ()


@command
class ConfirmUnconscious:
    FIELDS = ()


@command
class ConfirmDeath:
    FIELDS = ()


COMMANDS = {
    "PlayTurn": PlayTurn,
    "RerollTie": RerollTie,
    "ChooseCard": ChooseCard,
    "RevealCards": RevealCards,
    "Discard": Discard,
    "DealDamage": DealDamage,
    "DeclineDamage": DeclineDamage,
    "ConfirmUnconscious": ConfirmUnconscious,
    "ConfirmDeath": ConfirmDeath,
    **ENDING_COMMANDS,
}


def _own_side(state: dict, fields) -> str | None:
    return fields.get("side") if isinstance(fields.get("side"), str) else None


def _dealer(state: dict, fields) -> str | None:
    return (state.get("pending_damage") or {}).get("side")


# What a duelist's seat may send, and the side each command speaks for (read from the raw fields
# and the state): the core lets a seat send one only for its own side.
SEAT_COMMANDS = {"ChooseCard": _own_side, "Discard": _own_side, "DealDamage": _dealer, "DeclineDamage": _dealer}
