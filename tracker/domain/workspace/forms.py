"""The workspace's forms: the fields of each sheet and their parsing into an event's data."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Mapping

from tracker import rules
from tracker.rules.base import Invalid
from tracker.rules.fields import Field, parse_fields
from tracker.rules.imports import JSON_FIELD, LEFT_OUT_KINDS, refuse
from tracker.rules.text import join, t
from tracker.domain.workspace.events import RANKS, _OLD_ON_THE_FLY


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
