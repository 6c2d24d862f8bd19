"""Backup from the web: download a campaign's log, import one into a new campaign.

The download is ``export-log``'s JSON Lines for one campaign, hash chain and trailer included.
An import is checked as the command line checks it, then every id the file holds (campaign,
characters, sessions, duels, player links) is swapped for a fresh one, so a campaign can be
imported into the very instance it came from; the importing GM owns the copy. All its events
are appended and projected in one transaction: a bad file appends nothing, and the page names
the line at fault.
"""
from __future__ import annotations

import io
import re
import secrets
from typing import Any, Iterable, Iterator

from flask import Blueprint, Response, g, redirect, render_template, request, url_for

from tracker.backup import BadLog, check_lines, export_lines
from tracker.db import get_db
from tracker.projections import queries
from tracker.projections.engine import Projector
from tracker.store import Conflict, EventStore, dumps, loads, write_transaction
from tracker.web import service

bp = Blueprint("backup", __name__)

CAMPAIGN_STREAMS = ("campaign", "character", "session", "duel")


@bp.get("/campaigns/<campaign_id>/backup.jsonl")
def download(campaign_id):
    """Download the campaign's whole event log as JSON Lines."""
    db = get_db()
    campaign = queries.campaign(db, campaign_id)
    out = io.StringIO()
    export_lines(db, out, campaign_id=campaign_id)
    slug = re.sub(r"[^a-z0-9]+", "-", campaign["name"].lower()).strip("-") or "campaign"
    response = Response(out.getvalue(), mimetype="application/jsonl")
    response.headers["Content-Disposition"] = f'attachment; filename="{slug}-{campaign_id}.jsonl"'
    return response


@bp.get("/import")
def new():
    """Show the form that imports a campaign's log into a new campaign."""
    return render_template("backup/import.html", error=None)


@bp.post("/import")
def create():
    """Import an uploaded log into a new campaign, or say which line is wrong."""
    upload = request.files.get("log")
    if upload is None or not upload.filename:
        return render_template("backup/import.html", error="Choose a log file (.jsonl) to import."), 422
    try:
        campaign_id = import_campaign(get_db(), _text_lines(upload.stream), owner=g.gm["id"],
                                      new_id=service().context.new_id)
    except BadLog as bad:
        return render_template("backup/import.html", error=_sentence(bad) + " Nothing was imported."), 422
    return redirect(url_for("campaigns.show", campaign_id=campaign_id))


def _sentence(bad: BadLog) -> str:
    text = str(bad)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _text_lines(stream) -> Iterator[str]:
    for number, raw in enumerate(stream, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadLog(number, "not UTF-8 text") from None


def import_campaign(db, lines: Iterable[str], owner: str, new_id) -> str:
    """Check a campaign's log, give it fresh ids, append and project it; the new campaign's id."""
    rows = check_lines(lines)
    ids, old_campaign = _fresh_ids(rows, new_id)
    fresh = []
    for number, (_, stream, version, kind, schema, data, metadata, _) in enumerate(rows, start=1):
        meta = loads(metadata)
        if meta.get("campaign_id") != old_campaign:
            raise BadLog(number, "this event belongs to another campaign")
        category, key = stream.split("-", 1)
        new_data = _swap(loads(data), ids)
        if kind == "CampaignCreated":
            new_data["owner"] = owner
        # No command id: a command replayed here must not find the original campaign's events.
        fresh.append((f"{category}-{ids[key]}", version, kind, schema, dumps(new_data),
                      dumps({**meta, "campaign_id": ids[old_campaign], "command_id": None}), None))
    store = EventStore(db)
    with write_transaction(db):
        try:
            recorded = store.append_rows(fresh)
        except Conflict as clash:
            raise BadLog(0, f"an id of the file clashes with {clash.stream}: import again") from None
        projector = Projector(db, store, rebuilding=True)
        for number, rec in enumerate(recorded, start=1):
            try:
                projector.apply(rec)
            except Exception as problem:  # whatever the rules cannot fold refuses the whole file
                raise BadLog(number, f"{rec.type} cannot be folded: {problem}") from None
        projector.flush()
    return ids[old_campaign]


def _fresh_ids(rows: list[tuple], new_id) -> tuple[dict[str, str], str]:
    """A fresh id for every stream key and player link of the file, and the campaign's old id."""
    ids: dict[str, str] = {}
    campaign = None
    for number, (_, stream, _, kind, _, data, _, _) in enumerate(rows, start=1):
        category, key = stream.split("-", 1)
        if category not in CAMPAIGN_STREAMS:
            raise BadLog(number, f"{stream} is not part of a campaign: export one campaign from its page")
        if kind == "CampaignCreated":
            if campaign is not None:
                raise BadLog(number, "a second campaign: import one campaign at a time")
            campaign = key
        if kind == "PlayerLinkIssued":
            ids[loads(data)["link_id"]] = secrets.token_hex(8)
        ids.setdefault(key, new_id())
    if campaign is None:
        raise BadLog(1, "no CampaignCreated event: this is not a campaign's log")
    return ids, campaign


def _swap(value: Any, ids: dict[str, str]) -> Any:
    """The value with every old id (as a string or as a key) replaced by its fresh one."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [_swap(v, ids) for v in value]
    if isinstance(value, dict):
        return {ids.get(k, k): _swap(v, ids) for k, v in value.items()}
    return value
