"""Setting a campaign's language in a test: the GM's workspace command ``SetCampaignLanguage``,
whose fold keeps ``state["language"]`` on the campaign's stream."""
from __future__ import annotations

from tracker.projections import queries


def set_campaign_language(service, db, campaign_id: str, language: str) -> None:
    """The campaign's players read ``language`` from now on."""
    stream = f"campaign-{campaign_id}"
    version = db.execute("SELECT version FROM stream_states WHERE stream = ?", [stream]).fetchone()[0]
    service.handle({"type": "SetCampaignLanguage", "campaign_id": campaign_id, "language": language,
                    "expected_version": version})
    assert queries.stream_state(db, stream).get("language") == language
