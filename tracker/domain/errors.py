"""The errors every layer may raise about what a command or a page names."""
from __future__ import annotations

from typing import Any


class NotFound(Exception):
    """The command or page names something that does not exist (or not in this campaign)."""


class Forbidden(NotFound):
    """The actor may not touch this campaign. Told apart from NotFound only in the code: the web
    answers 404 either way, so nobody learns what exists in another GM's campaign."""


class Denied(Exception):
    """The access policy refuses this command to this principal, or through this door (HTTP 403)."""


class Rejected(Exception):
    """A command turned down before anything was appended: a message, and what is wrong with each
    field (``"__all__"`` when no one field is to blame). The web answers it once, with a 422."""

    def __init__(self, message: str, fields: dict[str, str]):
        super().__init__(message)
        self.message = message
        self.fields = fields


def no_such(what: str) -> Any:
    """What a 404 says, by the kind of thing not found (a stream's category, an id's name): "no such
    duel", a Text read in the reader's language."""
    from tracker.rules.text import t  # here, not above: the rules import these errors

    said = {"campaign": t("no such campaign"), "character": t("no such character"),
            "session": t("no such session"), "duel": t("no such duel"), "event": t("no such event"),
            "position": t("no such event"), "gm": t("no such GM"), "token": t("no such token"),
            "link": t("no such link"), "stream": t("no such stream")}
    return said.get(what) or t("no such {what}", what=what)
