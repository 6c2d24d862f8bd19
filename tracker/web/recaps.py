"""Session recaps for the GM: Markdown, HTML and JSON downloads."""
from flask import Blueprint

bp = Blueprint("recaps", __name__)
