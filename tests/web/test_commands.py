"""Commands are typed records parsed once at the edge, and a rejected one is answered in one place."""
import ast
import dataclasses
import typing
from pathlib import Path

import pytest

from tests.conftest import count_events
from tracker import bootstrap
from tracker.application import commands
from tracker.domain.errors import Rejected
from tracker.application.handlers import HANDLERS
from tracker.rules.base import Invalid, Refused

WEB = Path(__file__).resolve().parents[2] / "tracker" / "web"


def test_every_handled_command_is_a_typed_record_with_its_fields():
    assert set(HANDLERS) == set(commands.COMMANDS)
    for name, cls in commands.COMMANDS.items():
        assert cls.__name__ == name and dataclasses.is_dataclass(cls), name
        hints = typing.get_type_hints(HANDLERS[name])
        assert hints["command"] is cls, f"the handler of {name} takes a {hints['command']}"


def test_a_mapping_becomes_its_typed_command_once_at_the_edge():
    edited = commands.parse("EditSession", {"type": "EditSession", "session_id": "s1", "number": "3",
                                            "date": "2026-12-01", "title": " Dawn ", "expected_version": "2",
                                            "command_id": "c-1"})
    assert edited == commands.EditSession("s1", 3, "2026-12-01", "Dawn", "", 2, command_id="c-1")
    assert edited.kind == "EditSession" and len(edited.fingerprint) == 64
    with pytest.raises(Invalid) as bad:
        commands.parse("EditSession", {"session_id": "s1", "number": "x", "date": "2026-12-01", "title": "T"})
    assert bad.value.errors == {"number": "must be a whole number"}
    duel = commands.parse("PlayTurn", {"type": "PlayTurn", "duel_id": "d1", "card": "3"}, duel=True)
    assert (duel.kind, duel.duel_id, duel.fields["card"]) == ("PlayTurn", "d1", "3")


def test_the_fingerprint_is_what_was_sent_less_how_and_secrets():
    sent = {"type": "IssueApiToken", "label": "a", "command_id": "c-1", "expected_version": 4, "csrf_token": "x"}
    same = {"type": "IssueApiToken", "label": "a", "command_id": "c-2"}
    assert commands.parse("IssueApiToken", sent).fingerprint == commands.parse("IssueApiToken", same).fingerprint
    password = {"type": "RegisterGM", "username": "gm2", "password": "one secret here", "command_id": "c-3"}
    other = dict(password, password="another secret!")
    assert commands.parse("RegisterGM", password).fingerprint == commands.parse("RegisterGM", other).fingerprint


def test_the_service_runs_only_what_its_handler_table_holds(db):
    bare = bootstrap.service(db, handlers={})
    with pytest.raises(Invalid) as bad:
        bare.handle({"type": "CreateCampaign", "name": "Nope", "ruleset": "rocet"})
    assert bad.value.errors == {"type": "unknown command 'CreateCampaign'"}
    assert bootstrap.service(db).handle({"type": "CreateCampaign", "name": "Yes", "ruleset": "rocet"}).events


def test_invalid_and_refused_are_one_rejection_with_field_errors():
    assert isinstance(Invalid({"name": "is required"}), Rejected)
    assert Invalid({"name": "is required"}).fields == {"name": "is required"}
    refused = Refused("not your turn", field="dice_a")
    assert isinstance(refused, Rejected) and refused.fields == {"dice_a": "not your turn"}
    assert refused.message == "not your turn" and Refused("over").fields == {"__all__": "over"}


def test_the_web_catches_no_rejection_itself():
    caught = {}
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                if names & {"Invalid", "Refused", "Rejected"}:
                    caught.setdefault(path.name, []).append(node.lineno)
    assert caught == {}


def test_a_rejected_page_command_without_a_form_is_a_422_page_not_a_500(app, client):
    before = count_events(app)
    response = client.post("/settings/tokens", data={"label": "x" * 101})
    assert response.status_code == 422
    assert "label must be at most 100 characters" in response.get_data(as_text=True)
    assert count_events(app) == before


def test_the_api_tells_a_rejection_with_its_message_and_fields(client):
    response = client.post("/api/commands", json={"type": "CreateCampaign", "name": "", "ruleset": "rocet"})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"  # RFC 9457, with v1's first members kept
    assert response.json == {"type": "tag:touche,2026:problem:invalid", "title": "Invalid command", "status": 422,
                             "detail": "name is required", "errors": {"name": "is required"},
                             "error": "invalid", "message": "name is required"}


def test_a_rejected_form_is_drawn_again_with_the_errors_by_its_field(client):
    response = client.post("/campaigns", data={"name": "", "ruleset": "rocet", "notes": "kept"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "is required" in page and "kept" in page

