"""Commands on duels: starting one, and the envelope of a duel's own commands."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from tracker import rules
from tracker.application.commands.base import Command, as_list, expected, key
from tracker.rules.base import Invalid
from tracker.rules.fields import Field, parse_fields
from tracker.rules.text import t

START_FIELDS = (
    Field("stakes", t("Stakes"), "text", required=False, maximum=2000),
    Field("judge", t("Judge"), "text", required=False, maximum=200),
    Field(
        "challenger",
        t("Who challenged"),
        "choice",
        required=False,
        choices=(("", t("nobody in particular")), ("a", t("Side A challenged")), ("b", t("Side B challenged"))),
    ),
)


@dataclass(frozen=True)
class StartDuel(Command):
    """``duelists`` pairs a character id with its side; ``setup`` is what the ruleset reads to
    set the duel up (the whole form, or the JSON body's ``setup`` object). Without a
    ``session_id``, the duel goes into the ``campaign_id``'s session of today, planned on the fly
    when there is none."""

    session_id: str
    ruleset: str
    stakes: str
    judge: str
    challenger: str
    duelists: tuple[tuple[str, str], ...]
    setup: Mapping[str, Any]
    campaign_id: str = ""  # only for a duel outside any planned session

    @classmethod
    def parse(cls, raw):
        today = not raw.get("session_id") and raw.get("campaign_id")
        session_id = "" if today else key(raw.get("session_id"), "session_id")
        name = raw.get("ruleset")
        if not isinstance(name, str) or name not in rules.RULESETS:
            raise Invalid({"ruleset": t("choose one of {choices}", choices=", ".join(rules.RULESETS))})
        common = parse_fields(START_FIELDS, raw)
        setup = raw.get("setup") if isinstance(raw.get("setup"), dict) else raw
        return cls(session_id, name, common["stakes"] or "", common["judge"] or "", common["challenger"] or "",
                   _duelists(raw), setup, key(raw["campaign_id"], "campaign_id") if today else "")


def _duelists(raw: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The chosen characters and their sides: a JSON list, or a form's side_a / side_b ids."""
    chosen = raw.get("duelists")
    if not isinstance(chosen, list):
        return tuple((str(cid), side) for side in ("a", "b") for cid in as_list(raw.get(f"side_{side}")) if cid)
    for entry in chosen:
        if not isinstance(entry, dict) or entry.get("side") not in ("a", "b"):
            raise Invalid({"duelists": t("each duelist needs a character_id and a side (a or b)")})
    return tuple((str(entry.get("character_id")), entry["side"]) for entry in chosen)


NOTE_FIELDS = (
    Field("text", t("Note"), "text", maximum=2000),
    Field("about", t("About event"), "int", required=False, minimum=0,
          help=t("the version of the event (the turn) it is about; empty or 0 for the whole duel")),
    Field("public", t("Players may read it"), "bool", default=False),
)


@dataclass(frozen=True)
class TakeOverSeat(Command):
    """The GM takes back a side a player's seat plays (a player who left): needs no expected
    version, since it stands on nothing the rules decide."""

    duel_id: str
    side: str

    @classmethod
    def parse(cls, raw):
        duel_id = key(raw.get("duel_id"), "duel_id")
        side = raw.get("side")
        if side not in ("a", "b"):
            raise Invalid({"side": t("choose side A or side B")})
        return cls(duel_id, side)


@dataclass(frozen=True)
class NoteDuel(Command):
    """The GM's note on a duel or on one of its moments; it needs no expected version, as it
    stands on nothing the rules decide."""

    duel_id: str
    text: str
    about: int
    public: bool

    @classmethod
    def parse(cls, raw):
        duel_id = key(raw.get("duel_id"), "duel_id")
        clean = parse_fields(NOTE_FIELDS, raw)
        if not clean["text"]:
            raise Invalid({"text": t("write the note")})
        return cls(duel_id, clean["text"], clean["about"] or 0, clean["public"])


ADJUST_IN_DUEL_FIELDS = (
    Field("character_id", t("Duelist"), "text", maximum=40),
    Field("track", t("Track"), "text", maximum=40),
    Field("amount", t("Amount"), "int", minimum=-999, maximum=999,
          help=t("positive gives points back, negative takes them; never down to 0")),
    Field("reason", t("Reason"), "text", required=False, maximum=200,
          help=t("e.g. forgot the +2, the cleric healed him (the log shows it)")),
)


@dataclass(frozen=True)
class AdjustDuelTrack(Command):
    """The GM's correction of a duelist's track inside a running duel, by an amount with a reason.
    The page's form names duelist and track at once (``target``: "character_id track"); the API
    sends ``character_id`` and ``track``. Later events stand on the numbers it changes, so it
    carries the version the form was opened at."""

    duel_id: str
    character_id: str
    track: str
    amount: int
    reason: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        duel_id = key(raw.get("duel_id"), "duel_id")
        raw = dict(raw)
        target = raw.get("target")
        if isinstance(target, str) and " " in target.strip():
            raw["character_id"], raw["track"] = target.strip().split(" ", 1)
        try:
            clean = parse_fields(ADJUST_IN_DUEL_FIELDS, raw)
        except Invalid as problem:
            if "character_id" in problem.errors or "track" in problem.errors:  # the form's one choice
                raise Invalid({"target": t("choose whose track"), **problem.errors}) from None
            raise
        errors = {}
        if clean["amount"] == 0:
            errors["amount"] = t("must not be 0")
        if not clean["reason"]:
            errors["reason"] = t("is required: say why (the log shows it)")
        if errors:
            raise Invalid(errors)
        return cls(duel_id, clean["character_id"], clean["track"], clean["amount"], clean["reason"], expected(raw))


@dataclass(frozen=True)
class DuelCommand(Command):
    """One of a duel's own commands, before its ruleset (known from the duel) types its fields."""

    action: str
    duel_id: str
    fields: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return self.action

    @classmethod
    def parse(cls, raw):
        return cls(str(raw.get("type")), key(raw.get("duel_id"), "duel_id"), raw)
