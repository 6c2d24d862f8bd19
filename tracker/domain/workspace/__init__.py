"""The GM's workspace as pure rules: campaigns, characters, play sessions, retractions.

Like a ruleset: commands in, events out (or a refusal), state as a fold of events.
Stats blocks are defined and validated by the rulesets themselves.
"""
from __future__ import annotations

import datetime as dt
import json
from typing import Any, Mapping

from tracker import rules
from tracker.domain import accounts
from tracker.domain.events import event, upcaster
from tracker.domain.languages import LANGUAGE_NAMES
from tracker.rules.base import Invalid, Refused
from tracker.rules.fields import Field, parse_fields
from tracker.rules.imports import JSON_FIELD, LEFT_OUT_KINDS, refuse
from tracker.rules.state import update
from tracker.rules.text import join, t

RANKS = (("pj", t("PC (player character)")), ("villano", t("Villain")), ("elite", t("Elite")),
         ("campeon", t("Champion")), ("minor", t("Minor NPC")))
RANK_LABELS = dict(RANKS)


# --- events ---------------------------------------------------------------------------

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


# --- commands -------------------------------------------------------------------------

def ruleset_choices() -> tuple[tuple[str, str], ...]:
    return tuple((name, module.TITLE) for name, module in rules.RULESETS.items())


CAMPAIGN_FIELDS = (
    Field("name", t("Name"), "text", maximum=120),
    Field("ruleset", t("Default ruleset"), "choice", choices=()),  # filled at parse time
    Field("notes", t("Notes"), "text", required=False, maximum=5000),
)
CHARACTER_FIELDS = (
    Field("name", t("Name"), "text", maximum=120),
    Field("rank", t("Player or NPC rank"), "choice", choices=RANKS),
    Field("player", t("Player"), "text", required=False, maximum=120, help=t("who plays this PC")),
    Field("notes", t("Notes"), "text", required=False, maximum=5000),
)
SESSION_FIELDS = (
    Field("number", t("Number"), "int", minimum=0, maximum=100000),
    Field("date", t("Date"), "text", maximum=10, help=t("YYYY-MM-DD")),
    Field("title", t("Title"), "text", maximum=200),
    Field("notes", t("Notes"), "text", required=False, maximum=5000),
)


def campaign_fields() -> tuple[Field, ...]:
    name, ruleset, notes = CAMPAIGN_FIELDS
    return (name, Field("ruleset", ruleset.label, "choice", choices=ruleset_choices()), notes)


def parse_campaign(raw: Mapping[str, Any]) -> dict:
    clean = parse_fields(campaign_fields(), raw)
    if not clean["name"]:
        raise Invalid({"name": t("is required")})
    clean["notes"] = clean["notes"] or ""
    return clean


def parse_campaign_rules(ruleset: Any, raw: Mapping[str, Any]) -> tuple[str, dict]:
    """A ruleset's campaign settings, validated by the ruleset itself."""
    module = rules.RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    if module is None or not getattr(module, "CAMPAIGN_SETTINGS", ()):
        raise Invalid({"ruleset": t("this ruleset has no campaign settings")})
    return module.NAME, module.validate_campaign_settings(raw)


def parse_character(raw: Mapping[str, Any]) -> dict:
    """A character form: the common fields, then each ruleset's stats block that was filled in.

    Stats fields are named ``<ruleset>.<field>`` in forms; the JSON API may also send
    ``{"stats": {"<ruleset>": {...}}}``. A block left wholly blank is simply absent.
    """
    errors: dict[str, str] = {}
    try:
        clean = parse_fields(CHARACTER_FIELDS, raw)
    except Invalid as bad:
        errors.update(bad.errors)
        clean = {}
    if clean.get("name") == "":
        errors["name"] = t("is required")
    stats: dict[str, dict] = {}
    nested = raw.get("stats") if isinstance(raw.get("stats"), dict) else {}
    # The rulesets a form names a field of (``<ruleset>.<field>``): a block the form does not
    # name at all is blank, without reading each of its fields (a ruleset may have two dozen).
    named = {key.split(".", 1)[0] for key in raw if isinstance(key, str) and "." in key}
    for name, module in rules.RULESETS.items():
        block = nested.get(name)
        if not isinstance(block, dict):
            if name not in named:
                continue
            block = {field: raw.get(key) for field, key in _form_keys(name, module.STATS)}
        if block is not nested.get(name) and _untouched(module.STATS, block):
            continue
        try:
            stats[name] = module.validate_stats(block)
        except Invalid as bad:
            errors.update({f"{name}.{k}": v for k, v in bad.errors.items()})
    if errors:
        raise Invalid(errors)
    clean["player"] = clean.get("player") or ""
    clean["notes"] = clean.get("notes") or ""
    clean["stats"] = stats
    return clean


