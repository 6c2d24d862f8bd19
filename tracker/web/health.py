"""A bare liveness check: no login, no database, the floor a load test measures against."""
from flask import Blueprint

bp = Blueprint("health", __name__)


def health():
    """Say hello."""
    return "hello\n", 200, {"Content-Type": "text/plain; charset=utf-8"}


# Registered on the app itself, so its endpoint is plain "health", one of access.OPEN_ENDPOINTS.
bp.record_once(lambda state: state.app.add_url_rule("/health", "health", health, methods=("GET",)))
