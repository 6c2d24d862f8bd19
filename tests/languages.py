"""Setting a campaign's language in a test.

The GM chooses it with the workspace command ``SetCampaignLanguage`` (its fold keeps
``state["language"]`` on the campaign's stream). Where the command is not there yet, the tests
write the same fact straight into the campaign's folded state: what every reader of the language
reads, and nothing else. Once the command exists, the tests go through it.
"""
from __future__ import annotations

from tracker.projections import queries
from tracker.store import dumps


def set_campaign_language(service, db, campaign_id: str, language: str) -> None:
    """The campaign's players read ``language`` from now on."""
    if "SetCampaignLanguage" in service.handlers:
        service.handle({"type": "SetCampaignLanguage", "campaign_id": campaign_id, "language": language})
    else:
        stream = f"campaign-{campaign_id}"
        state = dict(queries.stream_state(db, stream), language=language)
        db.execute("UPDATE stream_states SET state = ? WHERE stream = ?", [dumps(state), stream])
        db.conn.commit()
    assert queries.stream_state(db, f"campaign-{campaign_id}").get("language") == language
