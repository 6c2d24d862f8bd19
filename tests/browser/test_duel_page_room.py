"""The GM's duel page gives its room to the duel: the [assumed] settings in force are one line
under its header that opens (still on the page, as every assumption must be), and the GM's notes,
while there are none, are a form under the history rather than a column of their own; measured on
a 1280x800 desktop and on a 390 px phone (they took a third of the page: 712 of 2163 px at 1280)."""
import pytest
from playwright.sync_api import expect

from tests.browser.test_seats import rocet_session
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.rules import rocet
from tracker.application.services import Context

HEIGHTS = """() => {
  const height = (selector) => document.querySelector(selector).getBoundingClientRect().height;
  return {page: document.documentElement.scrollHeight, assumptions: height('#duel .assumptions'),
          notes: height('#duel #notes')};
}"""


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_assumptions_and_the_notes_take_little_of_the_duel_page(page, live_app, width, height):
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    assumed = [str(line) for line in rocet.assumptions(service.state_of(f"duel-{duel}")[1])]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/duels/{duel}")

    measured = page.evaluate(HEIGHTS)
    share = (measured["assumptions"] + measured["notes"]) / measured["page"]
    print(f"{width}x{height}: assumptions {measured['assumptions']:.0f} px + notes {measured['notes']:.0f} px"
          f" of {measured['page']} px = {share:.1%}")
    assert share < .15, measured
    summary = page.locator("#duel .assumptions > summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text(f"Assumptions in force ({len(assumed)})")
    assert summary.bounding_box()["height"] <= 50  # one line
    notes, history = (page.locator(selector).bounding_box() for selector in ("#notes", "#duel .history"))
    assert (notes["x"], notes["width"]) == (history["x"], history["width"])  # under the history, not a column

    summary.click()  # it opens on every assumption, each a setting of this duel
    listed = page.locator("#duel .assumptions li")
    expect(listed).to_have_count(len(assumed))
    assert [line.replace("\u00a0", " ") for line in listed.all_inner_texts()] == assumed
    service.db.close()
