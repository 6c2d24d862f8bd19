"""No refusal of the rules names a sealed value or a hand, at the pure level where it is cheap to be
thorough. For each ruleset a duel is brought to a sealed choice (under each way its seats may choose:
revealed at once, on the GM's press, with the table's dice or each seat's own); then every command the
ruleset knows is decided with right and deliberately wrong values in every field, for every side and
duelist, and each refusal is read in English and in Spanish. A command the rules accept while the
choice stays sealed is played, and the scan goes on from there (a few steps deep): the pirate leak of
issue 27 was a GM's RollInitiative accepted while an insult was sealed, after which the GM's Insult
was refused "… chose Humillación in secret"."""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from babel.support import Translations

from tests.unit.test_pf2e_sealed import sealed as pf2e_duel
from tests.unit.test_pirate_sealed import LINE
from tests.unit.test_pirate_sealed import sealed as pirate_duel
from tests.unit.test_rocet_duels import EA, FINTA, INSULTO
from tests.unit.test_rocet_sealed import sealed as rocet_table
from tracker import rules
from tracker.domain.errors import Rejected
from tracker.rules import pf2e, pirate, rocet
from tracker.rules.dice import Dice
from tracker.rules.fields import parse_command
from tracker.rules.pf2e.commands import ChooseSkill
from tracker.rules.pirate.commands import ChooseInsult
from tracker.rules.rocet.commands import ChooseCard
from tracker.rules.rocet.terms import CARDS
from tracker.rules.text import Joined, Text

RULES = Path(rules.__file__).parent
DEPTH = 3  # commands accepted in a row while the choice stays sealed
WIDTH = 40  # sealed states scanned from one start, at most


def catalog(language: str) -> Translations:
    """The core's, the shared rules' and every ruleset's catalog in ``language``, merged as the app does."""
    merged = Translations.load(str(RULES.parent / "i18n" / "translations"), [language])
    merged.merge(Translations.load(str(RULES / "translations"), [language]))
    for module in rules.shipped():
        merged.merge(Translations.load(str(Path(module.__file__).parent / "translations"), [language]))
    return merged


@pytest.fixture(scope="module")
def readers():
    return {language: catalog(language) for language in ("en", "es")}


def read(words, reader: Translations) -> str:
    if isinstance(words, (Text, Joined)):
        return words.render(reader.gettext, reader.ngettext)
    return str(words)


def messages(refusal: Rejected, readers) -> list[tuple[str, str, list[str]]]:
    """Every sentence a refusal gives a reader, in each language: its message and each field's error,
    each with the values it carries, read in that language too."""
    said = [refusal.message, *refusal.fields.values()]
    return [(language, read(words, reader), [read(value, reader) for value in values(words)])
            for language, reader in readers.items() for words in said]


@dataclasses.dataclass
class Secret:
    """What a start's sealed choice hides: ``groups`` of words that each name one hidden value (in
    either language), ``options`` the groups a refusal may list whole (the table, the skills allowed:
    naming all of them names none in particular)."""

    groups: list[set[str]]
    options: list[set[str]]


