"""Touché: an event-sourced campaign tracker for game masters who run duels."""
from __future__ import annotations

import os

from flask import Flask


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    app = Flask(__name__, instance_path=os.path.join(root, "instance"),
                template_folder=os.path.join(root, "templates"),
                static_folder=os.path.join(root, "static"))
    app.config.from_mapping(
        # Several app servers on one PostgreSQL must share it: give each FLASK_SECRET_KEY.
        SECRET_KEY=(os.environ.get("FLASK_SECRET_KEY") or os.environ.get("SECRET_KEY")
                    or _instance_secret(app.instance_path)),
        DATABASE=os.environ.get("FLASK_DATABASE") or os.path.join(app.instance_path, "tracker.db"),
        WTF_CSRF_TIME_LIMIT=None,
        LOG_PAGE_SIZE=50,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Browsers treat 127.0.0.1 and localhost as secure, so Secure cookies work for `make run` too.
        SESSION_COOKIE_SECURE=os.environ.get("TOUCHE_INSECURE_COOKIES") != "1",
        OPEN_SIGNUP=os.environ.get("TOUCHE_OPEN_SIGNUP") == "1",
        # Bodies: an import's upload may be large (it is spooled to disk, never read whole); a form
        # or a command is small. Over the limit the server answers 413 before reading it.
        MAX_UPLOAD_LENGTH=int(os.environ.get("TOUCHE_MAX_UPLOAD_MB") or 64) * 1024 * 1024,
        MAX_CONTENT_LENGTH=int(os.environ.get("TOUCHE_MAX_BODY_KB") or 1024) * 1024,
        # How long a request waits for another's write (an import) before answering 503.
        BUSY_TIMEOUT_MS=int(os.environ.get("TOUCHE_BUSY_TIMEOUT_MS") or 10000),
        # On PostgreSQL, the most connections one app process holds (one per busy server thread).
        PG_POOL_SIZE=int(os.environ.get("TOUCHE_PG_POOL_SIZE") or 20),
        # Failed logins allowed per client address and per username (Flask-Limiter's notation).
        LOGIN_LIMIT_PER_ADDRESS=os.environ.get("TOUCHE_LOGIN_LIMIT_ADDRESS") or "30 per 10 minutes",
        LOGIN_LIMIT_PER_ACCOUNT=os.environ.get("TOUCHE_LOGIN_LIMIT_ACCOUNT") or "10 per 10 minutes",
        RATELIMIT_STORAGE_URI=os.environ.get("TOUCHE_RATELIMIT_STORAGE") or "memory://",
        # Requests one API token (or, without one, one client address) may make to /api/ in a window.
        API_LIMIT=os.environ.get("TOUCHE_API_LIMIT") or "3000 per minute",
        # The longest a long-poll ("changed since version N") holds a request before answering
        # "unchanged" (a client may ask for up to 30 s): each waiting client keeps one thread of the followers' pool (tracker/web/serve.py).
        LONG_POLL_MAX=float(os.environ.get("TOUCHE_LONG_POLL_MAX") or 30),
        # How long a server-sent events follow stays open before its client reconnects (tracker/web/streams.py).
        SSE_MAX=float(os.environ.get("TOUCHE_SSE_MAX") or 300),
        # The origins whose browser scripts may call /api/ (CORS), e.g. a VTT module's: none unless listed.
        CORS_ORIGINS=tuple((os.environ.get("TOUCHE_CORS_ORIGINS") or "").replace(",", " ").split()),
        # Links given to players are built on this, never on the Host header a request claims.
        BASE_URL=(os.environ.get("TOUCHE_BASE_URL")
                  or f"http://127.0.0.1:{os.environ.get('PORT') or 5000}").rstrip("/"),
    )
    if test_config is not None:
        app.config.update(test_config)

    from tracker import bootstrap, cli, i18n
    from tracker.bootstrap import db
    from tracker.web import HANDLERS
    from tracker.web.app import init_web

    app.extensions[HANDLERS] = bootstrap.ALL_HANDLERS  # each request's service is built with them
    db.init_app(app)
    i18n.init_app(app)
    cli.init_app(app)
    init_web(app)
    return app


def _instance_secret(instance_path: str) -> str:
    """A secret key kept in instance/ so sessions survive restarts without any set-up."""
    os.makedirs(instance_path, exist_ok=True)
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        import secrets

        # Readable by its owner only: whoever reads it can sign a session cookie or a player link.
        # Written whole under another name, then linked in place: two processes starting at once
        # (a server and a command, two test workers) agree on the first one, never on half of it.
        partial = f"{path}.{os.getpid()}"
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(partial, path)
        except FileExistsError:
            pass  # another process was first: its key stands
        finally:
            os.unlink(partial)
    with open(path) as f:
        return f.read().strip()
