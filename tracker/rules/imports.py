"""Characters brought in from the tools GMs already use: what every ruleset's importers share.

A ruleset may offer ``IMPORTERS``: a mapping of a source's key (``foundry``, ``pathbuilder``…) to
an ``Importer``, which knows one export format and is pure (JSON in, a sheet out, no I/O). The
core (``tracker.domain.workspace.parse_import``) finds the importers through the registry, so it never
names a ruleset or a format. An importer reads the export into an ``Imported``: the character's
name and rank, its stats block for its ruleset (as a form would send it), the source's own id for
the character (so a newer export updates it), where each stat was read from, and what was left
out. A file it cannot read is refused with the JSON path of the field at fault (``Reader``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tracker.rules.base import Invalid
from tracker.rules.text import t

# The form's and the command's field the JSON arrives in: every refusal of an import names it.
JSON_FIELD = "json"

# What an export held that a sheet has no place for, by kind; each left-out item is (kind, name),
# the name as the source wrote it. Read as words when shown.
LEFT_OUT_KINDS = {
    "strike": t("Strike"),
    "damage": t("extra damage"),
    "trait": t("weapon trait (choose it on each Strike)"),
    "save": t("saving throw"),
    "skill": t("skill"),
    "spellcasting": t("spellcasting"),
    "spell_attack": t("spell attack (the sheet keeps the DC)"),
    "feat": t("feat"),
    "ability": t("ability"),
}


@dataclass(frozen=True)
class Imported:
    """One character read from an export."""

    name: str
    rank: str  # a workspace rank: "pj" for a player character, else an NPC's
    stats: dict  # the ruleset's stats block, as its form would send it
    source_id: str = ""  # the source's own id for the character ("" when it has none)
    paths: Mapping[str, str] = field(default_factory=dict)  # stat -> the JSON path it came from
    left_out: tuple[tuple[str, str], ...] = ()  # (kind, name): what the sheet has no place for


@dataclass(frozen=True)
class Importer:
    """One export format: its label, whether a JSON document looks like it, and its reader."""

    label: Any  # a Text: "Foundry VTT actor"
    recognises: Callable[[Any], bool]
    read: Callable[[Any], Imported]


def refuse(path: str, problem: Any) -> Invalid:
    """The refusal of a file, naming the JSON path of the field at fault."""
    return Invalid({JSON_FIELD: t("{path}: {problem}", path=path or "$", problem=problem)})


class Reader:
    """Reads values out of a JSON document by path, refusing with the path when one is wrong."""

    def __init__(self, data: Any):
        self.data = data

    def get(self, path: str, default: Any = None) -> Any:
        """The value at a dotted path, or ``default`` when any step is missing."""
        value = self.data
        for step in path.split("."):
            if isinstance(value, Mapping) and step in value:
                value = value[step]
            elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
                value = value[int(step)]
            else:
                return default
        return value

    def need(self, path: str) -> Any:
        value = self.get(path)
        if value is None:
            raise refuse(path, t("is required"))
        return value

    def number(self, path: str, default: Any = None, minimum: int = -999, maximum: int = 9999) -> int:
        """An integer at ``path`` (a number or a numeric string), within bounds."""
        value = self.get(path)
        if value is None or value == "":
            if default is None:
                raise refuse(path, t("is required"))
            return default
        return checked(path, value, minimum, maximum)

    def text(self, path: str, default: str = "", maximum: int = 120) -> str:
        value = self.get(path)
        if value is None:
            return default
        if not isinstance(value, str):
            raise refuse(path, t("must be text"))
        return value.strip()[:maximum]


def listed(value: Any) -> list:
    """A list from an export, or none when the export holds something else there."""
    return value if isinstance(value, list) else []


def checked(path: str, value: Any, minimum: int, maximum: int) -> int:
    """``value`` as an integer between the bounds, or refused naming ``path``."""
    if isinstance(value, bool):
        raise refuse(path, t("must be a number"))
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise refuse(path, t("must be a number")) from None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise refuse(path, t("must be a number"))
    if not minimum <= value <= maximum:
        raise refuse(path, t("must be between {minimum} and {maximum}, not {value}", minimum=minimum,
                             maximum=maximum, value=value))
    return value


def bounds(fields, name: str) -> tuple[int, int]:
    """The range a stats field takes (its form's), so an export's value out of it is refused at its path."""
    for f in fields:
        if f.name == name:
            return (f.minimum if f.minimum is not None else -999, f.maximum if f.maximum is not None else 9999)
    return -999, 9999
