"""``json`` for tests that compare folded states and events as JSON: the rules' words are Texts
(message ids with values), written as their data and read back as Texts, as the store does."""
import json

from tracker.rules.text import as_data, revive


def dumps(value, **options):
    return json.dumps(value, default=as_data, **options)


def loads(text, **options):
    return revive(json.loads(text, **options))
