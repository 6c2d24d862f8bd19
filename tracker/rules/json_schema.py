"""JSON Schemas (2020-12, as OpenAPI 3.1 reads them) of what a ruleset declares with ``Field``s:
one field, a command's fields, a character's stats block and a duel's set-up. Built from the very
fields the parser coerces with, so a description cannot drift from what is accepted."""
from __future__ import annotations

from typing import Any, Sequence

from tracker.rules.fields import DIE_SIZES, LARGEST_INT, Field

DICE = {"anyOf": [{"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 100}},
                  {"type": "string", "description": "die values separated by spaces, e.g. \"5 3\""}],
        "$comment": "which dice, and what for: the field's `dice` and `rolls` in the duel's legal_actions"}
DIE = {"enum": [*(f"d{size}" for size in DIE_SIZES), *DIE_SIZES]}


def field_schema(f: Field) -> dict:
    """The JSON schema of one field, as ``tracker.rules.fields`` parses it."""
    schema: dict[str, Any]
    if f.kind == "int":
        schema = {"type": "integer", "minimum": -LARGEST_INT if f.minimum is None else f.minimum,
                  "maximum": LARGEST_INT if f.maximum is None else f.maximum}
    elif f.kind == "bool":
        schema = {"type": "boolean"}
    elif f.kind == "choice":
        schema = {"enum": [value for value, _ in f.choices]}
    elif f.kind in ("text", "character"):
        schema = {"type": "string", "maxLength": f.maximum or 2000}
    elif f.kind == "dice":
        schema = dict(DICE)
    elif f.kind == "die":
        schema = dict(DIE)
    elif f.kind == "weapons" and f.cells:
        # A table: a list of rows, each an object of its cells, or the form's text, a row a line.
        schema = {"anyOf": [{"type": "array", "maxItems": 100, "items": table_row(f.cells)},
                            {"type": "string", "maxLength": 20_000,
                             "description": "one row a line, its cells separated by |: " + " | ".join(f.columns)}]}
    else:
        schema = {}
    if f.default is not None and not isinstance(f.default, tuple):
        schema["default"] = f.default
    if not f.required and "enum" not in schema and f.kind != "bool" and schema:
        schema = {"anyOf": [schema, {"type": "null"}]}
    words = f"{f.label}" + (f": {f.help}" if f.help else "")
    return {**schema, "description": words}


def table_row(cells: Sequence[Field]) -> dict:
    """One row of a table field (a weapon, an insult): an object of its cells, nothing else."""
    return {"type": "object", "additionalProperties": False,
            "required": [c.name for c in cells if _required(c)],
            "properties": {c.name: field_schema(c) for c in cells}}


def _required(f: Field) -> bool:
    return f.required and f.default is None and f.kind != "bool"


def fields_schema(fields: Sequence[Field], title: str = "", description: str = "") -> dict:
    """An object of these fields and no other: their types, bounds, choices, defaults, which are
    required, and which need another beside them (``dependentRequired``, from ``depends_on``)."""
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False,
                              "properties": {f.name: field_schema(f) for f in fields}}
    required = [f.name for f in fields if _required(f)]
    if required:
        schema["required"] = required
    dependent = {f.name: list(f.depends_on) for f in fields if f.depends_on}
    if dependent:
        schema["dependentRequired"] = dependent
    if title:
        schema["title"] = title
    if description:
        schema["description"] = description
    return schema


def sheet_schema(module) -> dict:
    """A ruleset's stats block on a character sheet (``stats.<ruleset>`` of CreateCharacter)."""
    return fields_schema(module.STATS, f"{module.NAME} character sheet",
                         f"{module.TITLE}: the stats block a character needs to duel under these rules")


def setup_schema(module) -> dict:
    """A ruleset's duel set-up (``setup`` of StartDuel): every field any of its kinds takes."""
    return fields_schema(module.SETUP, f"{module.NAME} duel set-up",
                         f"{module.TITLE}: how a duel is set up (each kind reads the fields it needs)")


def ruleset_schemas(module) -> dict[str, dict]:
    """Both schemas of a ruleset, by name: ``sheet`` and ``setup``."""
    return {"sheet": sheet_schema(module), "setup": setup_schema(module)}
