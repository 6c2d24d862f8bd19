"""Words the rules say, kept as a message id and its values until a reader's language is known.

The rules are pure and know no reader, so a refusal's reason, a log line or a label is never a
finished sentence: it is ``t("{name} has no {card} in hand", name=…, card=…)``, a ``Text``. The
English source string is the message id (gettext's convention), so ``str(text)`` with no
translator installed reads as English, which is what the rule tests compare.

Translation happens at the edge: the web app, the command line or a recap installs a translator
(``install``) whose ``gettext``/``ngettext`` follow the reader's language at the moment a Text is
rendered, so the same stored Text reads in Spanish to one reader and in English to another.
A Text stored in a read model is kept as data (``as_data``/``revive``), never as prose.

``pybabel extract -k t -k tn:1,2`` finds every message: the first argument of ``t`` and the first
two of ``tn`` must be string literals. Values use ``str.format`` fields (``{name}``); a value may
itself be a Text (a card's or a deck's name), rendered in the same language.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _identity(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translator: Callable[[], tuple[Gettext, Ngettext]] = lambda: (_identity, _english_plural)


def install(translator: Callable[[], tuple[Gettext, Ngettext]] | None) -> None:
    """Install how Texts are translated when rendered: a function giving the current reader's
    ``(gettext, ngettext)`` (the web app's follows each request's language). ``None`` restores
    the English source strings."""
    global _translator
    _translator = translator or (lambda: (_identity, _english_plural))


_OWN = frozenset({"msgid", "args", "plural", "count", "parts", "separator", "render", "as_data"})


class Words:
    """What a Text and a Joined share: each reads as the sentence it renders to now, in the
    reader's language, wherever the English strings the rules used to return were read."""

    __slots__ = ()  # each kind has its own ``render`` and ``as_data``

    def __str__(self) -> str:
        return self.render(*_translator())

    def __eq__(self, other: object) -> bool:
        # The same words with the same values, or the sentence they read as now:
        # ``refusal.reason == "no tie to reroll…"`` holds in the (English) rule tests.
        if isinstance(other, type(self)):
            return self.as_data() == other.as_data()
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def startswith(self, prefix) -> bool:
        """Whether the sentence as read now starts with ``prefix`` (a reading, never a test of the id)."""
        return str(self).startswith(prefix)

    def endswith(self, suffix) -> bool:
        return str(self).endswith(suffix)

    def lower(self) -> str:
        return str(self).lower()

    def __len__(self) -> int:
        return len(str(self))

    def __getitem__(self, index):
        return str(self)[index]

    def __getattr__(self, name: str):
        # Code written for the English strings the rules used to return (``summary[1:]``,
        # ``label.rstrip("s")``) reads the sentence as it is rendered now, in the reader's language.
        if name.startswith("_") or name in _OWN:
            raise AttributeError(name)
        return getattr(str(self), name)

    def __add__(self, other: object) -> Joined:
        return Joined([self, other], "")

    def __radd__(self, other: object) -> Joined:
        return Joined([other, self], "")


class Text(Words):
    """A message id with its values (and, for a plural, the other form and the count)."""

    __slots__ = ("msgid", "args", "plural", "count")

    def __init__(self, msgid: str, args: Mapping[str, Any] | None = None,
                 plural: str | None = None, count: int | None = None):
        self.msgid = msgid
        self.args = dict(args or {})
        self.plural = plural
        self.count = count

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        if self.plural is not None:
            template = ngettext(self.msgid, self.plural, self.count)
        else:
            template = gettext(self.msgid)
        values = {k: render(v, gettext, ngettext) for k, v in self.args.items()}
        if self.count is not None:
            values.setdefault("count", self.count)
        return template.format(**values) if values else template

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, {self.args!r})"

    def __bool__(self) -> bool:
        # Without it, ``if text`` would go through ``__len__`` and render the sentence to test it:
        # a message id is empty exactly when the sentence is.
        return bool(self.msgid)

    def __hash__(self) -> int:
        return hash(self.msgid)

    def as_data(self) -> dict:
        """The Text as JSON-able data, to keep in a read model (``revive`` turns it back)."""
        data: dict[str, Any] = {"msgid": self.msgid, "args": {k: as_data(v) for k, v in self.args.items()}}
        if self.plural is not None:
            data.update(plural=self.plural, count=self.count)
        return data


class Joined(Words):
    """Texts (and plain values) read one after the other with a separator: a list of rolls, a
    sentence followed by a reason. Rendered in the reader's language like a Text."""

    __slots__ = ("parts", "separator")

    def __init__(self, parts: Iterable[Any], separator: str = ""):
        self.parts = list(parts)
        self.separator = separator

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        return self.separator.join(render(p, gettext, ngettext) for p in self.parts)

    def __repr__(self) -> str:
        return f"Joined({self.parts!r}, {self.separator!r})"

    def __bool__(self) -> bool:
        """Whether it reads as anything, told without rendering it (see ``Text.__bool__``)."""
        return bool(self.separator and len(self.parts) > 1) or any(
            part if isinstance(part, Words) else str(part) for part in self.parts)

    def __hash__(self) -> int:
        return hash(tuple(map(str, self.parts)))

    def as_data(self) -> dict:
        return {"joined": [as_data(p) for p in self.parts], "separator": self.separator}


def t(msgid: str, **args: Any) -> Text:
    """A message: ``t("{name} yields.", name=side["name"])``."""
    return Text(msgid, args)


def tn(singular: str, plural: str, count: int, **args: Any) -> Text:
    """A message with a singular and a plural form, chosen by ``count`` in the reader's language
    (``{count}`` in either form is the count): ``tn("{count} card", "{count} cards", n)``."""
    return Text(singular, args, plural, count)


def N_(msgid: str) -> str:
    """Mark an English constant as a message (extracted, left as is): ``t(CONSTANT)`` renders it."""
    return msgid


def join(parts: Iterable[Any], separator: str = ", ") -> Joined:
    """Several Texts or values read in a row: ``join(cards, ", ")``."""
    return Joined(parts, separator)


def render(value: Any, gettext: Gettext | None = None, ngettext: Ngettext | None = None) -> str:
    """``value`` as the reader reads it: a Text or Joined translated (by the translator installed
    when no functions are given), anything else as ``str``."""
    if isinstance(value, Words):
        if gettext is None or ngettext is None:
            return str(value)
        return value.render(gettext, ngettext)
    return str(value)


def as_data(value: Any) -> Any:
    """``value`` with every Text in it (at any depth) made JSON-able data."""
    if isinstance(value, Words):
        return value.as_data()
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_data(v) for v in value]
    return value


def revive(value: Any) -> Any:
    """``value`` read back from a read model, with every Text kept by ``as_data`` a Text again."""
    if isinstance(value, dict):
        if "msgid" in value and "args" in value:
            return Text(value["msgid"], {k: revive(v) for k, v in value["args"].items()},
                        value.get("plural"), value.get("count"))
        if "joined" in value and "separator" in value:
            return Joined([revive(p) for p in value["joined"]], value["separator"])
        return {k: revive(v) for k, v in value.items()}
    if isinstance(value, list):
        return [revive(v) for v in value]
    return value
