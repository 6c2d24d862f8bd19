"""Time travel: a duel as it stood after any one of its events."""
from flask import Blueprint

bp = Blueprint("timetravel", __name__)
