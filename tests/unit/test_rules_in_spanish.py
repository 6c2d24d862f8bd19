"""The rules in Spanish: every word a ruleset says, from its sample duel to its refusals, has a
Spanish translation in the catalogs it brings (the game terms keep their original names)."""
from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from babel.support import Translations

from tests.conftest import fixed_context
from tests.sample_duel import start_sample_duel
from tracker import bootstrap, rules
from tracker.bootstrap.db import open_db
from tracker.rules import legal, text
from tracker.rules.base import Refused
from tracker.rules.fields import Field
from tracker.rules.text import Joined, Text

RULES = Path(rules.__file__).parent
SHIPPED = rules.shipped()

# Words that read the same in both languages: the games' own terms (each ruleset's GAME_TERMS, as
# the glossary lists them), and the names, abbreviations and dice that read the same in Spanish.
# A message made only of these (and of its values) may stay as it is in Spanish.
GAME_WORDS = {word for module in SHIPPED for term in module.GAME_TERMS for word in term.split()} | set("""
Rocèt Reloj Superioridad Primera sangre A muerte duelos Pathfinder e Strikes Treat Wounds Medicine TA d x id
""".split())
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)s|%%")


def may_stay(msgid: str) -> bool:
    """True when a message may read the same in Spanish: nothing but values and game words."""
    return all(word in GAME_WORDS for word in re.findall(r"[^\W\d_]+", PLACEHOLDER.sub(" ", msgid)))


def spanish() -> Translations:
    """The core's, the shared rules' and every shipped ruleset's Spanish catalogs, compiled (the
    test session compiles them at its start), merged as the app merges them: a refusal the sample
    duel meets may come from the core's handler."""
    merged = Translations.load(str(RULES.parent / "i18n" / "translations"), ["es"])
    merged.merge(Translations.load(str(RULES / "translations"), ["es"]))
    for module in SHIPPED:
        merged.merge(Translations.load(str(Path(module.__file__).parent / "translations"), ["es"]))
    return merged


class Reader:
    """A Spanish reader that notes each message it was asked for and found no translation of."""

    def __init__(self):
        self.catalog = spanish()
        self.read: set[str] = set()
        self.untranslated: set[str] = set()

    def gettext(self, msgid: str) -> str:
        found = self.catalog.gettext(msgid)
        self._note(msgid, found == msgid)
        return found

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        found = self.catalog.ngettext(singular, plural, count)
        self._note(singular, found in (singular, plural))
        return found

    def _note(self, msgid: str, same: bool) -> None:
        self.read.add(msgid)
        if same and not may_stay(msgid):
            self.untranslated.add(msgid)

    def render(self, value) -> list[str]:
        """Every Text in ``value`` (at any depth, fields included) read in Spanish."""
        if isinstance(value, (Text, Joined)):
            return [value.render(self.gettext, self.ngettext)]
        if isinstance(value, Field):
            return self.render([value.label, value.help, [label for _, label in value.choices]])
        if isinstance(value, dict):
            return [line for item in value.values() for line in self.render(item)]
        if isinstance(value, (list, tuple)):
            return [line for item in value for line in self.render(item)]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self.render([getattr(value, f.name) for f in dataclasses.fields(value)])
        return []


