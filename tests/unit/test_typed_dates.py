"""A date field reads the browser's picker (ISO) and a date typed in the reader's language."""
import pytest

from tracker.web.inputs import typed_date


@pytest.mark.parametrize("typed, language, iso", [
    ("2026-11-29", "es", "2026-11-29"),  # the picker, whatever the language
    ("2026-11-29", "en", "2026-11-29"),
    ("29/11/2026", "es", "2026-11-29"),
    ("29-11-2026", "es", "2026-11-29"),
    ("29.11.26", "es", "2026-11-29"),
    (" 1/2/2027 ", "es", "2027-02-01"),
    ("11/29/2026", "en", "2026-11-29"),
    ("2/1/2027", "en", "2027-02-01"),
])
def test_a_date_typed_in_the_readers_order_reads_as_iso(typed, language, iso):
    assert typed_date(typed, language) == iso


@pytest.mark.parametrize("typed, language", [
    ("11/29/2026", "es"),  # no 29th month
    ("29/11/2026", "en"),
    ("31/02/2026", "es"),
    ("tomorrow", "en"),
    ("", "es"),
    ("29/11", "es"),
    ("٢٩/١١/٢٠٢٦", "es"),  # digits, but not ASCII ones
    ("1/1/99999", "en"),
])
def test_anything_else_is_left_as_sent_for_the_command_to_refuse(typed, language):
    assert typed_date(typed, language) == typed


def test_what_is_not_text_is_left_alone():
    assert typed_date(None, "es") is None
    assert typed_date(["29/11/2026"], "es") == ["29/11/2026"]
