"""The one-time set-up code that claims a new Touché: until the first GM exists, /setup asks for it.

Like Jupyter's token, it is made when Touché starts with no GM yet and printed to the console, so
only whoever can read that console (or the instance folder) can create the first account; a
stranger who reaches the server first cannot. It lives in a file beside the database (mode 0600),
never in the event log, and is deleted once the first GM exists.
"""
from __future__ import annotations

import hmac
import os
import secrets
import sys

from flask import Flask

from tracker.rules.text import t


def path_for(app: Flask) -> str:
    """Where the code is kept: the configured file, or ``setup_code`` beside the database (in the
    instance folder when the database is a server's, PostgreSQL)."""
    database = app.config["DATABASE"]
    folder = app.instance_path if "://" in database else os.path.dirname(os.path.abspath(database))
    return app.config.get("SETUP_CODE_FILE") or os.path.join(folder, "setup_code")


def issue(app: Flask) -> tuple[str, bool]:
    """The current code, made (readable by the owner only) when there is none; and whether it is new."""
    path = path_for(app)
    code = read(app)
    if code:
        return code, False
    code = secrets.token_urlsafe(12)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker made it first: theirs is the code
        return read(app) or code, False
    with os.fdopen(fd, "w") as f:
        f.write(code)
    return code, True


def read(app: Flask) -> str:
    try:
        with open(path_for(app)) as f:
            return f.read().strip()
    except FileNotFoundError:
        return ""


def matches(app: Flask, given: object) -> bool:
    """True when ``given`` is the code, compared in constant time."""
    code = read(app)
    if not code or not isinstance(given, str):
        return False
    return hmac.compare_digest(code.encode(), given.strip().encode("utf-8", "surrogatepass"))


def discard(app: Flask) -> None:
    """Forget the code once the first GM exists: it has done its one job."""
    try:
        os.remove(path_for(app))
    except FileNotFoundError:
        pass


def announce(code: str, base_url: str = "") -> None:
    """Print where to go to create the first GM, as the console's last word before serving."""
    where = f"{base_url.rstrip('/')}/setup?code={code}" if base_url else f"/setup?code={code}"
    # Read in the command line's language when it prints it (at serve time: English, no app yet).
    words = t("Touché has no GM account yet. To create the first one, open\n\n    {where}\n\n(set-up code: "
              "{code}; only someone who can read this console can use it)", where=where, code=code)
    print(f"\n{words}\n", file=sys.stderr, flush=True)
