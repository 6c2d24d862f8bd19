"""The workspace's facts: campaigns, characters and sessions, as events (and their upcasters)."""

from __future__ import annotations

from tracker.domain.events import event, upcaster
from tracker.rules.text import t


RANKS = (("pj", t("PC (player character)")), ("villano", t("Villain")), ("elite", t("Elite")),
         ("campeon", t("Champion")), ("minor", t("Minor NPC")))
RANK_LABELS = dict(RANKS)


@event
class CampaignCreated:
    """A GM opened a campaign."""

    LABEL = t("Campaign created")

    REFERENCES = {"campaign_id": "campaign", "owner": "gm"}

    campaign_id: str
    name: str
    ruleset: str
    notes: str = ""
    owner: str = ""  # the GM's id; empty for a campaign made from the command line (every GM's)


@event
class CampaignEdited:
    """The campaign's name, default ruleset or notes changed."""

    LABEL = t("Campaign edited")

    name: str
    ruleset: str
    notes: str = ""


@event
class CampaignRulesChanged:
    """The campaign's own settings for one ruleset changed (e.g. its insult table)."""

    LABEL = t("Campaign rules changed")

    ruleset: str
    settings: dict


@event
class CampaignLanguageSet:
    """The campaign's language changed: what its players see (table display, seats, their recap)
    and its recaps by default are in it."""

    LABEL = t("Campaign language set")

    language: str  # one of tracker.domain.languages.LANGUAGES


@event
class CharacterCreated:
    """A character joined the campaign, with a stats block per ruleset it can duel in."""

    LABEL = t("Character created")

    REFERENCES = {"character_id": "character", "campaign_id": "campaign"}

    SCHEMA = 2

    character_id: str
    campaign_id: str
    name: str
    rank: str
    player: str = ""
    notes: str = ""
    stats: dict = None  # ruleset name -> stats block


@upcaster("CharacterCreated", 1)
def _one_block_per_ruleset(data: dict) -> dict:
    """Schema 1 held one stats block beside its ruleset's name and a PC flag; schema 2 holds a
    block per ruleset and an NPC rank, so one character can duel under several rulesets."""
    ruleset = data.pop("ruleset", None)
    stats = data.get("stats") or {}
    data["stats"] = {ruleset: stats} if ruleset and stats else {}
    data["rank"] = "pj" if data.pop("pc", True) else "minor"
    return data


@event
class CharacterEdited:
    """A character's sheet was rewritten (the whole sheet, as the form submitted it)."""

    LABEL = t("Character edited")

    name: str
    rank: str
    player: str = ""
    notes: str = ""
    stats: dict = None


@event
class CharacterImported:
    """The sheet just created or rewritten (the event before this one, of the same command) was
    brought in from another tool's export: ``source`` names the format (an importer of the
    ruleset's ``IMPORTERS``: ``foundry``, ``pathbuilder``), ``source_id`` the source's own id for
    the character ("" when the export has none: then its name is what a newer export is known
    by), and ``left_out`` each thing the export held that the sheet has no place for, as
    ``(kind, name)`` (a kind of ``tracker.rules.imports.LEFT_OUT_KINDS``, the name as the export
    wrote it)."""

    LABEL = t("Character imported")

    ruleset: str
    source: str
    source_id: str = ""
    left_out: tuple = ()


@event
class SessionPlanned:
    """A play session was added to the campaign; duels belong to one. A session planned on the fly
    (a duel started outside any session) holds no title: the fact is ``on_the_fly``, and its title
    is told at display time in the reader's language ("Duels of <date>", ``session_title``)."""

    LABEL = t("Session planned")

    REFERENCES = {"session_id": "session", "campaign_id": "campaign"}

    SCHEMA = 2  # 1 stored a session planned on the fly with the English title "Duels of <date>"

    session_id: str
    campaign_id: str
    number: int
    date: str
    title: str
    notes: str = ""
    on_the_fly: bool = False


# Before the fact was stored, a session planned on the fly held this English sentence as its title.
_OLD_ON_THE_FLY = "Duels of {date}"


@upcaster("SessionPlanned", 1)
def _on_the_fly_was_an_english_title(data: dict) -> dict:
    if data.get("title") == _OLD_ON_THE_FLY.format(date=data.get("date")):
        data.update(title="", on_the_fly=True)
    return data


@event
class SessionEdited:
    """A play session's number, date, title or notes changed."""

    LABEL = t("Session edited")

    number: int
    date: str
    title: str
    notes: str = ""


@event
class CharacterRecovered:
    """A character recovered between duels by their ruleset's rule: a rest, a treatment.

    ``changes`` holds the points each track really regained, decided once from the character's
    points at that moment (negative when a treatment went wrong); ``rolls`` every die the rule
    rolled; ``result`` the check's degree when it had one. ``session_id`` is set when the whole
    party rested at the end of that session."""

    LABEL = t("Character recovered")

    REFERENCES = {"session_id": "session"}

    ruleset: str
    recovery: str  # a key of the ruleset's RECOVERIES: "rest", "treat_wounds"
    changes: dict  # track -> points regained
    rolls: tuple = ()
    result: str = ""
    session_id: str = ""


@event
class TrackAdjusted:
    """The GM changed one of a character's tracks by hand, saying why (healed by the cleric,
    a forgotten +2): positive gives points back, negative takes them."""

    LABEL = t("Track adjusted")

    ruleset: str
    track: str
    amount: int
    reason: str


@event
class RetractionRestored:
    """A retraction made by mistake was taken back: what it retracted stands again.

    ``version`` is the retraction's version in this same stream. Only the last thing standing in
    its stream can be restored (nothing later was decided without what it took back), so the
    stream returns exactly to the state it had before the retraction."""

    LABEL = t("Retraction taken back")

    version: int
    reason: str = ""


@event
class SessionClosed:
    """The GM closed the play session: its players' seats stop working."""

    LABEL = t("Session closed")


@event
class EventRetracted:
    """Logged events were taken back: every projection behaves as if they never happened.

    ``version`` is the event the GM chose; ``consequences`` every other version taken back with it
    (the rest of its command, and in a duel every later event the rules say stands on it), so the
    fact names everything it undid. ``scope``: "event" when nothing later depended on it,
    "rewind" when the duel went back to just before it, "legacy" for a retraction recorded before
    retractions named what they carried (schema 1; read as the rules read it now, see
    ``tracker.projections.replay``)."""

    LABEL = t("Events retracted")

    SCHEMA = 2

    version: int  # the retracted event's version in this same stream
    retracted_type: str
    reason: str = ""
    consequences: tuple = ()  # every other version taken back with it
    scope: str = "event"

    @property
    def versions(self) -> tuple:
        return (self.version, *self.consequences)


@upcaster("EventRetracted", 1)
def _retraction_named_only_its_command(data: dict) -> dict:
    """Schema 1 took back the event and the others its command appended, and left every later
    event standing on a state that no longer existed; what it carried is decided on read now."""
    data["scope"] = "legacy"
    return data
