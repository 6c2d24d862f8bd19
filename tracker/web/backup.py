"""Backup from the web: download a campaign's log, import one into a new campaign."""
from flask import Blueprint

bp = Blueprint("backup", __name__)
