"""A recap's story: the session's duels and characters read as plain data."""

from __future__ import annotations

import datetime
from typing import Any

from babel.dates import format_date

from tracker import rules
from tracker.domain import workspace
from tracker.i18n import campaign_language
from tracker.domain.events import from_data
from tracker.i18n import localized
from tracker.projections import queries
from tracker.projections.words import read
from tracker.rules.text import Joined, Text, t, tn
from tracker.eventstore.store import load_state, loads
from tracker.domain.workspace import RANK_LABELS


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


def build(db, session_id: str, audience: str, language: str | None = None) -> dict:
    """The recap of one session for one audience, as plain JSON-able data, in ``language`` (the
    campaign's when None)."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {', '.join(AUDIENCES)}")
    session = queries.session(db, session_id)
    language = campaign_language.supported(language) or campaign_language.of_campaign(db, session["campaign_id"])
    with campaign_language.speaking(language):
        return _read(_build(db, session, audience, language))


def _build(db, session: dict, audience: str, language: str) -> dict:
    gm = audience == "gm"
    session_id = session["id"]
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
        "format": VERSION, "audience": audience, "language": language,
        "campaign": {"id": campaign["id"], "name": campaign["name"]},
        "session": {"id": session["id"], "number": session["number"], "date": session["date"],
                    "date_text": _date_text(session["date"], language),
                    "title": workspace.session_title(session["title"], session["date"])},
        "duels": duels,
        "between": _between(db, session, duels),
        "characters": _on_the_sheet(db, session, _characters(duels)),
    }
    if gm:
        recap["session"]["notes"] = session["notes"]
    return recap


def _read(value: Any) -> Any:
    """``value`` with every Text in it read in the current language: a recap holds words, not ids."""
    if isinstance(value, (Text, Joined)):
        return str(value)
    if isinstance(value, dict):
        return {k: _read(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_read(v) for v in value]
    return value


def _date_text(value: Any, language: str) -> str:
    """The session's date as its readers write it (``29 nov 2026``, ``Nov 29, 2026``); a date
    the session holds in no ISO form stays as it was typed."""
    try:
        return localized(format_date(datetime.date.fromisoformat(str(value)), format="medium", locale=language))
    except ValueError:
        return str(value or "")


def _in(values: list[str]) -> str:
    return ", ".join("?" * len(values))


def _types(db, streams: list[str]) -> dict[str, dict[int, str]]:
    """The event type of each log line that players must not read, by stream and version."""
    found: dict[str, dict[int, str]] = {}
    hidden = _hidden_from_players()
    if streams and hidden:
        for stream, version, kind in db.execute(
                f"SELECT stream, version, type FROM events WHERE stream IN ({_in(streams)})"
                f" AND type IN ({_in(hidden)})", [*streams, *hidden]):  # each event has its line
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
                {"character_id": character, "track": track, "amount": amount, "at": at, "note": read(note)})
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
    # A seat's "X has chosen a card" (and each change of mind) says nothing once the reveal says
    # what was played: the recap tells the reveal only.
    chosen = set(getattr(module, "SEAT_CHOICE_EVENTS", ()))
    choices = {version for version, ev in events if type(ev).__name__ in chosen}
    for line in view.get("history", []):
        if line["at"] in choices:
            continue
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
        "title": t("{a} vs {b}", a=_side_names(view, "a"), b=_side_names(view, "b")),
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
    label = module.turns_label(state.get("kind", "")) if hasattr(module, "turns_label") else module.TURNS_LABEL
    unit = getattr(label, "msgid", label)  # "turns", "rounds" or "exchanges", even as a Text
    if outcome:
        summary = str(outcome["summary"])
        sentence = _finished_after(unit, turns, summary[:1].upper() + summary[1:])
    else:
        sentence = _unfinished_after(unit, turns, module.progress(state))
    return {"sentence": sentence, "finished": bool(outcome), "turns": turns, "decisive": told.decisive,
            "biggest": told.biggest, "criticals": list(told.criticals), "best_line": told.best_line}


def _finished_after(unit: str, turns: int, summary: str) -> Text:
    """The headline of a finished duel: its summary, after so many of what its ruleset counts."""
    if unit == "rounds":
        return tn("{summary}, after {count} round.", "{summary}, after {count} rounds.", turns, summary=summary)
    if unit == "exchanges":
        return tn("{summary}, after {count} exchange.", "{summary}, after {count} exchanges.", turns, summary=summary)
    if unit == "turns":
        return tn("{summary}, after {count} turn.", "{summary}, after {count} turns.", turns, summary=summary)
    return t("{summary}, after {count} {unit}.", summary=summary, count=turns, unit=unit)


def _unfinished_after(unit: str, turns: int, progress: Any) -> Text:
    """The headline of a duel still running: how long, and where it stands."""
    if unit == "rounds":
        return tn("Unfinished: still running after {count} round ({progress}).",
                  "Unfinished: still running after {count} rounds ({progress}).", turns, progress=progress)
    if unit == "exchanges":
        return tn("Unfinished: still running after {count} exchange ({progress}).",
                  "Unfinished: still running after {count} exchanges ({progress}).", turns, progress=progress)
    if unit == "turns":
        return tn("Unfinished: still running after {count} turn ({progress}).",
                  "Unfinished: still running after {count} turns ({progress}).", turns, progress=progress)
    return t("Unfinished: still running after {count} {unit} ({progress}).", count=turns, unit=unit,
             progress=progress)


def _side_names(state: dict, side: str) -> str:
    return " & ".join(d["name"] for d in state["duelists"] if d["side"] == side)


def _duelist(module, d: dict, wounds: list[dict], result: str | None) -> dict:
    """A duelist with each track as it stood at the start and at the end of the duel."""
    stats, current = d.get("stats") or {}, d.get("current") or {}
    tracks = []
    for track in module.TRACKS:
        maximum = stats.get(track["max_stat"], 0)
        start = current.get(track["track"], maximum)
        lost = sum(w["amount"] for w in wounds if w["character_id"] == d["id"] and w["track"] == track["track"])
        tracks.append({"track": track["track"], "label": track["label"], "max": maximum, "start": start,
                       "lost": lost, "end": max(0, start - lost), "persists": bool(track["persists"])})
    return {"id": d["id"], "name": d["name"], "side": d["side"], "rank": RANK_LABELS.get(d.get("rank"), ""),
            "result": result or "", "result_label": _result_label(result), "tracks": tracks}


def _result_label(result: str | None) -> Text | str:
    """A duelist's result in words (the JSON keeps the key beside it)."""
    labels = {"win": t("win"), "loss": t("loss"), "draw": t("draw"), "abandoned": t("abandoned")}
    return labels.get(result or "", result or "")


