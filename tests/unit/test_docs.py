"""Documentation that must not fall behind the code."""
import re
from pathlib import Path

from tracker import rules
from tracker.domain.events import EVENT_TYPES
from tracker.application.handlers import HANDLERS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def headings(*paths):
    return {h for p in paths for h in re.findall(r"^### (\w+)", p.read_text(), re.M)}


def test_every_event_type_is_documented():
    documented = headings(DOCS / "events.md", *sorted((DOCS / "events").glob("*.md")))
    missing = sorted(t for t in EVENT_TYPES if t not in documented and not t.startswith("Coin"))
    assert not missing, f"document these in docs/events.md or docs/events/<ruleset>.md: {missing}"


def test_every_command_is_documented_with_an_example():
    text = "\n".join(p.read_text() for p in [DOCS / "api.md", *sorted((DOCS / "commands").glob("*.md"))])
    names = set(HANDLERS) | {name for module in rules.RULESETS.values() if module.NAME != "coin"
                             for name in module.COMMANDS}
    missing = sorted(n for n in names if f'"type": "{n}"' not in text)
    assert not missing, f"give a JSON example for: {missing}"
