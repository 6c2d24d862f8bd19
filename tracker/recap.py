"""A play session's recap: built as plain data from the read models, rendered to Markdown, HTML
or JSON.

Two audiences. The GM's recap holds everything: session notes, the assumptions each duel ran
under, the secrets at its end (hands, initiative skills, tradition focus) and every log line.
The players' recap is built from each ruleset's ``public(state)`` and leaves out every line that
gives a secret away (the ruleset's ``HIDDEN_FROM_PLAYERS``); the GM's secrets are the ruleset's
``secrets(state)``, so the recap never needs to know which game it tells. Nothing reads the
clock, lists keep the log's order and JSON keys are sorted, so the same events always give the
same bytes.
"""
from __future__ import annotations

import re
from typing import Any

import orjson

from tracker import rules
from tracker.events import from_data
from tracker.projections import queries
from tracker.store import load_state, loads
from tracker.workspace import RANK_LABELS

AUDIENCES = ("gm", "players")
FORMATS = {"md": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8",
           "json": "application/json", "short.md": "text/markdown; charset=utf-8"}
CHAT_LIMIT = 2000  # one chat message (Discord's limit): the short recap always fits
VERSION = "touche-recap/1"


def _hidden_from_players() -> tuple[str, ...]:
    """The event types whose log line alone gives a secret away, in every ruleset."""
    return tuple(kind for module in rules.RULESETS.values() for kind in module.HIDDEN_FROM_PLAYERS)


def _gm_detail_makers() -> dict:
    """Event type -> the words for the secret its data holds, which the GM's narrative adds."""
    return {kind: make for module in rules.RULESETS.values() for kind, make in module.GM_DETAILS.items()}


def build(db, session_id: str, audience: str) -> dict:
    """The recap of one session for one audience, as plain JSON-able data."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {', '.join(AUDIENCES)}")
    gm = audience == "gm"
    session = queries.session(db, session_id)
    campaign = queries.campaign(db, session["campaign_id"])
    rows = db.execute(
        "SELECT d.id, s.state FROM duels d JOIN stream_states s ON s.stream = 'duel-' || d.id"
        " WHERE d.session_id = ? ORDER BY (SELECT MIN(position) FROM log_entries l"
        " WHERE l.stream = 'duel-' || d.id), d.id", [session_id]).fetchall()
    streams = [f"duel-{duel_id}" for duel_id, _ in rows]
    types = _types(db, streams)
    details = _gm_details(db, streams) if gm else {}
    wounds = _wounds(db, [duel_id for duel_id, _ in rows])
    duels = [_duel(load_state(state), types.get(f"duel-{duel_id}", {}), details.get(f"duel-{duel_id}", {}),
                   wounds.get(duel_id, []), gm, _standing(db, f"duel-{duel_id}")) for duel_id, state in rows]
    recap = {
        "format": VERSION, "audience": audience,
        "campaign": {"id": campaign["id"], "name": campaign["name"]},
        "session": {"id": session["id"], "number": session["number"], "date": session["date"],
                    "title": session["title"]},
        "duels": duels,
        "characters": _characters(duels),
    }
    if gm:
        recap["session"]["notes"] = session["notes"]
    return recap


def _in(values: list[str]) -> str:
    return ", ".join("?" * len(values))


def _types(db, streams: list[str]) -> dict[str, dict[int, str]]:
    """The event type of each log line that players must not read, by stream and version."""
    found: dict[str, dict[int, str]] = {}
    hidden = _hidden_from_players()
    if streams and hidden:
        for stream, version, kind in db.execute(
                f"SELECT stream, version, type FROM log_entries WHERE stream IN ({_in(streams)})"
                f" AND type IN ({_in(hidden)})", [*streams, *hidden]):
            found.setdefault(stream, {})[version] = kind
    return found


def _gm_details(db, streams: list[str]) -> dict[str, dict[int, str]]:
    """What the GM's narrative adds beside some lines, read from those few events alone."""
    found: dict[str, dict[int, str]] = {}
    makers = _gm_detail_makers()
    if streams and makers:
        for stream, version, kind, data in db.execute(
                f"SELECT stream, version, type, data FROM events WHERE stream IN ({_in(streams)})"
                f" AND type IN ({_in(list(makers))})", [*streams, *makers]):
            found.setdefault(stream, {})[version] = makers[kind](loads(data))
    return found


