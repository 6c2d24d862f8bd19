"""The JSON API: one endpoint takes any command; every projection is readable as JSON."""
from flask import Blueprint, g, request

from tracker import policy, rules
from tracker.db import get_db
from tracker.projections import queries
from tracker.strictjson import BadJSON
from tracker.web import service
from tracker.web.inputs import int_arg, json_body

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/commands")
def commands():
    """Run one command; answer with the events it appended."""
    try:
        body = json_body()
    except BadJSON as bad:
        message = f"the body is {bad}"
        return {"error": "invalid", "message": message, "errors": {"body": message}}, 422
    if not isinstance(body, dict):
        return {"error": "invalid", "errors": {"body": "send one JSON object with a \"type\""}}, 422
    outcome = service(policy.API).handle(body)
    secret = {"secret": outcome.secret} if outcome.secret else {}  # a new API token, shown this once
    return {"stream": outcome.stream, "id": outcome.key, "version": outcome.version, **secret,
            "replayed": outcome.replayed,
            "events": [{"position": r.position, "stream": r.stream, "version": r.version,
                        "type": r.type, "data": rules.sealed_view(r.type, r.data)} for r in outcome.events]}, 200 if outcome.replayed else 201


@bp.get("/campaigns")
def campaigns():
    """List the campaigns."""
    return {"campaigns": queries.campaigns(get_db(), g.gm["id"])}


@bp.get("/campaigns/<campaign_id>")
def campaign(campaign_id):
    """A campaign with its characters, sessions and recent duels."""
    db = get_db()
    return {"campaign": queries.campaign(db, campaign_id),
            "characters": queries.characters(db, campaign_id),
            "sessions": queries.sessions(db, campaign_id),
            "duels": queries.duels_of_campaign(db, campaign_id, limit=1000)}


@bp.get("/characters/<character_id>")
def character(character_id):
    """A character sheet."""
    return queries.character_sheet(get_db(), character_id)


@bp.get("/sessions/<session_id>")
def session(session_id):
    """A session and its duels."""
    db = get_db()
    return {"session": queries.session(db, session_id), "duels": queries.duels_of_session(db, session_id)}


@bp.get("/duels/<duel_id>")
def duel(duel_id):
    """A duel's projection: its summary row and its state as the API may see it (nothing sealed)."""
    row = queries.duel(get_db(), duel_id)
    row["state"] = rules.get(row["ruleset"]).seen_by(row["state"], "api")
    return row


@bp.get("/campaigns/<campaign_id>/log")
def log(campaign_id):
    """A page of the campaign's log (newest first; pass ?before=position for the next page)."""
    db = get_db()
    queries.campaign(db, campaign_id)
    return queries.log_page(db, campaign_id, category=request.args.get("category") or None,
                            type_name=request.args.get("type") or None,
                            subject=request.args.get("subject") or None,
                            before=int_arg("before"))