def named(message: str, group: set[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(word.lower())}(?!\w)", message.lower()) for word in group)


def values(words) -> list:
    """The values a refusal's sentence carries (a name, a card, a listing), each as a whole: what
    varies with the state, where a secret could come through. The words of the sentence itself (its
    message id, such as "only the loser of a Treta or Finta turn discards") are the rules, the same
    whatever was sealed."""
    if isinstance(words, Joined):
        return [value for part in words.parts for value in values(part)]
    if isinstance(words, Text):
        return [value for value in words.args.values()]
    return [words]


def leaks(message: str, secret: Secret, sent: dict, carried=None) -> list[str]:
    """What of the secret ``message`` (or its ``carried`` values, already read) names, beyond what
    the sender typed themselves; and any hand it lists ("holds: …")."""
    typed = " ".join(str(v) for v in sent.values())
    found = []
    for value in (message,) if carried is None else carried:
        listing = secret.options and all(named(value, option) for option in secret.options)
        found += [sorted(group)[0] for group in secret.groups
                  if named(value, group) and not named(typed, group) and not listing]
    if re.search(r"\bholds\b|\btiene:", message.lower()):
        found.append("a hand (holds)")
    return found


# --- the starts: a duel with one side's choice sealed, for each way seats may choose --------------

def rocet_starts():
    # Inés (side A, the seat) holds EA, Finta, Insulto; Lope (B, a Villano: the GM sees his hand) Treta, TC, EP.
    hand = {EA, FINTA, INSULTO}
    secret = Secret([{card} for card in sorted(hand)], [{card} for card in CARDS])
    ways = (({}, None), ({"reveal": "gm"}, None), ({"dice_by": "table"}, None), ({"dice_by": "seats"}, (5, 3)))
    for (setup, dice), card in zip(ways, [*sorted(hand), INSULTO]):  # each card sealed, under each way
        table = rocet_table(**setup)
        table.do(ChooseCard(side="a", card=card, turn=1, dice=dice))
        yield f"rocet {setup} {card}", table.state, secret


def pirate_starts():
    names = [i["name"] for i in pirate.DEFAULT_INSULTS]
    ways = (({}, None), ({"reveal": "gm"}, None), ({"dice_by": "table"}, None), ({"dice_by": "seats"}, (14,)))
    for (setup, die), insult in zip(ways, names):  # each insult sealed, under each way
        duel = pirate_duel(**setup)
        duel.run(ChooseInsult(side="a", insult=insult, line=LINE, round=1, dice=die))
        yield f"pirate {setup} {insult}", duel.state, Secret([{insult}, {LINE}], [{name} for name in names])


SKILLS = {"deception": {"deception", "Deception", "Engaño"}, "intimidation": {"intimidation", "Intimidation", "Intimidación"},
          "perception": {"perception", "Perception", "Percepción"}}


def pf2e_starts():
    ways = (({}, None), ({"reveal": "gm"}, None), ({"dice_by": "table"}, None), ({"dice_by": "seats"}, (12,)))
    for (setup, die), skill in zip(ways, [*SKILLS, "intimidation"]):  # each skill sealed, under each way
        duel = pf2e_duel(**setup)
        duel.do(ChooseSkill("v", skill, round=1, dice_roll=die))
        yield f"pf2e {setup} {skill}", duel.state, Secret([SKILLS[skill]], list(SKILLS.values()))


STARTS = {"rocet": (rocet, rocet_starts), "pirate": (pirate, pirate_starts), "pf2e": (pf2e, pf2e_starts)}


# --- the values every field is tried with ---------------------------------------------------------

def candidates(module, state: dict, field) -> list:
    """Right and wrong values for one field of a command, as a form or the API would send them."""
    ids = [d["id"] for d in state["duelists"]]
    words = [CARDS[0], CARDS[-1]] if module is rocet else []
    if module is pirate:
        words = [i["name"] for i in state["settings"]["insults"]] + [LINE]
    if module is pf2e:
        words = sorted(SKILLS) + ["Intimidación", "arcana", "Shield Block"]
    wrong = ["", "x", "0", "-1", "7", "100 99"]
    if field.kind == "choice":
        return [value for value, _ in field.choices] + ["x", ""] + words
    if field.kind == "character":
        return ids + ["a", "b", "x", ""]
    if field.kind == "bool":
        return ["", "on"]
    if field.kind == "dice":
        return ["", "1", "5 3", "20", "3 4 5", "100 99", "0", "x"]
    if field.kind == "int":
        return ["", "1", "2", "0", "-1", "7", "x", "999999"]
    return wrong + words + ids


def plausible(module, state: dict, field) -> str:
    """The value a field takes while another is varied: the first one a GM would likely send."""
    if field.kind == "bool":
        return "on" if field.name == "server_roll" else ""
    if field.kind == "character":
        return state["duelists"][0]["id"]
    if field.kind == "choice":
        return field.choices[0][0] if field.choices else ""
    if field.kind == "dice" or not field.required:
        return ""
    return candidates(module, state, field)[-1] if field.kind == "text" else "1"


def tries(module, state: dict, cls):
    """The raw values each command is sent with: a plausible mapping, each field varied in turn, and
    every field given the same value (the old scan's way), for each side or duelist it may name."""
    fields = getattr(cls, "FIELDS", ())
    base = {f.name: plausible(module, state, f) for f in fields}
    yield dict(base)
    for f in fields:
        for value in candidates(module, state, f):
            yield {**base, f.name: value}
    who = [f for f in fields if f.kind == "character" or f.name == "side"]
    for f in who:
        for person in candidates(module, state, f)[:4]:
            for g in fields:
                if g is f or g.kind not in ("text", "choice", "character"):
                    continue  # the values a refusal could echo or compare with the sealed one
                for value in candidates(module, state, g):
                    yield {**base, f.name: person, g.name: value}


def dice_for(parsed, seed: int) -> Dice:
    """The tray the service hands the rules: typed dice first, the server's when it may roll."""
    typed = {name[5:]: value for name, value in vars(parsed).items() if name.startswith("dice_") and value}
    rng = random.Random(seed)
    server = bool(getattr(parsed, "server_roll", False))
    return Dice(typed, source=(lambda sides: rng.randint(1, sides)) if server else None,
                shuffle=lambda n: rng.sample(range(n), n))


def holds_the_seal(state: dict, sealed: dict) -> bool:
    now = state.get("sealed") or {}
    return not state.get("outcome") and all(now.get(key) == value for key, value in sealed.items())


def scan(module, start: dict, secret: Secret, readers) -> tuple[int, list[str], list]:
    """Every refusal met from ``start`` while its choice stays sealed: (refusals read, commands
    accepted on the way, leaks found)."""
    sealed = dict(start["sealed"])
    assert sealed, "the start holds no sealed choice"
    frontier, seen, read_count, accepted, found = [(start, ())], {json.dumps(start, sort_keys=True, default=str)}, 0, [], []
    seed = 0
    while frontier:
        state, path = frontier.pop(0)
        for name, cls in module.COMMANDS.items():
            went_on = False
            for raw in tries(module, state, cls):
                seed += 1
                try:
                    parsed = parse_command(cls, raw)
                    events = module.decide(state, parsed, dice_for(parsed, seed))
                except Rejected as refusal:
                    for language, message, carried in messages(refusal, readers):
                        read_count += 1
                        for leak in leaks(message, secret, raw, carried):
                            found.append((path + (name,), raw, language, message, leak))
                    continue
                after = state
                for at, event in enumerate(events, start=1):
                    after = module.evolve(after, event, at)
                if went_on or len(path) + 1 >= DEPTH or not holds_the_seal(after, sealed):
                    continue
                key = json.dumps(after, sort_keys=True, default=str)
                if key not in seen and len(seen) < WIDTH:
                    seen.add(key)
                    went_on = True  # one way on per command and state: the scan stays small
                    accepted.append(" → ".join(path + (name,)))
                    frontier.append((after, path + (name,)))
    return read_count, accepted, found


@pytest.mark.parametrize("ruleset", sorted(STARTS))
def test_no_refusal_of_the_rules_names_a_sealed_value_or_a_hand(ruleset, readers):
    module, starts = STARTS[ruleset]
    total = 0
    for label, start, secret in starts():
        read_count, accepted, found = scan(module, start, secret, readers)
        total += read_count
        assert not found, (label, found[:5])
    assert total > 1000  # the scan read refusals, not silence


def test_the_scan_catches_a_refusal_that_names_the_sealed_insult(readers):
    """The checker itself: the refusal the old pirate code gave is a leak, a listing of the table is not."""
    secret = Secret([{"Humillación"}, {LINE}], [{i["name"]} for i in pirate.DEFAULT_INSULTS])
    assert leaks("Inés chose Humillación in secret for this exchange", secret, {"insult": "Provocación"})
    assert leaks("Inés eligió Humillación en secreto para este intercambio", secret, {"insult": "x"})
    assert not leaks("no insult called x in this duel's table (Burla ingeniosa, Insulto directo, Provocación, "
                     "Humillación)", secret, {"insult": "x"})
    assert not leaks("no insult called humillación here", secret, {"insult": "humillación"})
    assert leaks("Inés has no Treta in hand (holds: Estocada Alta, Finta)", Secret([], []), {})
