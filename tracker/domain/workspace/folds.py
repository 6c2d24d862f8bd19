"""The workspace folded from its events, and each event told as a line of the log."""

from __future__ import annotations

from typing import Any

from tracker import rules
from tracker.domain import accounts
from tracker.domain.languages import LANGUAGE_NAMES
from tracker.rules.state import update
from tracker.rules.text import join, t
from tracker.domain.workspace.events import (
    CampaignCreated, CampaignEdited, CampaignLanguageSet, CampaignRulesChanged, CharacterCreated,
    CharacterEdited, CharacterImported, CharacterRecovered, RANK_LABELS, SessionClosed, SessionEdited,
    SessionPlanned, TrackAdjusted,
)
from tracker.domain.workspace.forms import importers, left_out_words, session_title


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
