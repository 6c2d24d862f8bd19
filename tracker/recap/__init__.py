"""A play session's recap: built as plain data from the read models, rendered to Markdown, HTML
or JSON.

Two audiences. The GM's recap holds everything: session notes, the assumptions each duel ran
under, the secrets at its end (hands, initiative skills, tradition focus) and every log line.
The players' recap is built from each ruleset's ``public(state)`` and leaves out every line that
gives a secret away (the ruleset's ``HIDDEN_FROM_PLAYERS``); the GM's secrets are the ruleset's
``secrets(state)``, so the recap never needs to know which game it tells. Nothing reads the
clock, lists keep the log's order and JSON keys are sorted, so the same events always give the
same bytes.

A recap is written in one language: the campaign's unless the reader asks for another. Every word
in it (the rules' lines, the headings, the date) is rendered in that language when it is built or
drawn, and the recap says which language it is in (``language``), so the Markdown or HTML drawn
from its JSON later reads the same.


A package by job: story (the data), telling (the formats); this facade names them all."""
from __future__ import annotations

from tracker.recap.story import (  # noqa: F401
    AUDIENCES, BETWEEN_DUELS, CHAT_LIMIT, FORMATS, VERSION, build,
)
from tracker.recap.telling import (  # noqa: F401
    GM_NOTE, fact_labels, filename, html_document, markdown, md, render, short_markdown, short_text,
)