def _record(record: dict[str, int]) -> Text | Joined:
    """A character's results of the session in words: "2 wins, 1 loss"."""
    counts = {"win": lambda n: tn("{count} win", "{count} wins", n),
              "loss": lambda n: tn("{count} loss", "{count} losses", n),
              "draw": lambda n: tn("{count} draw", "{count} draws", n),
              "abandoned": lambda n: tn("{count} abandoned", "{count} abandoned", n)}
    parts = [counts[r](n) if r in counts else f"{n} {r}" for r, n in sorted(record.items())]
    return Joined(parts, ", ") if parts else t("no result yet")


# What a character's sheet logs between duels (a rest, a treatment, the GM's "+5 healed by the cleric").
BETWEEN_DUELS = ("CharacterRecovered", "TrackAdjusted")


def _between(db, session: dict, duels: list[dict]) -> list[dict]:
    """The rests, treatments and adjustments of this session's duelists from the session's first
    duel on, up to the next session's (each line as the sheet's log says it)."""
    if not duels:
        return []
    people = sorted({d["id"] for duel in duels for d in duel["duelists"]})
    start = db.execute("SELECT MIN(position) FROM events WHERE stream = ?", [f"duel-{duels[0]['id']}"]).fetchone()[0]
    later = db.execute("SELECT MIN(e.position) FROM events e JOIN duels d ON e.stream = 'duel-' || d.id"
                       " JOIN sessions s ON s.id = d.session_id WHERE s.campaign_id = ? AND s.number > ?",
                       [session["campaign_id"], session["number"]]).fetchone()[0]
    before = " AND e.position < ?" if later is not None else ""
    rows = db.execute(f"SELECT e.stream, l.summary FROM events e JOIN log_entries l ON l.position = e.position"
                      f" WHERE e.stream IN ({_in(people)}) AND e.type IN ({_in(list(BETWEEN_DUELS))})"
                      f" AND l.retracted_by IS NULL AND e.position > ?{before} ORDER BY e.position",
                      [*(f"character-{p}" for p in people), *BETWEEN_DUELS, start or 0,
                       *([later] if later is not None else [])]).fetchall()
    names = {d["id"]: d["name"] for duel in duels for d in duel["duelists"]}
    return [{"character": names.get(stream.removeprefix("character-"), "?"), "text": read(summary)}
            for stream, summary in rows]


def _on_the_sheet(db, session: dict, characters: list[dict]) -> list[dict]:
    """In the campaign's latest session, each character's lasting tracks as the sheet has them now
    (after the rests and heals since their last duel), so the recap and the sheet agree."""
    latest = db.execute("SELECT MAX(number) FROM sessions WHERE campaign_id = ?", [session["campaign_id"]]).fetchone()[0]
    if session["number"] != latest:
        return characters
    for c in characters:
        now = {(tr["track"]): tr for tr in queries.character_sheet(db, c["id"], recent=0)["tracks"]}
        for track in c["tracks"]:
            if track["track"] in now:
                track["end"] = now[track["track"]]["current"]
    return characters


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
            for track in d["tracks"]:
                if not track["persists"]:
                    continue
                before = entry["tracks"].get(track["track"], {"lost": 0})
                entry["tracks"][track["track"]] = {"track": track["track"], "label": track["label"],
                                                   "max": track["max"], "end": track["end"],
                                                   "lost": before["lost"] + track["lost"]}
    return [dict(c, tracks=list(c["tracks"].values()), record_text=_record(c["record"]))
            for c in sorted(found.values(), key=lambda c: (c["name"], c["id"]))]