def _standing(db, stream: str) -> list[tuple[int, Any]]:
    """The duel's events still standing (none retracted, no retraction), as (version, event)."""
    rows = db.execute("SELECT e.version, e.type, e.data, e.schema FROM events e JOIN log_entries l"
                      " ON l.stream = e.stream AND l.version = e.version WHERE e.stream = ?"
                      " AND l.retracted_by IS NULL AND e.type != 'EventRetracted' ORDER BY e.version", [stream])
    return [(version, from_data(kind, loads(data), schema)) for version, kind, data, schema in rows]


def _wounds(db, duel_ids: list[str]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    if duel_ids:
        for duel_id, character, track, amount, at, note in db.execute(
                "SELECT duel_id, character_id, track, amount, at, note FROM wounds"
                f" WHERE duel_id IN ({_in(duel_ids)}) ORDER BY duel_id, seq", duel_ids):
            found.setdefault(duel_id, []).append(
                {"character_id": character, "track": track, "amount": amount, "at": at, "note": note})
    return found


def _duel(state: dict, types: dict[int, str], details: dict[int, str], wounds: list[dict], gm: bool,
          events: list[tuple[int, Any]]) -> dict:
    module = rules.get(state["ruleset"])
    view = module.seen_by(state, "gm" if gm else "recap")
    names = {d["id"]: d["name"] for d in view["duelists"]}
    outcome = view.get("outcome")
    results = outcome["results"] if outcome else {}
    notes = [n for n in state.get("notes", []) if gm or n["public"]]
    shown = {line["at"] for line in view.get("history", []) if gm or line["at"] not in types}
    # A note on a line the audience reads sits under it; any other is about the whole duel.
    by_line: dict[int, list[str]] = {}
    for n in notes:
        if n["about"] in shown:
            by_line.setdefault(n["about"], []).append(n["text"])
    narrative = []
    for line in view.get("history", []):
        hidden = line["at"] in types
        if hidden and not gm:
            continue
        entry = {"at": line["at"], "text": line["text"]}
        if line["at"] in by_line:
            entry["notes"] = by_line[line["at"]]
        if hidden:
            entry["gm_only"] = True
        if line["at"] in details:
            entry["gm_detail"] = details[line["at"]]
        narrative.append(entry)
    for w in wounds:
        w["character"] = names.get(w["character_id"], "?")
    duel = {
        "id": state["duel_id"], "ruleset": state["ruleset"], "ruleset_title": module.TITLE,
        "kind": state["kind"], "kind_label": module.KINDS.get(state["kind"], state["kind"]),
        "title": " vs ".join(_side_names(view, side) for side in ("a", "b")),
        "stakes": view.get("stakes", ""), "judge": view.get("judge", ""),
        "challenger": _side_names(view, view["challenger"]) if view.get("challenger") else "",
        "status": "over" if outcome else "running",
        "outcome": ({"summary": outcome["summary"], "winner": outcome["winner"], "ending": outcome["ending"]}
                    if outcome else None),
        "duelists": [_duelist(module, d, wounds, results.get(d["id"])) for d in view["duelists"]],
        "headline": _headline(module, state, view, events),
        "notes": [n["text"] for n in notes if n["about"] not in shown],
        "narrative": narrative,
        "wounds": wounds,
    }
    if gm:
        duel["assumptions"] = list(module.assumptions(state))
        duel["secrets"] = list(module.secrets(view))  # what the GM may see: never a seat's hand or sealed card
    return duel


def _headline(module, state: dict, view: dict, events: list[tuple[int, Any]]) -> dict:
    """Who won, how, in how many turns, then the ruleset's own facts (decisive turn, biggest hit,
    criticals and fumbles, best line); a duel still running is said to be so."""
    outcome = view.get("outcome")
    wanted = set(module.HISTORY_EVENTS)
    turns = module.history_facts(state, [ev for _, ev in events if type(ev).__name__ in wanted]).turns
    told = module.headline(state, events)
    count = f"{turns} {module.TURNS_LABEL if turns != 1 else module.TURNS_LABEL.rstrip('s')}"
    if outcome:
        sentence = f"{outcome['summary'][0].upper()}{outcome['summary'][1:]}, after {count}."
    else:
        sentence = f"Unfinished: still running after {count} ({module.progress(state)})."
    return {"sentence": sentence, "finished": bool(outcome), "turns": turns, "decisive": told.decisive,
            "biggest": told.biggest, "criticals": list(told.criticals), "best_line": told.best_line}


def _side_names(state: dict, side: str) -> str:
    return " & ".join(d["name"] for d in state["duelists"] if d["side"] == side)


def _duelist(module, d: dict, wounds: list[dict], result: str | None) -> dict:
    """A duelist with each track as it stood at the start and at the end of the duel."""
    stats, current = d.get("stats") or {}, d.get("current") or {}
    tracks = []
    for t in module.TRACKS:
        maximum = stats.get(t["max_stat"], 0)
        start = current.get(t["track"], maximum)
        lost = sum(w["amount"] for w in wounds if w["character_id"] == d["id"] and w["track"] == t["track"])
        tracks.append({"track": t["track"], "label": t["label"], "max": maximum, "start": start, "lost": lost,
                       "end": max(0, start - lost), "persists": bool(t["persists"])})
    return {"id": d["id"], "name": d["name"], "side": d["side"], "rank": RANK_LABELS.get(d.get("rank"), ""),
            "result": result or "", "tracks": tracks}


def _characters(duels: list[dict]) -> list[dict]:
    """Each character who duelled: their record this session and their lasting tracks after
    their last duel of it."""
    found: dict[str, dict] = {}
    for duel in duels:
        for d in duel["duelists"]:
            entry = found.setdefault(d["id"], {"id": d["id"], "name": d["name"], "duels": 0,
                                               "record": {}, "tracks": {}})
            entry["duels"] += 1
            if d["result"]:
                entry["record"][d["result"]] = entry["record"].get(d["result"], 0) + 1
            for t in d["tracks"]:
                if not t["persists"]:
                    continue
                before = entry["tracks"].get(t["track"], {"lost": 0})
                entry["tracks"][t["track"]] = {"track": t["track"], "label": t["label"], "max": t["max"],
                                               "end": t["end"], "lost": before["lost"] + t["lost"]}
    return [dict(c, tracks=list(c["tracks"].values()))
            for c in sorted(found.values(), key=lambda c: (c["name"], c["id"]))]


# --- rendering ---------------------------------------------------------------------------

def render(recap: dict, fmt: str) -> str:
    """The recap in one format: ``md``, ``html`` (needs a Flask app context) or ``json``."""
    if fmt == "json":
        return orjson.dumps(recap, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n"
    if fmt == "md":
        return markdown(recap)
    if fmt == "short.md":
        return short_markdown(recap)
    if fmt == "html":
        return html_document(recap)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}")


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


def _tracks(tracks: list[dict]) -> str:
    return ", ".join(f"{md(t['label'])} {t['end']}/{t['max']}" + (f" (−{t['lost']})" if t["lost"] else "")
                     for t in tracks)


def markdown(recap: dict) -> str:
    """The recap as Markdown that pastes cleanly into Discord or a wiki (lists, no tables)."""
    s = recap["session"]
    who = "GM's recap" if recap["audience"] == "gm" else "Players' recap"
    out = [f"# Session {s['number']}: {md(s['title'])}", "",
           f"*{md(s['date'])} · {md(recap['campaign']['name'])} · {who}*", ""]
    if s.get("notes"):
        out += ["**GM notes:** " + md(s["notes"]), ""]
    if not recap["duels"]:
        out += ["No duels were fought this session.", ""]
    for number, duel in enumerate(recap["duels"], start=1):
        out += _md_duel(number, duel)
    if recap["characters"]:
        out += ["## Characters at the end of the session", ""]
        for c in recap["characters"]:
            record = ", ".join(f"{n} {r}" for r, n in sorted(c["record"].items())) or "no result yet"
            tracks = _tracks(c["tracks"])
            out.append(f"- **{md(c['name'])}**: {record}" + (f"; {tracks}" if tracks else ""))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _md_duel(number: int, duel: dict) -> list[str]:
    out = [f"## {number}. {md(duel['title'])}", "",
           f"- **Ruleset:** {md(duel['ruleset_title'])}, {md(duel['kind_label'])}"]
    for key, label in (("stakes", "Stakes"), ("challenger", "Challenged by"), ("judge", "Judge")):
        if duel[key]:
            out.append(f"- **{label}:** {md(duel[key])}")
    outcome = duel["outcome"]
    out += [f"- **Outcome:** {md(outcome['summary']) if outcome else 'still running'}", ""]
    out += [f"**{md(duel['headline']['sentence'])}**", ""] + [f"- {fact}" for fact in _facts(duel["headline"])]
    if duel["notes"]:
        out += [""] + [f"> **GM's note:** {md(n)}" for n in duel["notes"]]
    out += ["", "### Turn by turn", ""]
    for line in duel["narrative"]:
        extra = f" *(GM: {md(line['gm_detail'])})*" if line.get("gm_detail") else ""
        mark = "*(GM only)* " if line.get("gm_only") else ""
        out.append(f"- {mark}{md(line['text'])}{extra}")
        out += [f"  - **GM's note:** {md(n)}" for n in line.get("notes", [])]
    if duel["wounds"]:
        out += ["", "### Wounds", ""]
        out += [f"- {md(w['character'])}: {w['amount']} {md(w['track'])}" + (f" — {md(w['note'])}" if w["note"] else "")
                for w in duel["wounds"]]
    out += ["", "### At the end", ""]
    for d in duel["duelists"]:
        result = f" — {d['result']}" if d["result"] else ""
        out.append(f"- **{md(d['name'])}** (side {d['side'].upper()}){result}: {_tracks(d['tracks'])}")
    if duel.get("assumptions"):
        out += ["", "### Assumptions (GM)", ""] + [f"- {md(a)}" for a in duel["assumptions"]]
    if duel.get("secrets"):
        out += ["", "### Secrets at the end (GM)", ""] + [f"- {md(x)}" for x in duel["secrets"]]
    return out + [""]


def _facts(headline: dict) -> list[str]:
    """The headline's facts as Markdown list items (each escaped)."""
    facts = []
    for key, label in (("decisive", "Decisive"), ("biggest", "Biggest hit"), ("best_line", "Best line")):
        if headline[key]:
            facts.append(f"**{label}:** {md(headline[key])}")
    if headline["criticals"]:
        facts.append("**Criticals and fumbles:** " + "; ".join(md(c) for c in headline["criticals"]))
    return facts


def short_markdown(recap: dict, limit: int = CHAT_LIMIT) -> str:
    """The recap in one chat message: each duel's headline and its key facts, never more than
    ``limit`` characters (duels that do not fit are counted, not cut mid-sentence)."""
    s = recap["session"]
    head = f"**Session {s['number']}: {md(s['title'])}** · {md(s['date'])}"
    if not recap["duels"]:
        return head + "\nNo duels were fought this session.\n"
    blocks = []
    for duel in recap["duels"]:
        h = duel["headline"]
        lines = [f"⚔ **{md(duel['title'])}** — {md(h['sentence'])}"]
        lines += [f"  {fact}" for fact in _facts(h)[:3]]
        blocks.append("\n".join(lines))
    out, left = head, len(blocks)
    for block in blocks:
        more = f"\n…and {left} more duel{'s' if left > 1 else ''} in the full recap."
        if len(out) + 1 + len(block) + len(more) > limit:
            # The facts go first, then the whole duel: the headline sentence is what matters.
            block = block.split("\n")[0]
            if len(out) + 1 + len(block) + len(more) > limit:
                return out + more + "\n"
        out += "\n" + block
        left -= 1
    return out + "\n"


def html_document(recap: dict) -> str:
    """A standalone HTML page, its print stylesheet inlined, for "print to PDF"."""
    import os

    from flask import current_app, render_template
    from markupsafe import Markup

    with open(os.path.join(current_app.static_folder, "recap.css"), encoding="utf-8") as f:
        css = Markup(f.read())
    return render_template("recaps/document.html", recap=recap, css=css)
