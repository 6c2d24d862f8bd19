"""The catalogs: every message of the code is in each language's catalog, translated, never fuzzy,
and no catalog keeps a message the code no longer has (extracted afresh and compared)."""
import pytest

from tracker.i18n import catalogs


@pytest.fixture(scope="module")
def problems():
    return catalogs.problems()


def test_the_core_catalog_is_complete_and_up_to_date(problems):
    core = [p for p in problems if p.startswith("tracker/i18n/translations/")]
    assert not core, "run python -m tracker.i18n.catalogs update, translate, compile:\n" + "\n".join(core)


def test_every_catalog_is_complete_and_up_to_date(problems):
    assert not problems, "run python -m tracker.i18n.catalogs update, translate, compile:\n" + "\n".join(problems)


def test_a_translated_catalog_keeps_every_placeholder_of_its_message():
    """A Spanish string that lost a {name} or a %(num)s would fail only when it is read."""
    import re

    pattern = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
    lost = []
    for spec in catalogs.specs():
        for language in catalogs.LANGUAGES:
            for message in catalogs.read(catalogs.po_path(spec, language), language):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
                strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
                wanted = set(pattern.findall(ids[-1])) - {"%(num)s", "{count}"}  # a singular may spell the one out
                lost += [f"{language}: {ids[0]!r} -> {s!r}" for s in strings if s and not wanted <= set(pattern.findall(s))]
    assert not lost, "\n".join(lost)
