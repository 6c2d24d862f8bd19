"""A backup holds no sealed value, and restores it all the same (issue 27).

Each field no reader may see (a sealed choice in every ruleset, a hand dealt to a seat-played
Rocèt duelist, a sealed duel's pile) is ciphertext in the file, with that event's command id and
fingerprint; this install's import opens them back to the very events, another install's refuses
the file naming the line, and appends nothing."""
from __future__ import annotations

import dataclasses
import json

from tests.conftest import count_events, fixed_context, logged_in, register_gm
from tests.integration.test_projections import snapshot
from tests.web.test_backup_web import upload
from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import (choose, choose_insult, choose_skill, issue_seat, pf2e_sealed, secret_card,
                                  setup_duel, state, wit_sealed)
from tracker import backup, create_app
from tracker.bootstrap.db import open_db


def is_sealed(value) -> bool:
    """A field as the file holds it sealed (``tracker.backup.sealed_fields``), ciphertext in base64url."""
    return type(value) is dict and list(value) == ["touche-sealed"] and len(value["touche-sealed"]) >= 22


def events_of(gm, duel, kind):
    return [r for r in gm.store.read_stream(f"duel-{duel}") if r.type == kind]


def download(client, campaign) -> str:
    answer = client.get(f"/campaigns/{campaign}/backup.jsonl")
    assert answer.status_code == 200
    return answer.text


def lines_of(text: str, kind: str | None = None) -> list[dict]:
    found = [json.loads(line) for line in text.splitlines()[:-1]]
    return [line for line in found if kind is None or line["type"] == kind]


