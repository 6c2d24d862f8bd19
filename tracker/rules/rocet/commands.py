"""What the GM can do in a Rocèt duel (besides the common Yield, Disqualify, Abandon)."""
from __future__ import annotations

from tracker.rules.fields import Field, command
from tracker.rules.duel import ENDING_COMMANDS, SIDE_CHOICES
from tracker.rules.rocet.terms import CARDS

CARD_CHOICES = tuple((card, card) for card in CARDS)


@command
class PlayTurn:
    FIELDS = (
        Field("card_a", "Side A's card", "choice", choices=CARD_CHOICES),
        Field("card_b", "Side B's card", "choice", choices=CARD_CHOICES),
        Field("dice_a", "Side A's dice", "dice", required=False,
              help="DES die then INT die, e.g. “5 3”; a tie waits for RerollTie (or add pairs for the rerolls)"),
        Field("dice_b", "Side B's dice", "dice", required=False,
              help="DES die then INT die, e.g. “4 4”; a tie waits for RerollTie (or add pairs for the rerolls)"),
        Field("server_roll", "Let the server roll what was not typed", "bool", default=False),
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
        Field("dice_a", "Side A's dice", "dice", required=False,
              help="DES die then INT die of the reroll; add pairs if it ties again"),
        Field("dice_b", "Side B's dice", "dice", required=False,
              help="DES die then INT die of the reroll; add pairs if it ties again"),
        Field("server_roll", "Let the server roll what was not typed", "bool", default=False),
    )
    dice_a: tuple | None = None
    dice_b: tuple | None = None
    server_roll: bool = False


@command
class Discard:
    FIELDS = (
        Field("side", "Who discards", "choice", choices=SIDE_CHOICES),
        Field("card", "Card discarded (shown)", "choice", choices=CARD_CHOICES, required=False),
    )
    side: str
    card: str | None = None


@command
class DealDamage:
    FIELDS = (
        Field("source", "Damage", "choice", required=False,
              choices=(("attack", "Attack: TA + weapon damage"),
                       ("clock", "Completed clock: weapon damage, TA=0")),
              help="Leave blank for the first damage on offer"),
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
    "Discard": Discard,
    "DealDamage": DealDamage,
    "DeclineDamage": DeclineDamage,
    "ConfirmUnconscious": ConfirmUnconscious,
    "ConfirmDeath": ConfirmDeath,
    **ENDING_COMMANDS,
}
