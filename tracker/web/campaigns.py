"""Campaigns: the list, creating one, its dashboard, editing it."""
from flask import Blueprint, g, redirect, render_template, url_for

from tracker.bootstrap.db import get_db
from tracker.i18n import current_language
from tracker.projections import queries
from tracker.web import form_data, service
from tracker.web.rejections import shows_form
from tracker.domain.workspace import campaign_fields

bp = Blueprint("campaigns", __name__)


def _mine():
    return queries.campaigns(get_db(), g.gm["id"])


@bp.get("/")
def index():
    """List the GM's campaigns and offer a new one."""
    return _index_page({})


def _index_page(form, rejected=None):
    return render_template("campaigns/index.html", campaigns=_mine(), fields=campaign_fields(), form=form,
                           errors=rejected.fields if rejected else {})


@bp.post("/campaigns")
@shows_form(_index_page)
def create():
    """Create a campaign."""
    # The players read the GM's language from the start (Campaign → Edit changes it).
    outcome = service().handle({**form_data(), "type": "CreateCampaign", "language": current_language()})
    return redirect(url_for("campaigns.show", campaign_id=outcome.key))


@bp.get("/campaigns/<campaign_id>")
def show(campaign_id):
    """Show a campaign's dashboard: characters, sessions, recent duels."""
    return _dashboard({}, None, campaign_id)


def _dashboard(form, rejected, campaign_id):
    db = get_db()
    return render_template("campaigns/show.html", campaign=queries.campaign(db, campaign_id),
                           characters=queries.characters(db, campaign_id),
                           sessions=queries.sessions(db, campaign_id),
                           duels=queries.duels_of_campaign(db, campaign_id),
                           co_gms=queries.co_gms(db, campaign_id),
                           share_error=next(iter(rejected.fields.values())) if rejected else None)


@bp.post("/campaigns/<campaign_id>/share")
@shows_form(_dashboard)
def share(campaign_id):
    """Share the campaign with another GM (owner only)."""
    service().handle({**form_data(), "type": "ShareCampaign", "campaign_id": campaign_id})
    return redirect(url_for("campaigns.show", campaign_id=campaign_id))


@bp.get("/campaigns/<campaign_id>/edit")
def edit(campaign_id):
    """Show the form editing a campaign's name, default ruleset and notes, and its rules settings."""
    return _edit_page(None, None, campaign_id)


def _edit_page(form, rejected, campaign_id, ruleset=None):
    """The edit page, with what was sent and its errors in the form that sent it: the campaign's
    own, or (``ruleset``) that ruleset's settings, or (``ruleset="language"``) its language."""
    campaign = queries.campaign(get_db(), campaign_id)
    campaign["language"] = (queries.stream_state(get_db(), f"campaign-{campaign_id}") or {}).get("language", "en")
    errors = rejected.fields if rejected else {}
    as_it_is = dict(campaign, expected_version=campaign["version"])
    sent = {"form": as_it_is, "errors": {}, "rules_form": form, "rules_errors": errors, "failed": ruleset} \
        if ruleset else {"form": form or as_it_is, "errors": errors, "rules_form": {}, "rules_errors": {}}
    return render_template("campaigns/edit.html", campaign=campaign, fields=campaign_fields(), **sent)


@bp.post("/campaigns/<campaign_id>/edit")
@shows_form(_edit_page)
def update(campaign_id):
    """Edit a campaign's name, default ruleset and notes."""
    queries.campaign(get_db(), campaign_id)  # a campaign this GM cannot open is a 404 before any field
    service().handle({**form_data(), "type": "EditCampaign", "campaign_id": campaign_id})
    return redirect(url_for("campaigns.show", campaign_id=campaign_id))


@bp.post("/campaigns/<campaign_id>/language")
@shows_form(lambda form, rejected, campaign_id: _edit_page(form, rejected, campaign_id, ruleset="language"))
def set_language(campaign_id):
    """Set the language the campaign's players see (table display, seats, their recap)."""
    service().handle({**form_data(), "type": "SetCampaignLanguage", "campaign_id": campaign_id})
    return redirect(url_for("campaigns.edit", campaign_id=campaign_id))


@bp.post("/campaigns/<campaign_id>/rules/<ruleset>")
@shows_form(_edit_page)
def change_rules(campaign_id, ruleset):
    """Change the campaign's own settings for a ruleset (e.g. a table every duel of it starts from)."""
    service().handle({**form_data(), "type": "ChangeCampaignRules", "campaign_id": campaign_id, "ruleset": ruleset})
    return redirect(url_for("campaigns.edit", campaign_id=campaign_id))