def _untouched(fields, block: Mapping[str, Any]) -> bool:
    """True when a form's stats block was left as the form showed it: blank or defaults."""
    for name, blank in _blanks(fields):
        value = block.get(name)
        if value is not None and str(value).strip().lower() not in blank:
            return False
    return True


# Every command that names a character reads each ruleset's stats block: the form keys and what
# counts as blank for each field are worked out once per ruleset, not once per command.
# Each cache entry holds the fields it was made from: a ruleset registered again is seen anew.
_KEYS: dict[str, tuple[Any, list[tuple[str, str]]]] = {}
_BLANKS: dict[int, tuple[Any, list[tuple[str, tuple[str, ...]]]]] = {}


def _form_keys(ruleset: str, fields) -> list[tuple[str, str]]:
    cached = _KEYS.get(ruleset)
    if cached is None or cached[0] is not fields:
        cached = _KEYS[ruleset] = (fields, [(f.name, f"{ruleset}.{f.name}") for f in fields])
    return cached[1]


def _blanks(fields) -> list[tuple[str, tuple[str, ...]]]:
    cached = _BLANKS.get(id(fields))
    if cached is None or cached[0] is not fields:
        cached = _BLANKS[id(fields)] = (fields, [
            (f.name, ("", str(f.default).lower() if f.default is not None else "", "false" if not f.default else ""))
            for f in fields])
    return cached[1]


# --- imports ---------------------------------------------------------------------------

IMPORT_RANKS = (("", t("as the export says (PC or NPC)")), *RANKS)
IMPORT_FIELDS = (
    Field("rank", t("Player or NPC rank"), "choice", required=False, choices=IMPORT_RANKS),
    Field("player", t("Player"), "text", required=False, maximum=120, help=t("who plays this PC")),
)
LARGEST_EXPORT = 2_000_000  # characters of JSON: a Foundry iconic with its spells is about 200,000


def importers() -> dict[str, tuple[Any, Any]]:
    """Every source a ruleset can import from: its key -> (the ruleset, its importer)."""
    found = {}
    for module in rules.RULESETS.values():
        for key, importer in (getattr(module, "IMPORTERS", None) or {}).items():
            found.setdefault(key, (module, importer))
    return found


def import_choices() -> tuple[tuple[str, Any], ...]:
    return (("", t("find out from the file")), *((key, importer.label) for key, (_, importer) in importers().items()))


