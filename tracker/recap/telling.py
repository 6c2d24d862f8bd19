"""A recap told: Markdown, short text and HTML, in the reader's language."""

from __future__ import annotations

import re
from typing import Any

import orjson

from tracker.i18n import campaign_language
from tracker.rules.text import Text, t, tn
from tracker.recap.story import CHAT_LIMIT, FORMATS


def render(recap: dict, fmt: str) -> str:
    """The recap in one format (``md``, ``short.md``, ``html``, which needs a Flask app context,
    or ``json``), its words in the recap's language."""
    if fmt == "json":
        return orjson.dumps(recap, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n"
    drawers = {"md": markdown, "short.md": short_markdown, "html": html_document}
    if fmt not in drawers:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    with campaign_language.speaking(recap.get("language") or "en"):
        return drawers[fmt](recap)


def filename(recap: dict, fmt: str) -> str:
    audience = "gm" if recap["audience"] == "gm" else "players"
    return f"session-{recap['session']['number']}-recap-{audience}.{fmt}"


_INLINE = re.compile(r"([\\`*_~|\[\]<>@#])")
_LINE_START = re.compile(r"^(\s*)([-+=>]|\d+(?=[.)]))")


def md(text: Any) -> str:
    """User text made inert in Markdown (and in Discord): every character that could start
    emphasis, a link, raw HTML, a mention, a heading or a list is escaped; lines stay lines."""
    lines = []
    for line in str(text).splitlines() or [""]:
        line = _INLINE.sub(r"\\\1", line.strip())
        lines.append(_LINE_START.sub(lambda m: m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\" + m.group(2),
                                     line))
    return "  \n".join(lines)


GM_NOTE = t("GM's note:")


def _bold(label: Text) -> str:
    """A label in bold, its colon inside: ``**Stakes:**``."""
    return f"**{md(label)}**"


def _tracks(tracks: list[dict]) -> str:
    return ", ".join(f"{md(track['label'])} {track['end']}/{track['max']}"
                     + (f" (−{track['lost']})" if track["lost"] else "") for track in tracks)


def _title(session: dict) -> Text:
    return t("Session {number}: {title}", number=session["number"], title=session["title"])


def _audience(recap: dict) -> Text:
    return t("GM's recap") if recap["audience"] == "gm" else t("Players' recap")


def markdown(recap: dict) -> str:
    """The recap as Markdown that pastes cleanly into Discord or a wiki (lists, no tables)."""
    s = recap["session"]
    date = s.get("date_text") or s["date"]
    out = [f"# {md(_title(s))}", "",
           f"*{md(date)} · {md(recap['campaign']['name'])} · {md(_audience(recap))}*", ""]
    if s.get("notes"):
        out += [f"{_bold(t('GM notes:'))} {md(s['notes'])}", ""]
    if not recap["duels"]:
        out += [md(t("No duels were fought this session.")), ""]
    for number, duel in enumerate(recap["duels"], start=1):
        out += _md_duel(number, duel)
    if recap.get("between"):
        out += [f"## {md(t('Between duels'))}", ""]
        out += [f"- {md(entry['text'])}" for entry in recap["between"]]
        out.append("")
    if recap["characters"]:
        out += [f"## {md(t('Characters at the end of the session'))}", ""]
        for c in recap["characters"]:
            record = md(c.get("record_text") or t("no result yet"))
            tracks = _tracks(c["tracks"])
            out.append(f"- **{md(c['name'])}**: {record}" + (f"; {tracks}" if tracks else ""))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _terms(duel: dict) -> list[tuple[Text, str]]:
    """The duel's terms as (label, words), those it has, in the order both formats show them."""
    outcome = duel["outcome"]
    found = [(t("Ruleset:"), f"{duel['ruleset_title']}, {duel['kind_label']}")]
    for key, label in (("stakes", t("Stakes:")), ("challenger", t("Challenged by:")), ("judge", t("Judge:"))):
        if duel[key]:
            found.append((label, duel[key]))
    return found + [(t("Outcome:"), outcome["summary"] if outcome else str(t("still running")))]


def _md_duel(number: int, duel: dict) -> list[str]:
    out = [f"## {number}. {md(duel['title'])}", ""]
    out += [f"- {_bold(label)} {md(words)}" for label, words in _terms(duel)] + [""]
    out += [f"**{md(duel['headline']['sentence'])}**", ""] + [f"- {fact}" for fact in _facts(duel["headline"])]
    if duel["notes"]:
        out += [""] + [f"> {_bold(GM_NOTE)} {md(n)}" for n in duel["notes"]]
    out += ["", f"### {md(t('Turn by turn'))}", ""]
    for line in duel["narrative"]:
        extra = f" *{md(t('(GM: {detail})', detail=line['gm_detail']))}*" if line.get("gm_detail") else ""
        mark = f"*{md(t('(GM only)'))}* " if line.get("gm_only") else ""
        out.append(f"- {mark}{md(line['text'])}{extra}")
        out += [f"  - {_bold(GM_NOTE)} {md(n)}" for n in line.get("notes", [])]
    if duel["wounds"]:
        out += ["", f"### {md(t('Wounds'))}", ""]
        out += [f"- {md(w['character'])}: {w['amount']} {md(w['track'])}" + (f" — {md(w['note'])}" if w["note"] else "")
                for w in duel["wounds"]]
    out += ["", f"### {md(t('At the end'))}", ""]
    for d in duel["duelists"]:
        result = f" — {md(d.get('result_label') or d['result'])}" if d["result"] else ""
        side = md(t("side {side}", side=d["side"].upper()))
        out.append(f"- **{md(d['name'])}** ({side}){result}: {_tracks(d['tracks'])}")
    if duel.get("assumptions"):
        out += ["", f"### {md(t('Assumptions (GM)'))}", ""] + [f"- {md(a)}" for a in duel["assumptions"]]
    if duel.get("secrets"):
        out += ["", f"### {md(t('Secrets at the end (GM)'))}", ""] + [f"- {md(x)}" for x in duel["secrets"]]
    return out + [""]


def fact_labels() -> tuple[tuple[str, Text], ...]:
    """The headline's facts and their labels, in the order every format lists them."""
    return (("decisive", t("Decisive:")), ("biggest", t("Biggest hit:")), ("best_line", t("Best line:")),
            ("criticals", t("Criticals and fumbles:")))


def _facts(headline: dict) -> list[str]:
    """The headline's facts as Markdown list items (each escaped)."""
    facts = []
    for key, label in fact_labels():
        value = headline[key]
        if value:
            words = "; ".join(md(c) for c in value) if key == "criticals" else md(value)
            facts.append(f"{_bold(label)} {words}")
    return facts


def short_markdown(recap: dict, limit: int = CHAT_LIMIT) -> str:
    """The recap in one chat message: each duel's headline and its key facts, never more than
    ``limit`` characters (duels that do not fit are counted, not cut mid-sentence)."""
    s = recap["session"]
    head = f"**{md(_title(s))}** · {md(s.get('date_text') or s['date'])}"
    if not recap["duels"]:
        return head + "\n" + md(t("No duels were fought this session.")) + "\n"
    blocks = []
    for duel in recap["duels"]:
        h = duel["headline"]
        lines = [f"⚔ **{md(duel['title'])}** — {md(h['sentence'])}"]
        lines += [f"  {fact}" for fact in _facts(h)[:3]]
        blocks.append("\n".join(lines))
    out, left = head, len(blocks)
    for block in blocks:
        more = "\n" + md(tn("…and {count} more duel in the full recap.", "…and {count} more duels in the full recap.",
                            left))
        if len(out) + 1 + len(block) + len(more) > limit:
            # The facts go first, then the whole duel: the headline sentence is what matters.
            block = block.split("\n")[0]
            if len(out) + 1 + len(block) + len(more) > limit:
                return out + more + "\n"
        out += "\n" + block
        left -= 1
    return out + "\n"


def short_text(recap: dict, limit: int = CHAT_LIMIT) -> str:
    """The one-message recap as plain text to paste anywhere: the short Markdown without its
    emphasis marks and escapes (what the GM copies from the chat summary page)."""
    import re

    marked = short_markdown(recap, limit)
    return re.sub(r"\\(.)", r"\1", marked.replace("**", "").replace("  \n", "\n"))


def html_document(recap: dict) -> str:
    """A standalone HTML page, its print stylesheet inlined, for "print to PDF"."""
    import os

    from flask import current_app, render_template
    from markupsafe import Markup

    with open(os.path.join(current_app.static_folder, "recap.css"), encoding="utf-8") as f:
        css = Markup(f.read())
    return render_template("recaps/document.html", recap=recap, css=css)
