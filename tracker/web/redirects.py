"""Where the login may send a browser back to: a path of this site, never another site."""
from __future__ import annotations

from urllib.parse import unquote, urlsplit


def same_site_path(target: str) -> str | None:
    """The target when it is a path on this site, else None.

    Browsers drop tabs and newlines from a URL and read a backslash as a slash, so "/\\tevil.com"
    or "/\\\\evil.com" would reach another host: any control character or backslash is refused, even
    percent-encoded, before the path is parsed."""
    if not target or not target.startswith("/"):
        return None
    decoded = unquote(target)
    if any(c == "\\" or ord(c) < 32 or ord(c) == 127 for c in target + decoded):
        return None
    parts = urlsplit(decoded)
    if parts.scheme or parts.netloc or decoded.startswith("//"):
        return None
    return target