def parse_import(raw: Mapping[str, Any]) -> dict:
    """An export brought in: which source, and the sheet its importer read from it (validated by
    the ruleset as a form's would be), or Invalid naming the field, and for a file the JSON path
    of the value at fault."""
    clean = parse_fields(IMPORT_FIELDS, raw)
    data = raw.get(JSON_FIELD)
    if isinstance(data, (bytes, bytearray)):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Invalid({JSON_FIELD: t("is not text in UTF-8")}) from None
    if isinstance(data, str):
        if not data.strip():
            raise Invalid({JSON_FIELD: t("is required: choose a file or paste its JSON")})
        if len(data) > LARGEST_EXPORT:
            raise Invalid({JSON_FIELD: t("is too long (at most {maximum} characters)", maximum=LARGEST_EXPORT)})
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as problem:
            raise Invalid({JSON_FIELD: t("is not JSON (line {line}, column {column})", line=getattr(problem, "lineno", 1),
                                         column=getattr(problem, "colno", 1))}) from None
    if data is None:
        raise Invalid({JSON_FIELD: t("is required: choose a file or paste its JSON")})
    if not isinstance(data, dict):
        raise refuse("$", t("must be a JSON object"))
    known = importers()
    source = raw.get("source") or ""
    if not isinstance(source, str):
        raise Invalid({"source": t("choose one of {choices}", choices=", ".join(known))})
    if source:
        if source not in known:
            raise Invalid({"source": t("choose one of {choices}", choices=", ".join(known))})
    else:
        source = next((key for key, (_, importer) in known.items() if importer.recognises(data)), "")
        if not source:
            raise refuse("$", t("is none of the formats Touché reads: {formats}",
                                formats=join([importer.label for _, importer in known.values()])))
    module, importer = known[source]
    try:
        read = importer.read(data)
    except Invalid:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError):
        # An export shaped in a way its importer did not foresee: refused, never a server error.
        raise refuse("$", t("holds a value of a kind the importer does not read")) from None
    try:
        stats = module.validate_stats(read.stats)
    except Invalid as bad:
        field, problem = next(iter(bad.errors.items()))
        raise refuse(read.paths.get(field, "$"), problem) from None
    return {"source": source, "ruleset": module.NAME, "name": read.name[:120] or "?",
            "rank": clean["rank"] or "", "export_rank": read.rank, "player": clean["player"] or "", "stats": stats,
            "source_id": read.source_id[:120], "left_out": tuple(tuple(item) for item in read.left_out)}


def left_out_words(left_out) -> Any:
    """What an import left out, as words: "Strike: Shortbow, saving throw: Fortitude +5"."""
    return join([t("{kind}: {name}", kind=LEFT_OUT_KINDS.get(kind, kind), name=name) for kind, name in left_out])


def parse_session(raw: Mapping[str, Any], on_the_fly: bool = False) -> dict:
    """A session's page; planned ``on_the_fly`` it takes no title (its title is told when shown)."""
    clean = parse_fields(SESSION_FIELDS, {**raw, "title": "-"} if on_the_fly else raw)
    try:
        dt.date.fromisoformat(clean["date"])
    except ValueError:
        raise Invalid({"date": t("must be a date like 2026-11-29")}) from None
    if on_the_fly:
        clean["title"] = ""
    elif not clean["title"]:
        raise Invalid({"title": t("is required")})
    clean["notes"] = clean["notes"] or ""
    return clean


def session_title(title: str, date: str) -> Any:
    """A session's title as a reader reads it: its own, or, for a session planned on the fly (no
    title, or the English sentence older logs stored), "Duels of <date>" in the reader's language."""
    if not title or title == _OLD_ON_THE_FLY.format(date=date):
        return t("Duels of {date}", date=date)
    return title


# --- folds ----------------------------------------------------------------------------

def evolve(state: dict | None, ev: Any, at: int) -> dict:
    """Fold one workspace event into its stream's state."""
    if isinstance(ev, CampaignCreated):
        return {"id": ev.campaign_id, "name": ev.name, "ruleset": ev.ruleset, "notes": ev.notes,
                "owner": ev.owner, "co_gms": {}, "links": {}}
    if isinstance(ev, accounts.CAMPAIGN_EVENTS):
        return accounts.evolve_campaign(state, ev)
    if isinstance(ev, CampaignEdited):
        return update(state, name=ev.name, ruleset=ev.ruleset, notes=ev.notes)
    if isinstance(ev, CampaignRulesChanged):
        return update(state, rules={**state.get("rules", {}), ev.ruleset: dict(ev.settings)})
    if isinstance(ev, CampaignLanguageSet):
        return update(state, language=ev.language)
    if isinstance(ev, CharacterCreated):
        return {"id": ev.character_id, "campaign_id": ev.campaign_id, "name": ev.name,
                "rank": ev.rank, "player": ev.player, "notes": ev.notes, "stats": dict(ev.stats or {})}
    if isinstance(ev, CharacterEdited):
        return update(state, name=ev.name, rank=ev.rank, player=ev.player, notes=ev.notes,
                      stats=dict(ev.stats or {}))
    if isinstance(ev, CharacterImported):
        return update(state, imported={"ruleset": ev.ruleset, "source": ev.source, "source_id": ev.source_id,
                                       "left_out": [list(item) for item in ev.left_out]})
    if isinstance(ev, (CharacterRecovered, TrackAdjusted)):
        return update(state, changes=state.get("changes", []) + _track_changes(ev, at))
    if isinstance(ev, SessionPlanned):
        return {"id": ev.session_id, "campaign_id": ev.campaign_id, "number": ev.number,
                "date": ev.date, "title": ev.title, "notes": ev.notes, "on_the_fly": ev.on_the_fly}
    if isinstance(ev, SessionEdited):
        return update(state, number=ev.number, date=ev.date, title=ev.title, notes=ev.notes, on_the_fly=False)
    if isinstance(ev, SessionClosed):
        return update(state, closed=True)
    raise TypeError(f"not a workspace event: {type(ev).__name__}")


