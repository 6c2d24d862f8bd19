"""The production crawl, played on (issue 29): every kind of every ruleset started through its set-up
form, then played to its end from the duel read's legal actions alone, as a bot would, and ended
once by each ending the rules offer (a yield, an abandonment…); then undone and rewound from the
pages. At each of those states every page a reader has is read in English and Spanish: the GM's
duel page, time travel, live fragment and JSON read; side A's seat, the table display and the
players' recap. Nothing here names a kind, an ending or a command: a new one is crawled as it comes.

Asserted at every state: no 5xx, every page there to be read answers 200, no raw placeholder or
traceback, and the Spanish pages carry none of the English interface's own sentences; and, for the
whole tier (tests/crawl/conftest.py), no error in the server log."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from tests import api_client
from tests.conftest import logged_in
from tests.crawl.test_production_crawl import RAW, filled, options, player_pages, production  # noqa: F401 (fixture)
from tracker import rules

V1 = "/api/v1"
LANGUAGES = ("en", "es")


def english_sentences() -> tuple[str, ...]:
    """Every sentence of the interface's English catalogs (three words or more, no placeholder)
    whose Spanish differs, but the demo's data: a Spanish page that shows one was not translated."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    found = set()
    for spanish in Path(rules.__file__).parents[1].rglob("translations/es/LC_MESSAGES/messages.po"):
        with spanish.open("rb") as po:
            for message in read_po(po):
                if message.locations and all("demo" in path for path, _ in message.locations):
                    continue  # the demo's own names and notes: user data once the demo wrote them
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                for english, translated in zip(ids, texts):
                    if (english and translated and translated != english and len(english.split()) >= 3
                            and not re.search(r"%|\{", english)):
                        found.add(english)
    return tuple(sorted(found, key=len, reverse=True))


ENGLISH_ONLY = english_sentences()


def start(client, session, module, kind, variant) -> tuple[str, dict]:
    """The duel started from its set-up form as a GM who changes nothing sends it; its path, the form."""
    form = client.get(f"{session}/duels/new?ruleset={module.NAME}&kind={kind}").get_data(as_text=True)
    form_tag = re.search(r'<form[^>]*action="([^"]+)"[^>]*id="setup-form"', form)
    body = filled(form[form_tag.start():], [d["name"] for d in module.samples.DUELISTS],
                  ruleset=module.NAME, kind=kind, **variant)
    answer = client.post(form_tag.group(1), data=body)
    if answer.status_code == 422:  # a required word left blank (a second's name…): type one
        selects = "".join(re.findall(r"<select[^>]*>", form))
        body = {**body, **{k: "Crawl" for k, v in body.items()
                           if v == "" and not k.startswith("weapon") and f'name="{k}"' not in selects}}
        answer = client.post(form_tag.group(1), data=body)
    assert answer.status_code == 302, (module.NAME, kind, variant, answer.status_code)
    return urlsplit(answer.headers["Location"]).path, body


class Readers:
    """Every page of one duel, for each of its readers, read at each state in both languages."""

    def __init__(self, app, client, anonymous, session, duel, body):
        self.client, self.anonymous, self.duel = client, anonymous, duel
        self.gm_pages = [duel, f"{duel}/travel", f"{duel}/live?v=0", f"{V1}{duel}"]
        self.player_pages = player_pages(app, client, session, duel, body["side_a"], body["csrf_token"])
        self.states, self.seen_sealed, self.seen_offer, self.tapped_at = 0, False, False, None
        self.sealed = body.get("choices") == "sealed"

    def read_all(self, label):
        self.states += 1
        for language in LANGUAGES:
            for reader, paths in ((self.client, self.gm_pages), (self.anonymous, self.player_pages)):
                for path in paths:
                    if reader is self.anonymous:  # a player's page speaks the language its player chose
                        path += ("&" if "?" in path else "?") + f"lang={language}"
                    response = reader.get(path, headers={"Accept-Language": language})
                    where = (label, language, path)
                    assert response.status_code < 500, where
                    if "/live" not in path:  # a live fragment may answer 204 (nothing new) or 286
                        assert response.status_code == 200, where
                    if "text/html" in response.content_type:
                        text = " ".join(unescape(re.sub(r"<(script|style)[\s\S]*?</\1>|<[^>]+>", " ",
                                                        response.get_data(as_text=True))).split())
                        assert not RAW.search(text), (where, RAW.search(text).group())
                        if language == "es":
                            english = [s for s in ENGLISH_ONLY if s in text]
                            assert not english, (where, english)

    def read(self):
        return self.client.get(f"{V1}{self.duel}").json


def send(client, command):
    answer = client.post(f"{V1}/commands", json=command)
    assert answer.status_code in (200, 201), (command, answer.status_code, answer.get_json())  # it was on offer
    return answer


def submit(client, page_path, action_has, csrf=None):
    """Tap the first button of the page's first form whose action holds ``action_has``, sending
    what the form holds, as a person who taps it does."""
    page = client.get(page_path, follow_redirects=True).get_data(as_text=True)
    form = next((m for m in re.finditer(r'<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)</form>', page)
                 if action_has in unescape(m.group(1)).split("?")[0]), None)
    assert form is not None, (page_path, action_has, re.findall(r"(?:cannot|Already|class=\"error)[^<]*", page))
    data = {name: unescape(value) for name, value in
            re.findall(r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(2))}
    for name, options_of in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)</select>', form.group(2)):
        first = re.search(r'<option[^>]*value="([^"]+)"', options_of)  # the first real choice
        if first:
            data[name] = unescape(first.group(1))
    button = re.search(r'<button[^>]*type="submit"[^>]*>', form.group(2))
    if button and re.search(r'name="([^"]+)"', button.group()):
        data[re.search(r'name="([^"]+)"', button.group()).group(1)] = \
            unescape(re.search(r'value="([^"]*)"', button.group()).group(1))
    if csrf:
        data.setdefault("csrf_token", csrf)
    answer = client.post(unescape(form.group(1)), data=data)
    assert answer.status_code in (200, 302, 303), (page_path, action_has, answer.status_code)


