"""What every command shares: the ``Command`` record (how it was sent), its ids, its expected
stream version, and the fingerprint the service keeps to know a retried command again."""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from tracker.rules.base import Invalid
from tracker.rules.fields import LARGEST_INT
from tracker.rules.text import t

ID_FIELDS = {"command_id", "csrf_token", "expected_version"}  # how a command is sent, not what it says


def key(value: Any, name: str) -> str:
    """An id from a command (letters, digits and underscores), or Invalid naming the field."""
    if not isinstance(value, str) or not value or len(value) > 64 or not value.replace("_", "").isalnum():
        raise Invalid({name: t("is required")} if not value else {name: t("is not a valid id")})
    return value


def expected(raw: Mapping[str, Any]) -> int:
    """The stream version the form or client was opened at."""
    value = raw.get("expected_version")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        raise Invalid({"expected_version": t("is required (the version the form was opened at)")}) from None
    if number < 0:
        raise Invalid({"expected_version": t("must be 0 or more")})
    if number > LARGEST_INT:
        raise Invalid({"expected_version": t("must be at most {maximum}", maximum=LARGEST_INT)})
    return number


def as_list(value: Any) -> list:
    """A form value that may repeat, always as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def command_id_of(raw: Mapping[str, Any]) -> str | None:
    """The command's id (None when it has none), or Invalid when it is not short text."""
    command_id = raw.get("command_id") or None
    if command_id is None:
        return None
    if not isinstance(command_id, str):
        raise Invalid({"command_id": t("must be text")})
    if len(command_id) > 64:
        raise Invalid({"command_id": t("must be at most 64 characters")})
    return command_id


KEYED = "hmac:"  # a fingerprint keyed with the install's secret; older ones are bare SHA-256


def fingerprint_key(secret_key: str) -> bytes:
    """The key command fingerprints are made with, derived from the install's SECRET_KEY (never
    the key itself, so neither signs nor reveals the other)."""
    return hmac.new(str(secret_key).encode(), b"touche command fingerprint", hashlib.sha256).digest()


def said_by(raw: Mapping[str, Any]) -> bytes:
    """What the command asks for as canonical JSON: its type, the ids it targets and its fields,
    less how it was sent. Secrets (passwords, codes) stay out."""
    said = {name: value for name, value in raw.items()
            if name not in ID_FIELDS and "password" not in str(name) and str(name) != "code"}
    try:
        canonical = json.dumps(said, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        raise Invalid({"command_id": t("this command is too unusual to be given an id: send it without one")}) from None
    return canonical.encode()


def fingerprint_of(raw: Mapping[str, Any], key: bytes = b"") -> str:
    return fingerprint_said(said_by(raw), key)


def fingerprint_said(canonical: bytes, key: bytes = b"") -> str:
    """What the command asks for, as an HMAC-SHA256 of its canonical JSON under ``key`` (the
    install's, see ``fingerprint_key``). Keyed, because a fingerprint is kept in the log and a
    command's choices are few: a bare hash of "ChooseCard … Finta" names a sealed card to whoever
    hashes the six cards. Without a key (code that has no install), the bare SHA-256 an older
    Touché kept, which is only ever compared, never trusted to hide anything."""
    if not key:
        return hashlib.sha256(canonical).hexdigest()
    return KEYED + hmac.new(key, canonical, hashlib.sha256).hexdigest()


def same_command(known: str, canonical: bytes, key: bytes) -> bool:
    """True when a kept fingerprint names the command said as ``canonical``: a keyed one compared
    under the key, a bare SHA-256 (kept by an older Touché, or by code without a key) as it was
    made, so an older database's command ids still replay."""
    return hmac.compare_digest(known, fingerprint_said(canonical, key if known.startswith(KEYED) else b""))


@dataclass(frozen=True)
class Command:
    """What every command carries besides its own fields: how it was sent."""

    command_id: str | None = field(default=None, kw_only=True)
    fingerprint: str = field(default="", kw_only=True, repr=False, compare=False)
    said: bytes = field(default=b"", kw_only=True, repr=False, compare=False)  # its canonical JSON, to compare old fingerprints

    @property
    def kind(self) -> str:
        """The command's type, as the wire and the log name it."""
        return type(self).__name__
