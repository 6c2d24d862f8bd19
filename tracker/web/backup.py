"""Backup from the web: download a campaign's log, import one into a new campaign.

The download is ``export-log``'s JSON Lines for one campaign, hash chain and signed trailer
included, streamed from the database, each field no reader may see sealed (``tracker.backup.sealed_fields``). An import (``tracker.backup.campaign_import``) reads the upload
as it was spooled to disk, line by line, checks it whole, then appends it as a new campaign of
the importing GM in one transaction: a bad file appends nothing, and the page names the line at
fault. A large upload is imported in a thread (``tracker.web.import_jobs``) while its page
shows the progress. A refusal is put into words when the page is drawn, in its reader's language.
"""
from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import format_decimal

from tracker.backup import BadLog, TextLines, export, signing_key
from tracker.backup.campaign_import import import_campaign
from tracker.bootstrap.db import get_db, open_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.backup.sealed_fields import Sealer
from tracker.web import import_jobs, service

bp = Blueprint("backup", __name__)


@bp.app_template_filter("format_number")
def format_number(value: int) -> str:
    """A count as the page's readers write it: 12,345 or 12.345."""
    return format_decimal(value)


def install_key() -> bytes:
    """The key this install signs its exports with."""
    return signing_key(current_app.config["SECRET_KEY"])


def install_sealer() -> Sealer:
    """What seals the fields no reader may see in this install's exports, and opens them again."""
    return Sealer(current_app.config["SECRET_KEY"])


@bp.get("/campaigns/<campaign_id>/backup.jsonl")
def download(campaign_id):
    """Download the campaign's whole event log as JSON Lines."""
    db = get_db()
    campaign = queries.campaign(db, campaign_id)
    slug = re.sub(r"[^a-z0-9]+", "-", campaign["name"].lower()).strip("-") or "campaign"
    response = Response(_exported(current_app.config["DATABASE"], campaign_id, install_key(), install_sealer()),
                        mimetype="application/jsonl")
    response.headers["Content-Disposition"] = f'attachment; filename="{slug}-{campaign_id}.jsonl"'
    return response


def _exported(path: str, campaign_id: str, key: bytes, sealer: Sealer):
    # Its own connection: the request's is closed when the view returns, before the body is sent.
    db = open_db(path)
    try:
        yield from export(db, campaign_id=campaign_id, key=key, sealer=sealer)
    finally:
        db.close()


@bp.get("/import")
def new():
    """Show the form that imports a campaign's log into a new campaign."""
    return render_template("backup/import.html", error=None)


@bp.post("/import")
def create():
    """Import an uploaded log into a new campaign, or say which line is wrong."""
    upload = request.files.get("log")
    if upload is None or not upload.filename:
        return render_template("backup/import.html", error=t("Choose a log file (.jsonl) to import.")), 422
    if (request.content_length or 0) > current_app.config.get("IMPORT_IN_BACKGROUND_BYTES", BACKGROUND_BYTES):
        job = import_jobs.start(current_app.config["DATABASE"], upload.stream, g.gm["id"],
                                service().context.new_id, install_key(), install_sealer())
        return redirect(url_for("backup.progress", job_id=job.id), 303)
    try:
        campaign_id, _ = import_campaign(get_db(), TextLines(upload.stream), owner=g.gm["id"],
                                         new_id=service().context.new_id, key=install_key(),
                                         sealer=install_sealer())
    except BadLog as bad:
        return render_template("backup/import.html", error=refusal(bad)), 422
    return redirect(url_for("campaigns.show", campaign_id=campaign_id))


@bp.get("/import/<job_id>")
def progress(job_id):
    """Show how far an import got; the new campaign once it is in, the line at fault if refused."""
    job = import_jobs.find(job_id, g.gm["id"])
    if job is None:
        abort(404)
    if job.refused or job.crashed:
        error = refusal(job.refused) if job.refused else t("The import failed on the server. Nothing was imported.")
        return render_template("backup/import.html", error=error), 422
    if job.campaign_id:
        target = url_for("campaigns.show", campaign_id=job.campaign_id)
        if request.headers.get("HX-Request"):
            return "", 200, {"HX-Redirect": target}
        return redirect(target)
    template = "backup/_progress.html" if request.headers.get("HX-Request") else "backup/progress.html"
    return render_template(template, job=job)


BACKGROUND_BYTES = 1024 * 1024  # a larger upload is imported in a thread, its progress shown


def refusal(bad: BadLog) -> str:
    """A refused file in a sentence, in the page's language: the line at fault, what is wrong, and
    that nothing was imported."""
    text = str(bad)
    text = text[:1].upper() + text[1:]
    return str(t("{refusal} Nothing was imported.", refusal=text if text.endswith(".") else text + "."))