def seat_can_act(readers, version: int) -> bool:
    """Whether side A's seat has a choice to make at ``version`` (its page holds a form, beyond the
    language links), and has not made it since the duel last moved."""
    if readers.tapped_at == version:
        return False
    page = readers.anonymous.get(readers.player_pages[0]).get_data(as_text=True)
    if "/do/" not in page:
        return False
    readers.tapped_at = version + 1  # its own tap moves the duel one version on
    return True


def play_on(readers, ending=None, limit=600):
    """Play from the legal actions alone: the plain bot's choice at each step, or ``ending`` (a
    type among the offered endings) once it is offered; the states read along the way."""
    for step in range(limit):
        read = readers.read()
        if read["status"] == "over" or not read["legal_actions"]:
            return read
        offered = {a["type"]: a for a in read["legal_actions"]}
        if readers.sealed and seat_can_act(readers, read["version"]):  # a player taps as soon as their phone asks
            submit(readers.anonymous, readers.player_pages[0], "/do/")
            command = {"type": "a seat's tap"}
            if not readers.seen_sealed:  # the moment a choice is sealed: nobody but its seat knows it
                readers.seen_sealed = True
                readers.read_all("a choice sealed")
            continue
        if ending in offered and step >= 1:
            action = offered[ending]
            command = {"type": ending, "duel_id": read["id"], "expected_version": read["version"]}
            command.update({k: v for k, v in ((k, api_client.fill(f)) for k, f in action["fields"].items()) if v is not None})
        elif not set(offered) - api_client.ENDINGS:  # the duel waits for a player: side A's seat taps
            submit(readers.anonymous, readers.player_pages[0], "/do/")
            continue
        else:
            command = api_client.next_command(read)
        if "DealDamage" in offered and not readers.seen_offer:  # damage on offer, before it is dealt
            readers.seen_offer = True
            readers.read_all("damage on offer")
        if "duel_id" in command:
            try:
                send(readers.client, command)
            except AssertionError as refused:
                raise AssertionError((read["progress"], [a for a in read["legal_actions"] if a["type"] == command["type"]])) from refused
        if step in (1, 6) or step % 25 == 24:  # mid-duel, as often as a long duel needs
            readers.read_all(f"step {step}: {command['type']}")
    raise AssertionError(f"the duel did not end in {limit} commands: {read['progress']}, last {command['type']}, "
                         f"offered {[a['type'] for a in read['legal_actions']]}")


def kinds():
    for module in rules.shipped():
        for kind in module.KINDS:
            yield pytest.param(module.NAME, kind, id=f"{module.NAME}-{kind}")


@pytest.mark.parametrize(("ruleset", "kind"), list(kinds()))
def test_each_duel_kind_played_to_each_end_answers_every_reader_in_both_languages(production, ruleset, kind):
    module = rules.get(ruleset)
    client, anonymous = logged_in(production), production.test_client()
    home = client.get("/").get_data(as_text=True)
    campaign = re.findall(r'href="(/campaigns/[^/"]+)"', home)[0]
    session = re.findall(r'href="(/sessions/[^/"]+)"', client.get(campaign).get_data(as_text=True))[0]
    form = client.get(f"{session}/duels/new?ruleset={ruleset}&kind={kind}").get_data(as_text=True)
    variants = [{"sword_victory": v} for v in options(form, "sword_victory")] or [{}]
    if "sealed" in options(form, "choices"):  # and once with the players choosing on their phones
        variants.append({**variants[0], "choices": "sealed"})

    endings_seen = set()
    for variant in variants:
        duel, body = start(client, session, module, kind, variant)
        readers = Readers(production, client, anonymous, session, duel, body)
        readers.read_all("just started")
        final = play_on(readers)
        assert final["status"] == "over", (variant, final["progress"])
        readers.read_all(f"ended: {final['steps'][-1]['event'] if final['steps'] else '?'}")
        submit(client, f"{duel}/undo", "/undo", body["csrf_token"])  # one-tap undo, from its page
        readers.read_all("its last action undone")
        steps = client.get(f"{V1}{duel}?steps_since=0").json["steps"]  # every step, not the latest versions
        if len(steps) > 1:  # back to its first step, from time travel's form
            submit(client, f"{duel}/rewind?to={steps[0]['at']}", "/retract", body["csrf_token"])
            readers.read_all("rewound to its first step")
        now = readers.read()
        offered = {a["type"] for a in now["legal_actions"]} & api_client.ENDINGS
        if now["status"] != "over":  # the rewound duel is abandoned: a seat plays one duel at a time
            send(client, {"type": "Abandon", "duel_id": now["id"], "expected_version": now["version"]})
        # Every ending the rules offer along the way, each in a duel of its own.
        for ending in sorted(offered - endings_seen):
            endings_seen.add(ending)
            duel, body = start(client, session, module, kind, variant)
            readers = Readers(production, client, anonymous, session, duel, body)
            final = play_on(readers, ending=ending)
            assert final["status"] == "over", (ending, final["progress"])
            readers.read_all(f"ended by {ending}")
    assert endings_seen, "no ending on offer at a duel's start"
