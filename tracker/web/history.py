"""The campaign's duel history, statistics and each character's record."""
from flask import Blueprint, render_template, request

from tracker import rules
from tracker.bootstrap.db import get_db
from tracker.projections import history, queries
from tracker.web import page_or_fragment
from tracker.web import labels
from tracker.web.inputs import int_arg

bp = Blueprint("history", __name__)


@bp.get("/campaigns/<campaign_id>/history")
def index(campaign_id):
    """Show the campaign's duels, filtered and sorted by the query string."""
    db = get_db()
    campaign = queries.campaign(db, campaign_id)
    filters = history.clean_filters(request.args, rules.RULESETS, page=int_arg("page", 1))
    page = history.duels_page(db, campaign_id, filters)
    return page_or_fragment("history/index.html", "history/_duels.html", campaign=campaign, filters=filters,
                            page=page, choices=history.filter_choices(db, campaign_id),
                            outcomes=labels.OUTCOMES, sorts=labels.SORTS)


@bp.get("/campaigns/<campaign_id>/statistics")
def statistics(campaign_id):
    """Show the campaign's duel statistics: the longest duels and each ruleset's own figures."""
    db = get_db()
    return render_template("history/statistics.html", campaign=queries.campaign(db, campaign_id),
                           stats=history.campaign_stats(db, campaign_id), rulesets=rules.RULESETS)


@bp.get("/characters/<character_id>/record")
def record(character_id):
    """Show a character's duel record, losses, rivals and their own statistics."""
    db = get_db()
    character = queries.character(db, character_id)
    return render_template("history/character.html", character=character,
                           campaign=queries.campaign(db, character["campaign_id"]), only_filled=True,
                           rulesets=rules.RULESETS,
                           **history.character_record(db, character_id))