def _track_changes(ev: Any, at: int) -> list[dict]:
    """The sheet's lines for a recovery or an adjustment: one per track it changed."""
    if isinstance(ev, TrackAdjusted):
        return [{"at": at, "ruleset": ev.ruleset, "track": ev.track, "amount": ev.amount,
                 "kind": "adjustment", "note": ev.reason}]
    label = _recovery_label(ev.ruleset, ev.recovery)
    note = t("{label} ({result})", label=label, result=_result(ev.result)) if ev.result else label
    return [{"at": at, "ruleset": ev.ruleset, "track": track, "amount": amount, "kind": ev.recovery, "note": note}
            for track, amount in ev.changes.items()]


def _recovery_label(ruleset: str, kind: str) -> str:
    module = rules.RULESETS.get(ruleset)
    found = getattr(module, "RECOVERIES", {}).get(kind)
    return found.label if found else kind


def _result(result: str) -> Any:
    """A check's result key read as words (``critical_success``: "critical success")."""
    return RESULTS.get(result, result.replace("_", " "))


RESULTS = {"critical_success": t("critical success"), "success": t("success"), "failure": t("failure"),
           "critical_failure": t("critical failure")}


def _signed(changes: dict) -> Any:
    return join([f"{amount:+d} {track}" for track, amount in changes.items() if amount]) or t("nothing to restore")


def describe(state: dict | None, ev: Any) -> Any:
    """The event in plain language, given the state before it: a Text, read in the reader's language."""
    if isinstance(ev, CampaignCreated):
        return t("Campaign “{name}” created ({ruleset}).", name=ev.name, ruleset=_title(ev.ruleset))
    if isinstance(ev, CampaignEdited):
        return t("Campaign details edited: “{name}”.", name=ev.name)
    if isinstance(ev, CampaignRulesChanged):
        return t("The campaign's {ruleset} settings changed.", ruleset=_title(ev.ruleset))
    if isinstance(ev, CampaignLanguageSet):
        return t("The campaign's language is now {language}.", language=LANGUAGE_NAMES.get(ev.language, ev.language))
    if isinstance(ev, CharacterCreated):
        blocks = join([_title(r) for r in (ev.stats or {})]) if ev.stats else t("no stats yet")
        return t("{name} joined the campaign as {rank} ({blocks}).", name=ev.name,
                 rank=RANK_LABELS.get(ev.rank, ev.rank), blocks=blocks)
    if isinstance(ev, CharacterEdited):
        if state and state["name"] != ev.name:
            return t("{name}'s sheet was edited (was {old}).", name=ev.name, old=state["name"])
        return t("{name}'s sheet was edited.", name=ev.name)
    if isinstance(ev, CharacterImported):
        found = importers().get(ev.source)
        values = dict(name=state["name"], source=found[1].label if found else ev.source)
        if not ev.left_out:
            return t("{name}'s sheet was brought in from a {source}.", **values)
        return t("{name}'s sheet was brought in from a {source}; not imported: {left_out}.",
                 left_out=left_out_words(ev.left_out), **values)
    if isinstance(ev, CharacterRecovered):
        how = [_result(ev.result)] if ev.result else []
        if ev.rolls:
            how.append(t("rolled {dice}", dice=" ".join(map(str, ev.rolls))))
        values = dict(name=state["name"], recovery=_recovery_label(ev.ruleset, ev.recovery),
                      ruleset=_title(ev.ruleset), changes=_signed(ev.changes))
        if how:
            values["ruleset"] = join([values["ruleset"], join(how)], "; ")
        if ev.session_id:
            return t("{name}: {recovery} with the party at the end of the session ({ruleset}): {changes}.", **values)
        return t("{name}: {recovery} ({ruleset}): {changes}.", **values)
    if isinstance(ev, TrackAdjusted):
        signed = "%+d" % ev.amount
        return t("{name}'s {track} adjusted by {amount}: {reason}.", name=state["name"], track=ev.track,
                 amount=signed, reason=ev.reason)
    if isinstance(ev, SessionPlanned):
        return t("Session {number} planned for {date}: “{title}”.", number=ev.number, date=ev.date,
                 title=session_title(ev.title, ev.date))
    if isinstance(ev, SessionEdited):
        return t("Session {number} edited: “{title}”.", number=ev.number, title=ev.title)
    if isinstance(ev, SessionClosed):
        return t("Session {number} closed: its players' seats stop working.", number=state["number"])
    if isinstance(ev, accounts.CAMPAIGN_EVENTS):
        return accounts.describe_campaign(ev)
    return type(ev).__name__


