"""PF2e characters brought in from Foundry VTT's PF2e system and from Pathbuilder 2e.

``foundry`` reads a Foundry actor (an NPC's figures as written, a PC's build worked out by the
rules in ``build``); ``pathbuilder`` reads Pathbuilder 2e's JSON export (its ``build`` and its
computed totals). Both are pure and fill the PF2e stats block of ``sheet.STATS``.
"""
from __future__ import annotations

from tracker.rules.imports import Importer
from tracker.rules.text import t

from . import foundry, pathbuilder

IMPORTERS = {
    "foundry": Importer(t("Foundry VTT actor (PF2e system)"), foundry.recognises, foundry.read),
    "pathbuilder": Importer(t("Pathbuilder 2e JSON export"), pathbuilder.recognises, pathbuilder.read),
}
