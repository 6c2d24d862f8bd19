"""The log as JSON Lines: export it, and import one into an empty database after checking
every line first, so a bad file appends nothing.

Each event line carries ``hash``, chaining it to every line before it (SHA-256 of the previous
hash and the line's canonical JSON), and the file ends with a trailer line giving the count and
the last hash. So a file cut short, reordered, with a line doubled or edited by accident is
refused whole, naming the first line at fault. Anyone can recompute the chain, so it proves
nothing about who wrote the file: the trailer's ``signature`` (HMAC-SHA256 of the count and the
last hash, under a key derived from the install's SECRET_KEY) says the file left this install
unchanged. Whatever the signature, every id an event refers to must name something the file
itself creates (``tracker.backup.references``), so no file can reach outside itself.

A backup holds in clear what the GM's event pages show, and nothing more but the commands' keyed
fingerprints, which a restore needs to tell a retried command and which name nothing without the
install's key (issue 27): each field
``rules.event_seen_by(..., "gm", state)`` hides (a sealed choice, a hand dealt to a seat-played
duelist, a sealed duel's pile) is written sealed (``tracker.backup.sealed_fields``: AES-SIV under a key
derived from SECRET_KEY, bound to its stream, version, type and field), as
``{"touche-sealed": "…"}``; the format is ``touche-log/3`` (files of formats 1 and 2 still
import). The chain hashes each line as the file holds it, ciphertext included: a chain over the
clear value would name it to anyone hashing the few cards it could be. So anyone can still check
the chain, and the signature covers what the file holds. An import on this install (the same
SECRET_KEY) opens each sealed field before anything reads the line, and appends the very events
that were exported; a file another install sealed is refused, naming the line, nothing appended.

A whole log goes into an empty database in one pass, line by line: each line checked, chained and
appended in batches inside one transaction, which a bad line rolls back whole (a long file on two
cores: a forked child checks while this process chains and appends, ``append_lines``); a
campaign's upload is read twice (``tracker.backup.campaign_import``). Memory stays flat whatever the
file's size.


A package by job: lines, exporting, checking, loading; this facade names them all."""
from __future__ import annotations

from tracker.backup import strictjson  # noqa: F401  (read as tracker.backup.<name>)
from tracker.eventstore.store import dumps, insert_rows  # noqa: F401  (read as tracker.backup.<name>)

from tracker.backup.lines import (  # noqa: F401
    BATCH, BadLog, EXPORT_BATCH, FIELDS, FORMAT, FORMATS, Line, PARALLEL_AFTER, PIPED_BATCH, Progress, chain,
    quietly, signature, signing_key,
)
from tracker.backup.exporting import (  # noqa: F401
    METADATA, SEALED_METADATA, export, export_lines,
)
from tracker.backup.checking import (  # noqa: F401
    Check, TextLines, passes,
)
from tracker.backup.loading import (  # noqa: F401
    append_lines, import_lines,
)
