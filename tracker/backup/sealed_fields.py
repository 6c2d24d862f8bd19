"""The fields of an exported event that no reader may see, encrypted with a key of this install.

A backup (``tracker.backup.export``: the campaign download, ``flask export-log``) is read by whoever
downloads it: the GM, or the operator. It must not tell them what Touché's pages never tell them
(issue 27): a choice made in secret (each ruleset's ``SEALED`` fields, "sealed" for every reader),
nor what the GM's view of the event hides in the duel's state (``rules.event_seen_by(..., "gm",
state)``: a Rocèt hand dealt to a seat-played duelist, the shuffled pile of a sealed duel). Yet a
restore must bring the very same log back, or a duel would resume without the card the player
chose. So the export writes each such field as ``{"touche-sealed": "<ciphertext>"}`` and an
import on this install opens it again, byte for byte; elsewhere it cannot be opened, and the file
is refused (``tracker.backup.Check``).

Why these choices:

- **AES-SIV** (RFC 5297, ``cryptography``'s ``AESSIV``): authenticated, so a ciphertext changed or
  made up by hand is refused rather than read as some other card; and deterministic (the same
  value under the same associated data gives the same bytes), so exporting twice gives the same
  file and its hash chain (``tracker.backup.chain``) stays reproducible, as the moving test asks
  (SQLite to PostgreSQL and back, byte for byte). Determinism tells only that two equal
  ciphertexts hold equal values, and since each one is bound to its own event (below), no two
  events' ciphertexts can be compared.
- **Associated data**: the stream, the version, the event type and the field, each its own part
  (SIV takes a list: no two of them can run together). A ciphertext copied into another event,
  another field or another duel does not open there.
- **The key**: 64 bytes (AES-256-SIV) derived with HKDF-SHA256 from the install's ``SECRET_KEY``
  under its own label, so neither the session key nor the export's signing key
  (``backup.signing_key``) is ever the cipher's key. An install that keeps its ``SECRET_KEY``
  (``instance/secret_key``) restores its own backups; moving an install means moving that key
  with the database, as for signatures.

What it does not hide: that a field is sealed (its name stays, and its ciphertext's length tells
roughly how long the value is, e.g. a short card name or a longer insult line). Whoever holds the
install's ``SECRET_KEY`` holds the database as well, where the value is in clear: the cipher keeps
the secret from the file's readers, not from the server's operator.
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

MARK = "touche-sealed"  # an encrypted field's value: {MARK: base64url of the SIV ciphertext}
MARKED = f'"{MARK}"'  # as it appears in a line that holds one (never in a JSON string's escaped text)
LABEL = b"touche export sealed fields"
PURPOSE = b"touche-log sealed field"  # the first part of the associated data: what the bytes are


class Unreadable(Exception):
    """A sealed field this install cannot open: another key sealed it, or it was changed."""


class Sealer:
    """Seals and opens the fields of exported events with this install's key."""

    __slots__ = ("_siv",)

    def __init__(self, secret_key: str | bytes):
        self._siv = AESSIV(sealing_key(secret_key))

    def seal(self, stream: str, version: int, kind: str, field: str, value: Any) -> dict:
        """``value`` as the export writes it, bound to its event and field."""
        plain = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        sealed = self._siv.encrypt(plain, _bound(stream, version, kind, field))
        return {MARK: base64.urlsafe_b64encode(sealed).decode().rstrip("=")}

    def open(self, stream: str, version: int, kind: str, field: str, sealed: dict) -> Any:
        """The value ``seal`` was given; raises Unreadable when this key did not seal it for this
        very event and field, or the text was changed."""
        text = sealed.get(MARK)
        if type(text) is not str:
            raise Unreadable(field)
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            return orjson.loads(self._siv.decrypt(raw, _bound(stream, version, kind, field)))
        except (InvalidTag, binascii.Error, ValueError, orjson.JSONDecodeError):
            raise Unreadable(field) from None


def sealing_key(secret_key: str | bytes) -> bytes:
    """The cipher's 64 bytes (AES-256-SIV), derived from SECRET_KEY under this module's own label."""
    secret = secret_key if isinstance(secret_key, bytes) else str(secret_key).encode()
    return HKDF(algorithm=hashes.SHA256(), length=64, salt=None, info=LABEL).derive(secret)


def is_sealed(value: Any) -> bool:
    """True for a field's value as ``Sealer.seal`` writes it."""
    return type(value) is dict and len(value) == 1 and MARK in value


def _bound(stream: str, version: int, kind: str, field: str) -> list[bytes]:
    return [PURPOSE, stream.encode(), str(version).encode(), kind.encode(), field.encode()]
