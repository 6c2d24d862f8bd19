"""A track is named as its ruleset's sheet names it, and by its ruleset where a character has sheets
in several: Rocèt's PG and PF2e's HP are both "PG" in Spanish, so a bare "PG" twice on one page
would not say which is which (the sheet's losses, the record's totals and its chart, the seat's header)."""
from __future__ import annotations

import html
import re

from tests.integration.test_seats import SHEET
from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat
from tracker.rules.pf2e.samples import DUELISTS


def text(client, url: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(client.get(url).text)))


def test_a_character_with_rocet_and_pf2e_sheets_says_which_pg_is_which(client, anonymous, gm_service):
    gm = gm_service
    campaign = gm.handle({"type": "CreateCampaign", "name": "Both worlds", "ruleset": "rocet"}).key
    ines = gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": "Inés", "rank": "pj",
                      "stats": {**SHEET, **DUELISTS[0]["stats"]}}).key
    rival = gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": "Vex", "rank": "elite",
                       "stats": {**SHEET, **DUELISTS[1]["stats"]}}).key
    session = gm.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                         "title": "Two duels"}).key
    sides = [{"character_id": ines, "side": "a"}, {"character_id": rival, "side": "b"}]
    for ruleset, setup, track, amount in (("rocet", {"kind": "relojes", "weapon_type": "Espada"}, "PG", 4),
                                          ("pf2e", {"kind": "combat"}, "HP", 9)):
        duel = gm.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "duelists": sides,
                          **setup}).key
        gm.handle({"type": "AdjustDuelTrack", "duel_id": duel, "character_id": ines, "track": track,
                   "amount": -amount, "reason": "a scratch", "expected_version": gm.version(f"duel-{duel}")})

    sheet = text(client, f"/characters/{ines}?lang=es")
    assert "PG (Rocèt)" in sheet and "PG (Pathfinder 2e)" in sheet
    assert " HP " not in sheet  # PF2e's track key never shows as such
    record = text(client, f"/characters/{ines}/record?lang=es")
    assert "−4 PG (Rocèt) en 1 duelo" in record and "−9 PG (Pathfinder 2e) en 1 duelo" in record
    page = html.unescape(client.get(f"/characters/{ines}/record?lang=es").text)
    caption = re.search(r"<figcaption>(.*?)</figcaption>", page, re.S).group(1)
    caption = " ".join(re.sub(r"<[^>]+>", " ", caption).split())
    assert caption == "PG (Rocèt) PG (Pathfinder 2e)"  # the chart's key, oldest first
    english = text(client, f"/characters/{ines}/record?lang=en")
    assert "−9 HP (Pathfinder 2e) in 1 duel" in english and "−4 PG (Rocèt) in 1 duel" in english

    gm.handle({"type": "SetCampaignLanguage", "campaign_id": campaign, "language": "es",
               "expected_version": gm.version(f"campaign-{campaign}")})
    seat = text(anonymous, issue_seat(client, session, ines))
    assert "Rocèt: PG 26 /30" in seat and "Pathfinder 2e: PG 59 /68" in seat  # the seat's sheet, in the header

    only_rocet = gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": "Lope", "rank": "pj",
                            "stats": SHEET}).key
    assert "(Rocèt)" not in text(client, f"/characters/{only_rocet}?lang=es").split("Heridas y pérdidas")[1]
