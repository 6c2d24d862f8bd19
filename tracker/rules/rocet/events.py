"""The facts of a Rocèt duel, beyond the common DuelStarted and endings."""
from __future__ import annotations

from tracker.domain.events import event, upcaster
from tracker.rules.text import t


@event
class RocetDeckShuffled:
    """A deck was formed: at the start, or from the discards when its pile ran out."""

    LABEL = t("Rocèt: deck shuffled")

    deck: str  # "shared", or "a"/"b" for an 18-card deck each
    count: int  # cards in the new pile
    reason: str = "start"  # "start" or "reshuffle"
    order: tuple = ()  # virtual cards: the permutation the server drew
    cards: tuple = ()  # virtual cards: the pile, top first


@event
class RocetCardsDrawn:
    """A duelist drew cards from their pile (the opening hand, or back up to three)."""

    LABEL = t("Rocèt: cards drawn")

    side: str
    count: int
    cards: tuple = ()  # virtual cards only; physical cards stay unknown until played


@event
class RocetCardChosen:
    """A duelist chose their card for the coming turn, face down: sealed until both have chosen.
    A later choice for the same turn replaces it (the duelist changed their mind)."""

    LABEL = t("Rocèt: card chosen")

    turn: int
    side: str
    card: str
    dice: tuple = ()  # when each seat rolls its own: what the duelist's dice showed, sealed with the card


@event
class RocetCardsPlayed:
    """Both duelists laid a card face down for a turn."""

    LABEL = t("Rocèt: cards played")

    turn: int
    card_a: str
    card_b: str


@event
class RocetTurnResolved:
    """The cards were revealed and the opposed 【DES+INT】 roll decided the turn."""

    LABEL = t("Rocèt: turn resolved")

    turn: int
    card_a: str
    card_b: str
    advantage: str  # the side with Ventaja (+4), or ""
    rolls: tuple  # each (a DES, a INT, b DES, b INT); every tie rerolled, the last decides
    winner: str
    ta: int  # the higher die of the winner's deciding roll
    clock_a: int = 0  # clocks after the turn
    clock_b: int = 0
    meter: int = 0  # superiority meter after the turn: + toward side a, - toward side b
    pm_damage: int = 0  # Insulto: the loser's PM damage
    completed: bool = False  # ¡A muerte!: the winner completed (and restarted) their clock
    discard_owed: bool = False  # Treta/Finta: the loser must discard a card
    offers: tuple = ()  # damage the winner may now deal: "attack" (TA + weapon), "clock" (weapon)
    win: str = ""  # the victory this turn brought: "clock", "first_blood" or "superiority"


@event
class RocetTurnTied:
    """The opposed roll tied and no more dice were given: the turn waits for the reroll (``RerollTie``)."""

    LABEL = t("Rocèt: turn tied")

    turn: int
    rolls: tuple  # each (a DES, a INT, b DES, b INT), every one a tie


@event
class RocetCardDiscarded:
    """The loser of a Treta/Finta turn discarded a card of their choice, shown to all."""

    LABEL = t("Rocèt: card discarded")

    side: str
    card: str = ""  # "" when the hand was empty: nothing was discarded


@event
class RocetDamageDealt:
    """The turn's winner chose to deal PG damage with their weapon."""

    LABEL = t("Rocèt: damage dealt")

    SCHEMA = 2  # 1 named the source ``kind``

    side: str  # who deals it
    source: str  # "attack" (TA + fixed damage) or "clock" (¡A muerte! clock: fixed damage, TA=0)
    amount: int
    ta: int
    weapon_damage: int


@event
class RocetDamageDeclined:
    """The turn's winner did not deal the PG damage they were offered: they declined it, or the
    GM played the next turn without dealing it (``lapsed``), or the duel ended another way with it
    still on offer (``ended``), so the log says so either way."""

    LABEL = t("Rocèt: damage declined")

    SCHEMA = 2  # 1 named the sources ``kinds``

    side: str
    sources: tuple
    lapsed: bool = False  # True: recorded because the next turn was played with the damage still on offer
    ended: bool = False  # True: recorded because the duel ended another way (a yield…) with the damage on offer


@event
class RocetDuelistFell:
    """The GM confirmed what became of a duelist at 0 PG: unconscious or dead."""

    LABEL = t("Rocèt: duelist fell")

    side: str
    condition: str  # "unconscious" or "dead"


# --- old shapes: ``kind`` named a duel's variant and a damage's source; it names only the variant now

@upcaster("RocetDamageDealt", 1)
def _source_was_kind(data: dict) -> dict:
    data["source"] = data.pop("kind")
    return data


@upcaster("RocetDamageDeclined", 1)
def _sources_were_kinds(data: dict) -> dict:
    data["sources"] = data.pop("kinds")
    return data
