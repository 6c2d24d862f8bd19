"""The errors every layer may raise about what a command or a page names."""


class NotFound(Exception):
    """The command or page names something that does not exist (or not in this campaign)."""


class Forbidden(NotFound):
    """The actor may not touch this campaign. Told apart from NotFound only in the code: the web
    answers 404 either way, so nobody learns what exists in another GM's campaign."""


class Denied(Exception):
    """The access policy refuses this command to this principal, or through this door (HTTP 403)."""
