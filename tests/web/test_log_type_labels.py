"""The log's "event type" filter names each type in the reader's language (each ruleset labels its
own types in its own catalog, the core its own), the stored type staying the option's value."""
import html
import re

from tests.web.test_web import post_campaign
from tracker import rules
from tracker.domain.events import EVENT_TYPES


def options(client, campaign, language) -> dict[str, str]:
    page = client.get(f"/campaigns/{campaign}/log", headers={"Accept-Language": language})
    assert page.status_code == 200
    select = re.search(r'<select name="type">(.*?)</select>', page.text, re.S).group(1)
    return {value: html.unescape(label) for value, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>',
                                                                       select) if value}


def test_every_type_of_the_core_and_of_every_shipped_ruleset_has_a_label_that_is_not_its_name(client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    spanish, english = options(client, campaign, "es"), options(client, campaign, "en")
    shipped = [m.__name__ for m in rules.shipped()]
    ours = {name for name, cls in EVENT_TYPES.items() if cls.__module__.startswith("tracker.")}
    assert any(cls.__module__.startswith(tuple(shipped)) for cls in EVENT_TYPES.values())
    assert set(spanish) == set(english) == ours  # every type, each once, the stored name as the value
    raw = set(EVENT_TYPES)
    unlabelled = {value: label for value, label in {**spanish, **english}.items() if label in raw or label == value}
    assert not unlabelled, f"event types without a LABEL: {sorted(unlabelled)}"
    assert spanish["CampaignCreated"] == "Campaña creada" and english["CampaignCreated"] == "Campaign created"
    assert spanish["DuelWon"] == "Duelo ganado"                                  # the rules' own catalog
    assert spanish["PirateSwordAttacked"] == "Piratas: ataque con espada"        # each ruleset's own
    assert spanish["Pf2eStrikeRolled"] == "PF2e: Golpe tirado" and spanish["RocetCardsPlayed"] == "Rocèt: cartas jugadas"
    assert sum(spanish[name] != english[name] for name in ours) > len(ours) * 0.9  # they read in Spanish


def test_the_filter_keeps_the_stored_type_as_its_value(client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/campaigns/{campaign}/log?type=CampaignCreated", headers={"Accept-Language": "es"}).text
    assert '<option value="CampaignCreated" selected>Campaña creada</option>' in page
    assert "#3" in page and "#2" not in page  # the campaign's creation, not the GM's token
