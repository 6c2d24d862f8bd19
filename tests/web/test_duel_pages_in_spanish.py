"""A duel page of each ruleset asked for in Spanish: the ruleset's own part (board, next actions,
log) reads in Spanish, and the same page asked for in English reads as before."""
import dataclasses

import pytest

from tests.conftest import fixed_context, text_of
from tests.sample_duel import start_sample_duel
from tracker import bootstrap, rules
from tracker.bootstrap.db import open_db

# What each ruleset's page says in Spanish, and the English it replaces.
SAYS = {
    "rocet": [("Otros finales: rendición, descalificación (veneno), abandono",
               "Other endings: yield, disqualification (poison), abandon"),
              ("Turno 1:", "Turn 1:")],
    "pirate": [("Otras acciones:", "Other actions:"), ("Intercambio 1", "Exchange 1")],
    "pf2e": [("Rendirse, descalificar o abandonar", "Yield, disqualify or abandon"), ("Asalto 1", "Round 1")],
}


def running_duel(app, module) -> str:
    """The module's sample duel, played up to (not including) its last command."""
    db = open_db(app.config["DATABASE"])
    try:
        service = bootstrap.service(db, dataclasses.replace(fixed_context(), actor="gmtest"))
        duel, commands = start_sample_duel(service, module, "En español")
        for command in commands[:-1]:
            service.handle({**command, "duel_id": duel, "expected_version": service.version(f"duel-{duel}")})
        return duel
    finally:
        db.close()


@pytest.mark.parametrize("name", sorted(SAYS))
def test_the_rulesets_part_of_a_duel_page_reads_in_spanish(app, client, name):
    duel = running_duel(app, rules.get(name))
    spanish = client.get(f"/duels/{duel}", headers={"Accept-Language": "es"})
    english = client.get(f"/duels/{duel}", headers={"Accept-Language": "en"})
    assert spanish.status_code == english.status_code == 200
    for said, source in SAYS[name]:
        assert said in text_of(spanish.text) and source not in text_of(spanish.text)
        assert source in text_of(english.text)