def _title(ruleset: str) -> Any:
    module = rules.RULESETS.get(ruleset)
    return str(module.TITLE) if module else ruleset


# --- retraction -------------------------------------------------------------------------

UNRETRACTABLE = {"CampaignCreated", "CharacterCreated", "SessionPlanned", "DuelStarted", "EventRetracted",
                 "RetractionRestored",
                 "GMRegistered", "CoGMAdded", "CoGMRemoved", "PlayerLinkIssued", "PlayerLinkRevoked",
                 "ApiTokenIssued", "ApiTokenRevoked", "GMPasswordChanged", "GMLoggedOut",
                 "GMSessionsEnded", "CampaignOwnerAssigned"}


def decide_retraction(target_type: str, target_version: int, decided_with: list[tuple[int, str]],
                      carried: list[int], retracted: set[int], reason: str) -> list:
    """Retract one event of a stream, with every event that goes with it, or refuse.

    ``decided_with`` holds (version, type) of every event the same command appended (the target
    among them); ``carried`` the versions of the later events the stream's rules say stand on it."""
    if target_version in retracted:
        raise Refused(t("that event is already retracted"))
    if target_type in UNRETRACTABLE:
        what = {"EventRetracted": t("a retraction (restore it instead)"),
                "RetractionRestored": t("a restore (retract the event again instead)"),
                "DuelStarted": t("the start of a duel (abandon the duel instead)")}
        raise Refused(t("cannot retract {what}: later events stand on it",
                        what=what.get(target_type, t("a creation event"))))
    if any(kind == "DuelStarted" for _, kind in decided_with):
        raise Refused(t("this was decided with the start of the duel (the opening shuffle and deal): "
                        "abandon the duel and start it again instead"))
    taken = {v for v, _ in decided_with if v not in retracted} | set(carried)
    consequences = tuple(sorted(taken - {target_version}))
    return [EventRetracted(version=target_version, retracted_type=target_type, reason=reason,
                           consequences=consequences, scope="rewind" if carried else "event")]


def decide_restore(retraction_version: int, retraction_type: str, standing_after: list[int], taken: set[int],
                   reason: str) -> list:
    """Restore a retraction, or refuse: only a retraction still in force, and only while nothing
    standing was logged after it in its stream, so the stream returns to a state it really had
    (the later events were decided without what it took back)."""
    if retraction_type != "EventRetracted":
        raise Refused(t("only a retraction can be restored"))
    if retraction_version not in taken:
        raise Refused(t("this retraction was already restored"))
    if standing_after:
        raise Refused(t("later events were logged after this retraction, on the state it left: "
                        "restoring it would mix two pasts. Retract those first, then restore it"))
    return [RetractionRestored(version=retraction_version, reason=reason)]
