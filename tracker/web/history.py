"""The campaign's duel history, statistics and each character's record."""
from flask import Blueprint

bp = Blueprint("history", __name__)
