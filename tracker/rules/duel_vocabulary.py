"""What every duel's log says, whatever its ruleset: the common events and commands, their upcasters, the sides, the endings' words."""

from __future__ import annotations

from typing import Any

from tracker.domain.events import event, upcaster
from tracker.rules.fields import Field, command
from tracker.rules.text import N_, Text, t


SIDES = ("a", "b")


@event
class DuelStarted:
    """A duel was set up: who fights, under which ruleset, kind and agreed terms."""

    LABEL = t("Duel started")

    REFERENCES = {"duel_id": "duel", "campaign_id": "campaign", "session_id": "session",
                  "duelists.*.id": "character"}

    duel_id: str
    campaign_id: str
    session_id: str
    ruleset: str
    kind: str
    duelists: tuple  # of {"id","name","side","rank","stats","current"}
    settings: dict
    challenger: str = ""  # the side that issued the challenge
    stakes: str = ""
    judge: str = ""


@event
class DuelWon:
    """The rules found a winner (a clock completed, first blood, a knockout…).

    ``detail`` holds only the GM's own words (a judge's confirmation); the sentence a reader sees
    is told from the facts by the ruleset's ``ending_detail``. ``sentence`` is what logs before
    schema 2 stored in ``detail`` (the rules' sentence itself): read as is, never written now."""

    LABEL = t("Duel won")

    SCHEMA = 2
    side: str
    ending: str
    detail: str = ""
    sentence: Any = ""


@event
class DuelDrawn:
    """The rules found no winner (both pistols ran dry, a drawn wit duel…); ``detail`` and
    ``sentence`` as in ``DuelWon``."""

    LABEL = t("Duel drawn")

    SCHEMA = 2
    ending: str
    detail: str = ""
    sentence: Any = ""


def detail_was_a_sentence(data: dict) -> dict:
    """Schema 1 stored the rules' own sentence in ``detail`` (a str, or a message id with its
    values): it is kept, to be read as is, and ``detail`` is left for the GM's words."""
    data["sentence"] = data.pop("detail", "")
    return data


upcaster("DuelWon", 1)(detail_was_a_sentence)
upcaster("DuelDrawn", 1)(detail_was_a_sentence)


@event
class DuelYielded:
    """A side conceded; the other side wins."""

    LABEL = t("Duelist yielded")

    side: str
    detail: str = ""


@event
class DuelDisqualified:
    """The judge found a side cheated (poison, broken terms); the other side wins, even if dead."""

    LABEL = t("Duelist disqualified")

    side: str
    reason: str = ""


@event
class DuelAbandoned:
    """The GM stopped the duel; nobody wins."""

    LABEL = t("Duel abandoned")

    reason: str = ""


ENDING_EVENTS = (DuelWon, DuelDrawn, DuelYielded, DuelDisqualified, DuelAbandoned)

SIDE_CHOICES = (("a", t("Side A")), ("b", t("Side B")))


@event
class DuelNoted:
    """The GM attached a note to the duel, or to one of its moments (``about``: the version of
    the event it is about, 0 for the whole duel). Nothing stands on a note and it stands on
    nothing: the rules never read it, it may come after the end, and it is retracted alone."""

    LABEL = t("GM's note on a duel")

    text: str
    about: int = 0
    public: bool = False  # shown in the players' recap too


@event
class DuelTrackAdjusted:
    """The GM corrected a duelist's track by hand mid-duel ("I forgot the +2", "the cleric healed
    him"): ``amount`` as asked, ``value`` what the track holds after it (clamped to its maximum,
    never 0 or below: an adjustment corrects numbers, it never decides the duel). Later events
    stand on the numbers it changed, so a retraction rewinds the duel past it like any command."""

    LABEL = t("Track adjusted mid-duel")

    REFERENCES = {"character": "character"}

    character: str
    track: str
    amount: int
    value: int
    reason: str


ADJUST_FALLS = N_("an adjustment corrects numbers; a duelist falls through the duel's own actions")


@command
class Yield:
    FIELDS = (Field("side", t("Who yields"), "choice", choices=SIDE_CHOICES),
              Field("detail", t("Words spoken"), "text", required=False, maximum=500))
    side: str
    detail: str | None = None


@command
class Disqualify:
    FIELDS = (Field("side", t("Who cheated"), "choice", choices=SIDE_CHOICES),
              Field("reason", t("What the judge found"), "text", required=False, maximum=500))
    side: str
    reason: str | None = None


@command
class Abandon:
    FIELDS = (Field("reason", t("Why"), "text", required=False, maximum=500),)
    reason: str | None = None


ENDING_COMMANDS = {"Yield": Yield, "Disqualify": Disqualify, "Abandon": Abandon}

# How each ending is said ("won by {ending}"): the common ones here, each ruleset adds its own
# (``name_endings``) so a summary never shows an internal key such as ``first_blood``.
ENDING_LABELS: dict[str, Text] = {
    "yield": t("yield"),
    "disqualification": t("disqualification"),
    "abandoned": t("abandoned"),
}


@event
class DuelSeatTakenOver:
    """The GM took over a side a player's seat played (a player who left): from now on the GM
    makes that side's choices, and the seat no longer acts in this duel. It stands on nothing the
    rules decide and nothing stands on it: it is retracted alone (the seat then plays again)."""

    LABEL = t("Seat taken over by the GM")

    side: str


@command
class AdjustTrackInDuel:
    """What ``decide_adjustment`` reads: whose track, by how much, and why."""

    character: str
    track: str
    amount: int
    reason: str


_COMMON_EVENTS = (DuelNoted, DuelSeatTakenOver, DuelTrackAdjusted, *ENDING_EVENTS)
