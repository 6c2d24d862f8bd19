"""Words the pages show for the keys the data holds (a rank, a form field's name), in the reader's
language: the data keeps ``pj`` or ``expected_version``, a page says "PC" or "Version"."""
from __future__ import annotations

from typing import Any

from tracker import rules
from tracker.rules import duel
from tracker.rules.text import t

RANK_SHORT = {"pj": t("PC"), "villano": t("Villain"), "elite": t("Elite"), "campeon": t("Champion"),
              "minor": t("Minor NPC")}

# A form field's name, as the error summary at the top of a refused form names it.
FIELD_NAMES = {
    "name": t("Name"), "ruleset": t("Ruleset"), "notes": t("Notes"), "rank": t("Rank"), "player": t("Player"),
    "number": t("Number"), "date": t("Date"), "title": t("Title"), "username": t("Username"),
    "password": t("Password"), "code": t("Set-up code"), "language": t("Language"), "label": t("Label"),
    "expected_version": t("Version"), "current_password": t("Current password"),
    "new_password": t("New password"), "reason": t("Reason"), "track": t("Track"), "amount": t("Amount"),
    "duelists": t("Duelists"), "side": t("Side"), "session_id": t("Session"), "campaign_id": t("Campaign"),
    "character_id": t("Character"), "stakes": t("Stakes"), "judge": t("Judge"), "challenger": t("Challenger"),
    "note": t("Note"), "body": t("Body"), "type": t("Command"), "command_id": t("Command id"),
    "kind": t("Kind"), "position": t("Event"), "duplicate_ok": t("Same name"),
}

# The log's kinds of line (its filter), by the stream they are about, and the corrections.
LOG_CATEGORIES = {"campaign": t("campaign"), "character": t("character"), "session": t("session"),
                  "duel": t("duel"), "correction": t("correction")}

# How a duel ended, as the rules key it (every ruleset's endings, and the common ones).
ENDINGS = {"custom": t("custom ending"), "death": t("death"), "first_blood": t("first blood"), "hit": t("hit"),
           "hits": t("hits"), "humiliation": t("humiliation"), "knockout": t("knockout"),
           "out_of_shots": t("out of shots"), "points": t("points"), "points_tied": t("points tied"),
           "unconscious": t("unconscious"), "abandoned": t("abandoned"), "disqualification": t("disqualification"),
           "yield": t("yield"), "yielded": t("yielded"), "draw": t("draw"), "agreement": t("agreement")}

# A duelist's result in a duel.
RESULTS = {"win": t("won"), "loss": t("lost"), "draw": t("drawn"), "abandoned": t("abandoned")}

# The duel history's filter on outcomes and its sort orders.
OUTCOMES = {"won": t("a side won"), "draw": t("drawn"), "abandoned": t("abandoned"), "running": t("still running"),
            "win": t("the character won"), "loss": t("the character lost")}
SORTS = {"newest": t("newest"), "oldest": t("oldest"), "longest": t("longest"), "bloodiest": t("bloodiest")}


def ending(key: Any) -> Any:
    """How a duel ended, in words: ``first_blood`` reads "first blood" (primera sangre)."""
    if not key:
        return ""
    # The endings a ruleset names itself (Rocèt's "clock": "reloj"), as its summaries say them.
    return ENDINGS.get(key) or duel.ENDING_LABELS.get(key) or str(key).replace("_", " ")


def result(key: Any) -> Any:
    return RESULTS.get(key, key)


def rank_short(rank: Any) -> Any:
    """A character's rank as a list shows it: PC (PJ in Spanish), Villain, Elite…"""
    return RANK_SHORT.get(rank, rank)


def track_label(track: str, ruleset: str) -> Any:
    """A track's name as its ruleset's sheet says it, in the reader's language (PF2e's ``HP`` is
    "PG" in Spanish, as Rocèt's ``PG`` is): the data keeps the key."""
    module = rules.RULESETS.get(ruleset)
    return next((entry["label"] for entry in getattr(module, "TRACKS", ()) if entry["track"] == track), track)