def another_install(new_database, secret: str):
    """An app of its own, on a fresh database, with the GM's account and this SECRET_KEY."""
    other = create_app({"TESTING": True, "DATABASE": new_database("other"), "SECRET_KEY": secret,
                        "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                        "SERVICE_CONTEXT": fixed_context(), "BASE_URL": "http://localhost"})
    return other


def events_table(path: str) -> list[tuple]:
    db = open_db(path)
    try:
        return [(p, s, v, k, json.loads(d), json.loads(m), c) for p, s, v, k, d, m, c in db.execute(
            "SELECT position, stream, version, type, data, metadata, command_id FROM events ORDER BY position")]
    finally:
        db.close()


# --- what the file holds, mid-duel ---------------------------------------------------------------

def test_a_pf2e_skill_chosen_in_secret_is_ciphertext_in_the_backup(client, anonymous, gm_service):
    duel = pf2e_sealed(gm_service)
    seelah = duel["people"][0]
    seat = issue_seat(client, duel["session"], seelah)
    assert choose_skill(anonymous, seat, duel["duel"], seelah, "intimidation").status_code == 200
    chosen = events_of(gm_service, duel["duel"], "Pf2eSkillChosen")[-1]
    text = download(client, duel["campaign"])
    [line] = lines_of(text, "Pf2eSkillChosen")
    assert is_sealed(line["data"]["skill"]) and is_sealed(line["data"]["die"]), line
    assert line["data"]["duelist"] == seelah  # what the GM's event page shows stays readable
    assert "intimidation" not in json.dumps(line).lower()
    for secret in (chosen.metadata["command_id"], chosen.metadata["fingerprint"]):
        assert secret not in text


def test_a_pirate_insult_chosen_in_secret_and_its_words_are_ciphertext_in_the_backup(client, anonymous, gm_service):
    duel = wit_sealed(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    words = "Zorblax, you fight like a dairy farmer"
    assert choose_insult(anonymous, seat, duel["duel"], "a", "Humillación", words).status_code == 200
    text = download(client, duel["campaign"])
    [line] = lines_of(text, "PirateInsultChosen")
    assert all(is_sealed(line["data"][field]) for field in ("insult", "line", "die")), line
    assert "Humillaci" not in json.dumps(line) and "Zorblax" not in text and "dairy farmer" not in text


def test_a_seat_played_rocet_hand_and_the_sealed_duel_s_pile_are_ciphertext_an_npc_s_hand_is_not(client, gm_service):
    duel = setup_duel(gm_service, npc=True)  # Inés (PJ) on her seat, Lope a villain the GM plays
    text = download(client, duel["campaign"])
    drawn = {line["data"]["side"]: line for line in lines_of(text, "RocetCardsDrawn")}
    hands = state(gm_service, duel["duel"])["sides"]
    assert is_sealed(drawn["a"]["data"]["cards"]), drawn["a"]
    assert json.dumps(hands["a"]["hand"])[1:-1] not in text
    assert drawn["b"]["data"]["cards"] == hands["b"]["hand"]  # the GM's own hand to hold, as on its event page
    for line in lines_of(text, "RocetDeckShuffled"):
        assert is_sealed(line["data"]["cards"]) and is_sealed(line["data"]["order"]), line


def test_a_duel_without_sealed_choices_exports_in_clear(client, gm_service):
    """Nothing hidden from the GM, nothing sealed: such a file still moves to any install."""
    duel = setup_duel(gm_service, choices="gm")  # the GM records the cards: every hand is the GM's
    text = download(client, duel["campaign"])
    assert '"touche-sealed"' not in text
    assert {line["data"]["side"]: line["data"]["cards"] for line in lines_of(text, "RocetCardsDrawn")} == {
        side: d["hand"] for side, d in state(gm_service, duel["duel"])["sides"].items()}


# --- restored on this install ----------------------------------------------------------------------

def test_a_restore_on_the_same_install_is_the_same_log_and_the_duel_resumes_to_its_reveal(
        app, client, anonymous, gm_service, new_database, tmp_path):
    duel, card = secret_card(gm_service)
    seat_a = issue_seat(client, duel["session"], duel["people"][0])
    seat_b = issue_seat(client, duel["session"], duel["people"][1])
    assert choose(anonymous, seat_a, duel["duel"], "a", card).status_code == 200
    file = tmp_path / "backup.jsonl"
    assert app.test_cli_runner().invoke(args=["export-log", str(file)]).exit_code == 0
    [chosen] = lines_of(file.read_text(), "RocetCardChosen")
    assert is_sealed(chosen["data"]["card"]) and card not in json.dumps(chosen)

    restored = another_install(new_database, app.config["SECRET_KEY"])  # the same install, a new disk
    result = restored.test_cli_runner().invoke(args=["import-log", str(file)])
    assert result.exit_code == 0 and "signed by this install" in result.output, result.output
    assert events_table(restored.config["DATABASE"]) == events_table(app.config["DATABASE"])
    original, again = open_db(app.config["DATABASE"]), open_db(restored.config["DATABASE"])
    try:
        assert snapshot(again) == snapshot(original)
    finally:
        original.close()
        again.close()

    # Lope's seat link still opens (the same key signs it), chooses, and the reveal lays Inés's card.
    lope = state(gm_service, duel["duel"])["sides"]["b"]["hand"][0]
    answer = choose(restored.test_client(), seat_b, duel["duel"], "b", lope)
    assert answer.status_code == 200 and "Revealed — turn 1" in answer.text, answer.text
    revealed = open_db(restored.config["DATABASE"])
    try:
        from tracker.projections import queries

        assert queries.stream_state(revealed, f"duel-{duel['duel']}")["last_turn"]["cards"] == {"a": card, "b": lope}
    finally:
        revealed.close()
    # Exported again, it is the same file up to the new events: the ciphertext is deterministic.
    again_file = tmp_path / "again.jsonl"
    assert restored.test_cli_runner().invoke(args=["export-log", str(again_file)]).exit_code == 0
    assert again_file.read_text().splitlines()[:-1][:len(lines_of(file.read_text()))] == \
        file.read_text().splitlines()[:-1]


def test_the_web_import_on_the_same_install_opens_the_sealed_card_and_the_copy_reveals_it(
        app, client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    seat_a = issue_seat(client, duel["session"], duel["people"][0])
    assert choose(anonymous, seat_a, duel["duel"], "a", card).status_code == 200
    counter = iter(range(1, 10_000))
    app.config["SERVICE_CONTEXT"] = dataclasses.replace(app.config["SERVICE_CONTEXT"],
                                                        new_id=lambda: f"copy{next(counter):04d}")  # gm_service's ids are id…
    text = download(client, duel["campaign"])
    [sealed] = lines_of(text, "RocetCardChosen")
    assert is_sealed(sealed["data"]["card"]) and card not in json.dumps(sealed)
    answer = upload(client, text)
    assert answer.status_code == 302, answer.text
    copy = answer.headers["Location"].rsplit("/", 1)[1]
    db = open_db(app.config["DATABASE"])
    try:
        copy_duel = db.execute("SELECT id FROM duels WHERE campaign_id = ?", [copy]).fetchone()[0]
        copy_session = db.execute("SELECT id FROM sessions WHERE campaign_id = ?", [copy]).fetchone()[0]
        lope = db.execute("SELECT id FROM characters WHERE campaign_id = ? AND name = 'Lope'", [copy]).fetchone()[0]
    finally:
        db.close()
    [original] = events_of(gm_service, duel["duel"], "RocetCardChosen")
    [copied] = events_of(gm_service, copy_duel, "RocetCardChosen")
    assert copied.data == original.data and copied.data["card"] == card
    hands = [{side: d["hand"] for side, d in state(gm_service, d_)["sides"].items()} for d_ in (copy_duel, duel["duel"])]
    assert hands[0] == hands[1]
    assert state(gm_service, copy_duel)["sealed"] == state(gm_service, duel["duel"])["sealed"]
    seat_b = issue_seat(client, copy_session, lope)
    lope_card = state(gm_service, copy_duel)["sides"]["b"]["hand"][0]
    answer = choose(anonymous, seat_b, copy_duel, "b", lope_card)
    assert "Revealed — turn 1" in answer.text
    assert state(gm_service, copy_duel)["last_turn"]["cards"] == {"a": card, "b": lope_card}


# --- another install ------------------------------------------------------------------------------

def first_sealed_line(text: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if '"touche-sealed"' in line)


def test_another_install_refuses_the_file_naming_the_line_in_the_reader_s_language(
        client, anonymous, gm_service, new_database):
    duel, card = secret_card(gm_service)
    seat_a = issue_seat(client, duel["session"], duel["people"][0])
    choose(anonymous, seat_a, duel["duel"], "a", card)
    text = download(client, duel["campaign"])
    number = first_sealed_line(text)
    kind = json.loads(text.splitlines()[number - 1])["type"]

    other = another_install(new_database, "another install's secret")
    register_gm(other)
    before = count_events(other)
    answer = upload(logged_in(other), text)
    assert answer.status_code == 422
    assert (f"Line {number}: {kind} holds a sealed field (" in answer.text
            and "that only the Touché install which exported the file can open (the same SECRET_KEY)"
            in answer.text), answer.text
    assert card not in answer.text and count_events(other) == before
    spanish = logged_in(other)
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    answer = upload(spanish, text)
    assert answer.status_code == 422 and f"Línea {number}: {kind} guarda un campo sellado (" in answer.text, answer.text
    assert count_events(other) == before


def test_another_install_s_import_log_refuses_the_whole_file_and_appends_nothing(
        app, client, anonymous, gm_service, new_database, tmp_path):
    duel, card = secret_card(gm_service)
    choose(anonymous, issue_seat(client, duel["session"], duel["people"][0]), duel["duel"], "a", card)
    file = tmp_path / "backup.jsonl"
    assert app.test_cli_runner().invoke(args=["export-log", str(file)]).exit_code == 0
    other = another_install(new_database, "another install's secret")
    result = other.test_cli_runner().invoke(args=["import-log", "--accept-unsigned", str(file)])
    assert result.exit_code != 0
    assert f"line {first_sealed_line(file.read_text())}: " in result.output and "holds a sealed field" in result.output
    assert count_events(other) == 0


def test_a_sealed_value_moved_to_another_event_does_not_open(app, client, anonymous, gm_service):
    """The chain recomputed, as anyone can: the ciphertext is bound to its own event and field."""
    from tests.integration.test_import_references import rechained

    duel = setup_duel(gm_service)
    text = download(client, duel["campaign"])
    items = lines_of(text)
    drawn = [n for n, line in enumerate(items) if line["type"] == "RocetCardsDrawn"]
    items[drawn[0]]["data"]["cards"], items[drawn[1]]["data"]["cards"] = (
        items[drawn[1]]["data"]["cards"], items[drawn[0]]["data"]["cards"])
    before = count_events(app)
    answer = upload(client, rechained(items))
    assert answer.status_code == 422
    assert f"Line {drawn[0] + 1}: RocetCardsDrawn holds a sealed field (cards)" in answer.text, answer.text
    assert count_events(app) == before


def test_a_signed_file_of_the_previous_format_still_imports_as_signed(app, new_database, tmp_path):
    file = tmp_path / "old.jsonl"
    assert app.test_cli_runner().invoke(args=["export-log", str(file)]).exit_code == 0
    *lines, trailer = file.read_text().splitlines()
    trailer = json.loads(trailer)
    key = backup.signing_key(app.config["SECRET_KEY"])
    old = {**trailer, "format": "touche-log/2",
           "signature": backup.signature(key, trailer["events"], trailer["hash"], "touche-log/2")}
    file.write_text("\n".join(lines + [json.dumps(old)]) + "\n")
    restored = another_install(new_database, app.config["SECRET_KEY"])
    result = restored.test_cli_runner().invoke(args=["import-log", str(file)])
    assert result.exit_code == 0 and "signed by this install" in result.output, result.output


def test_a_large_import_in_the_background_opens_the_sealed_fields_too(app, client, anonymous, gm_service):
    from tests.web.test_backup_web import wait_for_import

    duel, card = secret_card(gm_service)
    choose(anonymous, issue_seat(client, duel["session"], duel["people"][0]), duel["duel"], "a", card)
    text = download(client, duel["campaign"])
    counter = iter(range(1, 10_000))
    app.config["SERVICE_CONTEXT"] = dataclasses.replace(app.config["SERVICE_CONTEXT"],
                                                        new_id=lambda: f"copy{next(counter):04d}")
    app.config["IMPORT_IN_BACKGROUND_BYTES"] = 0  # every upload counts as large here
    started = upload(client, text)
    assert started.status_code == 303
    done = wait_for_import(client, started.headers["Location"])
    assert done.status_code == 302, done.text
    copy = done.headers["Location"].rsplit("/", 1)[1]
    db = open_db(app.config["DATABASE"])
    try:
        copy_duel = db.execute("SELECT id FROM duels WHERE campaign_id = ?", [copy]).fetchone()[0]
    finally:
        db.close()
    assert [r.data["card"] for r in events_of(gm_service, copy_duel, "RocetCardChosen")] == [card]
