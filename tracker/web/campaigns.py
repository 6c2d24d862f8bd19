"""Campaigns: the list, creating one, its dashboard, editing it."""
from flask import Blueprint, g, redirect, render_template, url_for

from tracker.db import get_db
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.web import form_data, service
from tracker.workspace import campaign_fields

bp = Blueprint("campaigns", __name__)


def _mine():
    return queries.campaigns(get_db(), g.gm["id"])


@bp.get("/")
def index():
    """List the GM's campaigns and offer a new one."""
    return render_template("campaigns/index.html", campaigns=_mine(), fields=campaign_fields(), form={}, errors={})


@bp.post("/campaigns")
def create():
    """Create a campaign."""
    form = form_data()
    try:
        outcome = service().handle({**form, "type": "CreateCampaign"})
    except Invalid as bad:
        return render_template("campaigns/index.html", campaigns=_mine(), fields=campaign_fields(),
                               form=form, errors=bad.errors), 422
    return redirect(url_for("campaigns.show", campaign_id=outcome.key))


@bp.get("/campaigns/<campaign_id>")
def show(campaign_id):
    """Show a campaign's dashboard: characters, sessions, recent duels."""
    db = get_db()
    return render_template("campaigns/show.html", campaign=queries.campaign(db, campaign_id),
                           characters=queries.characters(db, campaign_id),
                           sessions=queries.sessions(db, campaign_id),
                           duels=queries.duels_of_campaign(db, campaign_id),
                           co_gms=queries.co_gms(db, campaign_id), share_error=None)


@bp.post("/campaigns/<campaign_id>/share")
def share(campaign_id):
    """Share the campaign with another GM (owner only)."""
    try:
        service().handle({**form_data(), "type": "ShareCampaign", "campaign_id": campaign_id})
    except (Invalid, Refused) as no:
        db = get_db()
        message = no.reason if isinstance(no, Refused) else next(iter(no.errors.values()))
        return render_template("campaigns/show.html", campaign=queries.campaign(db, campaign_id),
                               characters=queries.characters(db, campaign_id),
                               sessions=queries.sessions(db, campaign_id),
                               duels=queries.duels_of_campaign(db, campaign_id),
                               co_gms=queries.co_gms(db, campaign_id), share_error=message), 422
    return redirect(url_for("campaigns.show", campaign_id=campaign_id))


@bp.route("/campaigns/<campaign_id>/edit", methods=("GET", "POST"))
def edit(campaign_id):
    """Edit a campaign's name, default ruleset and notes."""
    campaign = queries.campaign(get_db(), campaign_id)
    form, errors = dict(campaign, expected_version=campaign["version"]), {}
    if _posted():
        form = form_data()
        try:
            service().handle({**form, "type": "EditCampaign", "campaign_id": campaign_id})
            return redirect(url_for("campaigns.show", campaign_id=campaign_id))
        except Invalid as bad:
            errors = bad.errors
    return _edit_page(campaign, form, errors)


def _edit_page(campaign, form, errors, rules_form=None, rules_errors=None, failed=None):
    return render_template("campaigns/edit.html", campaign=campaign, fields=campaign_fields(), form=form,
                           errors=errors, rules_form=rules_form or {}, rules_errors=rules_errors or {},
                           failed=failed), 422 if (errors or rules_errors) else 200


@bp.post("/campaigns/<campaign_id>/rules/<ruleset>")
def change_rules(campaign_id, ruleset):
    """Change the campaign's own settings for a ruleset (e.g. a table every duel of it starts from)."""
    form = form_data()
    try:
        service().handle({**form, "type": "ChangeCampaignRules", "campaign_id": campaign_id, "ruleset": ruleset})
    except Invalid as bad:
        campaign = queries.campaign(get_db(), campaign_id)
        return _edit_page(campaign, dict(campaign, expected_version=campaign["version"]), {},
                          form, bad.errors, ruleset)
    return redirect(url_for("campaigns.edit", campaign_id=campaign_id))


def _posted() -> bool:
    from flask import request

    return request.method == "POST"