def literal_messages() -> list[tuple[str, str, str | None]]:
    """Every message the rules' code marks: the first argument of t() and N_(), both of tn()
    (where, the message id, its plural or None)."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("t", "N_", "tn"):
                ids = [arg.value for arg in node.args[:2 if node.func.id == "tn" else 1]
                       if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
                if ids:
                    found.append((str(path.relative_to(RULES)), ids[0], ids[1] if len(ids) > 1 else None))
    return found


def read(catalog: Translations, msgid: str, plural: str | None, count: int = 2) -> str:
    return catalog.ngettext(msgid, plural, count) if plural else catalog.gettext(msgid)


def test_every_message_the_rules_say_has_a_spanish_translation():
    catalog = spanish()
    messages = literal_messages()
    assert len(messages) > 900  # the refusals, log lines and labels of three rulesets
    missing = [(where, msgid) for where, msgid, plural in messages
               if read(catalog, msgid, plural) in (msgid, plural) and not may_stay(msgid)]
    assert missing == []


def test_the_spanish_keeps_every_value_of_its_message():
    """A translation that dropped or renamed a ``{value}`` would fail (or lie) when rendered."""
    catalog = spanish()
    for _, msgid, plural in literal_messages():
        wanted = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        for count in (1, 2):
            assert set(PLACEHOLDER.findall(read(catalog, msgid, plural, count))) <= wanted, msgid


@pytest.fixture
def reader():
    reading = Reader()
    text.install(lambda: (reading.gettext, reading.ngettext))
    yield reading
    text.install(None)


@pytest.mark.parametrize("module", SHIPPED, ids=lambda m: m.NAME)
def test_the_sample_duel_reads_wholly_in_spanish(app, module, reader):
    db = open_db(app.config["DATABASE"])
    try:
        ids = iter(range(1, 10**6))
        service = bootstrap.service(db, dataclasses.replace(fixed_context(), new_id=lambda: f"s{next(ids):04d}"))
        duel, commands = start_sample_duel(service, module, "En español")
        seen = []
        for command in commands:
            version, state = service.state_of(f"duel-{duel}")
            seen.append(state)
            refused = _a_refusal(service, module, duel, version, state)
            if refused is not None:
                reader.render([refused.message, refused.fields])
            service.handle({**command, "duel_id": duel, "expected_version": version})
        version, state = service.state_of(f"duel-{duel}")
        seen.append(state)
    finally:
        db.close()
    lines = []
    for state in seen:
        lines += reader.render([line["text"] for line in state["history"]])
        lines += reader.render([module.progress(state), module.assumptions(state), module.secrets(state)])
        lines += reader.render(module.legal_actions(state, legal.GM))
        if hasattr(module, "board"):
            lines += reader.render(module.board(state))
    assert state["outcome"], "the sample duel ends"
    lines += reader.render([state["outcome"]["summary"], module.TITLE, module.KINDS, module.SETUP, module.STATS,
                            module.TURNS_LABEL, module.RECOVERIES])
    assert reader.untranslated == set()
    assert len(reader.read) > 40 and all(lines)
    assert any("Bando" in line or "asalto" in line.lower() or "turno" in line.lower() for line in lines)


def _a_refusal(service, module, duel, version, state):
    """The refusal of a command the duel does not take now (the first common ending twice over:
    an abandon once the duel is over, else a command of another ruleset's table), or None."""
    from tracker.domain.errors import Rejected

    try:
        service.handle({"type": "Abandon" if state["outcome"] else "Discard", "side": "a", "card": "Treta",
                        "duel_id": duel, "expected_version": version})
    except Rejected as refusal:
        return refusal
    return None


def test_every_pf2e_refusal_of_the_refusal_tests_reads_in_spanish(reader):
    from tests.unit.test_pf2e_refusals import REFUSALS
    from tracker.rules import pf2e
    from tracker.rules.dice import fixed_dice

    reasons = 0
    for scenario, command, typed, reason, _field in REFUSALS:
        if reason is None:
            continue
        with pytest.raises(Refused) as refusal:
            pf2e.decide(scenario().state, command, fixed_dice(**typed))
        spoken = reader.render(refusal.value.reason)
        assert spoken and spoken[0] != reason or may_stay(refusal.value.reason.msgid), reason
        reasons += 1
    assert reasons > 50 and reader.untranslated == set()


def test_a_refusal_reads_in_spanish_and_still_equals_its_english_sentence(reader):
    from tracker.rules.duel import require_running

    state = {"outcome": {"summary": text.t("{names} won by {ending}", names="Inés", ending=text.t("clock"))}}
    with pytest.raises(Refused) as refusal:
        require_running(state)
    assert str(refusal.value.reason) == "este duelo ha terminado: Inés ganó por Reloj"
    text.install(None)
    assert refusal.value.reason == "this duel is over: Inés won by clock"
