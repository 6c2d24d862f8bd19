"""How every duel runs, whatever its ruleset: the decider and the evolver skeletons, the endings, adjustments, seats and the lines that tell them."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from tracker.domain.events import plain, plain_data
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.state import update
from tracker.rules.text import Text, t
from tracker.rules.duel_vocabulary import (
    ADJUST_FALLS, Abandon, AdjustTrackInDuel, Disqualify, DuelAbandoned, DuelDisqualified, DuelDrawn,
    DuelNoted, DuelSeatTakenOver, DuelStarted, DuelTrackAdjusted, DuelWon, DuelYielded, ENDING_COMMANDS,
    ENDING_EVENTS, ENDING_LABELS, Yield, _COMMON_EVENTS,
)


def name_endings(labels: dict[str, Text]) -> None:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """Add a ruleset's endings (key -> how a summary says it) to ``ENDING_LABELS``."""
    ENDING_LABELS.update(labels)


def ending_label(ending: str) -> Text | str:
    """How a summary says ``ending``: its label, or the key in words when nobody named it."""
    return ENDING_LABELS.get(ending, ending.replace("_", " "))


def other(side: str) -> str:
    return "b" if side == "a" else "a"


def initial(started: DuelStarted) -> dict:
    """The state every ruleset's duel starts from; rulesets add their own keys."""
    return {
        "duel_id": started.duel_id,
        "campaign_id": started.campaign_id,
        "session_id": started.session_id,
        "ruleset": started.ruleset,
        "kind": started.kind,
        "duelists": [dict(d) for d in started.duelists],
        "settings": dict(started.settings),
        "challenger": started.challenger,
        "stakes": started.stakes,
        "judge": started.judge,
        "outcome": None,
        "wounds": [],
        "history": [],
    }


def side_of(state: dict, side: str) -> list[dict]:
    return [d for d in state["duelists"] if d["side"] == side]


def names(state: dict, side: str) -> str:
    return " & ".join(d["name"] for d in side_of(state, side))


def require_running(state: dict) -> None:
    if state.get("outcome"):
        raise Refused(t("this duel is over: {summary}", summary=state["outcome"]["summary"]))


def decide_ending(state: dict, cmd: Any) -> list:
    """The common endings, open to every ruleset while the duel runs."""
    require_running(state)
    if isinstance(cmd, Yield):
        return [DuelYielded(side=cmd.side, detail=cmd.detail or "")]
    if isinstance(cmd, Disqualify):
        return [DuelDisqualified(side=cmd.side, reason=cmd.reason or "")]
    if isinstance(cmd, Abandon):
        return [DuelAbandoned(reason=cmd.reason or "")]
    raise Refused(t("unknown command {command}", command=type(cmd).__name__))


Handler = Callable[[dict, Any, Any], list]


def handled_by(handlers: Mapping[type, Handler], state: dict, cmd: Any, dice: Any) -> list:
    """Hand ``cmd`` to its handler in a ruleset's table (command type -> handler), or refuse it."""
    handler = handlers.get(type(cmd))
    if handler is None:
        raise Refused(t("unknown command {command}", command=type(cmd).__name__))
    return handler(state, cmd, dice)


def decider(handlers: Mapping[type, Handler],
            left_behind: Callable[[dict], list] | None = None) -> Callable[[dict, Any, Any], list]:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """A ruleset's ``decide`` when all it adds to the common endings is its table of handlers:
    an ending first, else (while the duel runs) the command's own handler. ``left_behind`` gives
    the facts an ending must record first about what it leaves unsettled (damage on offer
    declined), so nothing lapses silently."""

    def decide(state: dict, cmd: Any, dice: Any) -> list:
        """The events that follow ``cmd``, or Refused with the reason."""
        if type(cmd) in ENDING_COMMANDS.values():
            ended = decide_ending(state, cmd)
            return (left_behind(state) if left_behind else []) + ended
        require_running(state)
        return handled_by(handlers, state, cmd, dice)

    return decide


EndingDetail = Callable[[dict, Any], "Text | str | None"]


def told_detail(state: dict, ev: Any, ending_detail: EndingDetail | None) -> Any:
    """What a summary says of how a ``DuelWon`` or ``DuelDrawn`` came about: the sentence an old
    log stored, else the ruleset's ``ending_detail`` told from the state before the event, else
    the event's own ``detail`` (the GM's words, or nothing)."""
    if ev.sentence:
        return ev.sentence
    told = ending_detail(state, ev) if ending_detail is not None else None
    return ev.detail if told is None else told


def evolve_ending(state: dict, ev: Any, ending_detail: EndingDetail | None = None) -> dict | None:
    """Apply a common ending event; None when ``ev`` is not one. ``ending_detail(state, ev)`` is
    the ruleset's sentence for a ``DuelWon``/``DuelDrawn`` from the facts (None: no sentence of
    its own, the event's ``detail`` is shown)."""
    if not isinstance(ev, ENDING_EVENTS):  # most events: one check instead of five
        return None
    if isinstance(ev, DuelWon):
        return finish(state, ev.side, ev.ending, told_detail(state, ev, ending_detail))
    if isinstance(ev, DuelDrawn):
        return finish(state, None, ev.ending, told_detail(state, ev, ending_detail))
    if isinstance(ev, DuelYielded):
        return finish(state, other(ev.side), "yield", t("{names} yielded", names=names(state, ev.side)))
    if isinstance(ev, DuelDisqualified):
        who = names(state, ev.side)
        detail = (t("{names} disqualified: {reason}", names=who, reason=ev.reason) if ev.reason
                  else t("{names} disqualified", names=who))
        return finish(state, other(ev.side), "disqualification", detail)
    if isinstance(ev, DuelAbandoned):
        detail = t("abandoned: {reason}", reason=ev.reason) if ev.reason else t("abandoned")
        return finish(state, None, "abandoned", detail)
    return None


Started = Callable[[DuelStarted], dict]
Mutator = Callable[[Any, dict, int], dict]
Describer = Callable[[Any, Any], str]
Resulter = Callable[[Any, Any], "dict | None"]
EndingCheck = Callable[[dict, Any], str]
Adjustable = Callable[[dict], list]
TrackSetter = Callable[[dict, str, str, int], dict]


def evolver(started: Started, mutate: Mutator, describe: Describer, endings: Mapping[str, EndingCheck],
            *, quiet: tuple[type, ...] = (), after_the_end: tuple[type, ...] = (),
            result: Resulter | None = None, adjustable: Adjustable | None = None,
            set_track: TrackSetter | None = None,
            ending_detail: EndingDetail | None = None) -> Callable[[Any, Any, int], dict]:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """A ruleset's ``evolve(state, event, at)`` from what only the ruleset knows.

    ``started(ev)`` is the state a ``DuelStarted`` opens; ``mutate(ev, state, at)`` the state after
    one of the ruleset's own events (a new state: the input is never changed); ``describe(state, ev)``
    the event's line, from the state before it (None before the start); ``endings`` the checks
    (as in ``ending_problems``) a ``DuelWon`` or ``DuelDrawn`` must pass; ``quiet`` the events
    folded into another's line, so given none of their own; ``after_the_end`` the events that may
    still follow an ending; ``result(state, ev)`` the numbers of a resolved step (the structured
    twin of its line, from the state before it) or None; ``adjustable(state)`` and
    ``set_track(state, character, track, value)`` the ruleset's ``adjustable_tracks`` and
    ``set_track`` (a GM's adjustment, ``DuelTrackAdjusted``); ``ending_detail(state, ev)`` how the
    ruleset tells a ``DuelWon``/``DuelDrawn`` it decided (see ``evolve_ending``). Everything else every duel folds the
    same way, here: each history line is ``{"at", "text"}``, with ``result`` (``{"event": type,
    …numbers}``) when the step has numbers, an ending's being its winner and ending.
    """

    # What the skeleton does with each type of event, found once per type (the same isinstance
    # tests as written out, but a replay folds every event of the log through here).
    roles: dict[type, tuple[str, bool]] = {}

    def role(kind: type) -> tuple[str, bool]:
        for base, name in ((DuelNoted, "noted"), (DuelSeatTakenOver, "taken over"), (DuelTrackAdjusted, "adjusted"),
                           (DuelStarted, "started"),
                           (ENDING_EVENTS, "ending")):
            if issubclass(kind, base):
                break
        else:
            name = "own"
        found = roles[kind] = (name, not issubclass(kind, quiet))
        return found

    def evolve(state: dict | None, ev: Any, at: int) -> dict:
        name, told = roles.get(type(ev)) or role(type(ev))
        if name == "noted":
            return noted(state, ev, at)
        if name == "taken over":
            return taken_over(state, ev, at)
        if name == "adjusted":
            return adjusted(state, ev, at, adjustable, set_track)
        if name == "started":
            new, text = started(ev), told and describe(None, ev)
        else:
            _check_possible(state, ev, endings, after_the_end)
            text = told and describe(state, ev)  # told from the state before the event
            new = evolve_ending(state, ev, ending_detail) if name == "ending" else mutate(ev, state, at)
        if not told:
            return new
        line = {"at": at, "text": text}
        numbers = _numbers(state, new, ev, result)
        if numbers is not None:
            line["result"] = {"event": type(ev).__name__, **numbers}
        return dict(new, history=new["history"] + [line])

    return evolve


def _numbers(before: dict | None, after: dict, ev: Any, result: Resulter | None) -> dict | None:
    if isinstance(ev, ENDING_EVENTS):
        outcome = after["outcome"]
        return {"winner": outcome["winner"], "ending": outcome["ending"]}
    if before is None or result is None:
        return None
    return result(before, ev)


def fields_of(ev: Any, *leave_out: str, **extra: Any) -> dict:
    """An event's own fields as a step's result (less ``leave_out``), with ``extra`` beside them,
    tuples as lists, as the state is stored (JSON), so a fresh fold equals a reloaded one."""
    data = {k: v for k, v in plain_data(ev).items() if k not in leave_out}
    return {**data, **plain(extra)}


def noted(state: dict | None, ev: DuelNoted, at: int) -> dict:
    """The state with the GM's note: no log line of the duel, no rule touched."""
    if state is None:
        impossible("a duel starts with DuelStarted")
    note = {"at": at, "about": ev.about, "text": ev.text, "public": ev.public}
    return dict(state, notes=state.get("notes", []) + [note])


def chosen_on_seats(state: Mapping[str, Any]) -> bool:
    """Whether the players make their sides' choices on their seats: every ruleset's set-up names
    it ``choices`` = "sealed". Otherwise the GM records every choice and a seat only watches."""
    return (state.get("settings") or {}).get("choices") == "sealed"


def taken_over(state: dict | None, ev: DuelSeatTakenOver, at: int) -> dict:
    """The state with the side handed back to the GM: no rule touched, one log line."""
    if state is None:
        impossible("a duel starts with DuelStarted")
    if ev.side not in {d["side"] for d in state["duelists"]}:
        impossible(f"the duel has no side {ev.side!r}")
    sides = sorted(set(state.get("taken_over", ())) | {ev.side})
    return dict(state, taken_over=sides)


def decide_adjustment(state: dict, tracks: list[dict], cmd: AdjustTrackInDuel) -> list:
    """The GM's adjustment of one of the ``tracks`` a ruleset offers (its ``adjustable_tracks``):
    a running duel, a non-zero amount with a reason, clamped to the track's maximum, and never
    down to 0 (that is the duel's own actions' to do)."""
    require_running(state)
    if not cmd.amount:
        raise Refused(t("adjust by a number other than 0"), field="amount")
    if not (cmd.reason or "").strip():
        raise Refused(t("say why (the log shows it)"), field="reason")
    track = _track(tracks, cmd.character, cmd.track)
    if track is None:
        raise Refused(t("choose a track this duel lets you adjust"), field="target")
    value = min(track["value"] + cmd.amount, track["max"])
    if track["value"] <= 0:
        raise Refused(t("{name} is down: {why}", name=track["name"], why=t(ADJUST_FALLS)), field="target")
    if value <= 0:
        raise Refused(t(ADJUST_FALLS), field="amount")
    if value == track["value"]:
        raise Refused(t("{name}'s {track} is already at its maximum ({maximum})", name=track["name"],
                        track=track["label"], maximum=track["max"]), field="amount")
    return [DuelTrackAdjusted(character=cmd.character, track=cmd.track, amount=cmd.amount, value=value,
                              reason=cmd.reason.strip())]


def _track(tracks: list[dict], character: str, track: str) -> dict | None:
    return next((found for found in tracks if found["character"] == character and found["track"] == track), None)


def adjusted(state: dict | None, ev: DuelTrackAdjusted, at: int, adjustable: Adjustable | None,
             set_track: TrackSetter | None) -> dict:
    """The state after the GM's adjustment, with its line in the history; the change is kept in
    ``adjustments`` (what the invariants add back, and what persists on the sheet after the duel)."""
    if state is None:
        impossible("a duel starts with DuelStarted")
    if state["outcome"]:
        impossible("an adjustment after the duel ended")
    track = _track(adjustable(state) if adjustable else [], ev.character, ev.track)
    if track is None:
        impossible(f"no adjustable {ev.track} for {ev.character}")
    if track["value"] <= 0:
        impossible(f"an adjustment of {track['name']}, who is down")
    if not 0 < ev.value <= track["max"] or ev.value != min(track["value"] + ev.amount, track["max"]):
        impossible(f"an adjustment of {track['value']} by {ev.amount} to {ev.value}")
    change = ev.value - track["value"]
    new = set_track(state, ev.character, ev.track, ev.value)
    entry = {"character": ev.character, "track": ev.track, "amount": change, "at": at, "note": ev.reason}
    line = {"at": at, "text": adjustment_line(track["name"], track["label"], change, ev.reason),
            "result": {"event": "DuelTrackAdjusted", "character": ev.character, "track": ev.track,
                       "amount": change, "value": ev.value}}
    return dict(new, adjustments=state.get("adjustments", []) + [entry], history=new["history"] + [line])


def adjustment_line(name: str, label: Any, change: int, reason: str) -> Text:
    """The adjustment as the log and recap tell it: "Lope's PG +2 (forgot the +2)"."""
    return t("{name}'s {track} {change} ({reason})", name=name, track=label, change="%+d" % change, reason=reason)


def adjusted_by(state: dict, character: str, track: str) -> int:
    """What the GM's adjustments added to a duelist's track (negative when they took away)."""
    return sum(a["amount"] for a in state.get("adjustments", ())
               if a["character"] == character and a["track"] == track)


def impossible(why: str):
    """Refuse to fold a history the rules could not have produced."""
    raise ImpossibleHistory(why)


def _check_possible(state: dict | None, ev: Any, endings: Mapping[str, EndingCheck],
                    after_the_end: tuple[type, ...]) -> None:
    """What every duel refuses to fold: an event before the start or after the end, and an
    ending the state does not support."""
    if state is None:
        impossible("a duel starts with DuelStarted")
    if state["outcome"] and not isinstance(ev, after_the_end):
        impossible(f"{type(ev).__name__} after the duel ended")
    if isinstance(ev, (DuelWon, DuelDrawn)):
        check = endings.get(ev.ending)
        why = check(state, getattr(ev, "side", None)) if check else f"this ruleset has no {ev.ending} ending"
        if why:
            impossible(f"an ending by {ev.ending}, but {why}")


def finish(state: dict, winner: str | None, ending: str, detail: str) -> dict:
    """The state with its outcome: who won, how it ended, and each duelist's result."""
    if winner is None:
        result = "abandoned" if ending == "abandoned" else "draw"
        results = {d["id"]: result for d in state["duelists"]}
        summary = t("abandoned") if ending == "abandoned" else t("a draw ({detail})", detail=detail or ending_label(ending))
    else:
        results = {d["id"]: ("win" if d["side"] == winner else "loss") for d in state["duelists"]}
        how = ending_label(ending)
        summary = (t("{names} won by {ending} ({detail})", names=names(state, winner), ending=how, detail=detail)
                   if detail else t("{names} won by {ending}", names=names(state, winner), ending=how))
    return update(state, outcome={"winner": winner, "ending": ending, "detail": detail,
                                  "results": results, "summary": summary})


def wound(state: dict, character: str, track: str, amount: int, at: int, note: str) -> dict:
    """The state with one more wound (damage on a track) caused by the event at ``at``."""
    if amount <= 0:
        return state
    entry = {"character": character, "track": track, "amount": amount, "at": at, "note": note}
    return update(state, wounds=state["wounds"] + [entry])


def describe_ending(state: dict, ev: Any, ending_detail: EndingDetail | None = None) -> str | None:
    """Plain language for the common endings (and the GM's notes and adjustments); None for other
    events. ``ending_detail`` as in ``evolve_ending``."""
    if not isinstance(ev, _COMMON_EVENTS):  # most events: one check instead of three
        return None
    if isinstance(ev, DuelNoted):
        if ev.about:
            if ev.public:
                return t("GM note on event {about} (players see it): {text}", about=ev.about, text=ev.text)
            return t("GM note on event {about}: {text}", about=ev.about, text=ev.text)
        if ev.public:
            return t("GM note (players see it): {text}", text=ev.text)
        return t("GM note: {text}", text=ev.text)
    if isinstance(ev, DuelSeatTakenOver):
        names = " & ".join(d["name"] for d in state["duelists"] if d["side"] == ev.side)
        return t("The GM took over {name}'s seat", name=names or ev.side)
    if isinstance(ev, DuelTrackAdjusted):  # the fold tells it with the change made; this is its fallback
        name = next((d["name"] for d in state["duelists"] if d["id"] == ev.character), ev.character)
        return t("{name}'s {track} adjusted to {value} ({reason})", name=name, track=ev.track, value=ev.value,
                 reason=ev.reason)
    after = evolve_ending(state, ev, ending_detail)
    return None if after is None else t("Duel ended: {summary}.", summary=after["outcome"]["summary"])


def whole_suffix(target: Any, later: list[tuple[int, Any]]) -> list[int]:
    """Every later event stands on ``target``: retracting it rewinds the duel to just before it.
    The answer to ``retraction_carries`` whenever a ruleset knows no better (always reachable).
    The GM's notes stand on nothing: one goes back alone, and a rewind leaves them standing."""
    if isinstance(target, (DuelNoted, DuelSeatTakenOver)):
        return []
    return [version for version, ev in later if not isinstance(ev, (DuelNoted, DuelSeatTakenOver))]


def suffix_except(*independent: type):
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """``retraction_carries`` for a ruleset whose events of the ``independent`` types stand on
    nothing and nothing stands on them (a note, a verdict with no effect on the rules): one of
    them is taken back alone, and a rewind past them leaves them standing."""

    alone = independent + (DuelNoted, DuelSeatTakenOver)

    def carries(target: Any, later: list[tuple[int, Any]]) -> list[int]:
        if isinstance(target, alone):
            return []
        return [version for version, ev in later if not isinstance(ev, alone)]

    return carries


def ending_problems(state: dict, supported: dict[str, Any]) -> list[str]:
    """Invariants every duel shares: an outcome's results match its winner, and a ruleset's own
    ending (a ``DuelWon``/``DuelDrawn`` word in ``supported``) is one the state supports:
    ``supported[ending](state, winner)`` says why not, or "" when it holds."""
    outcome = state.get("outcome")
    if not outcome:
        return []
    problems = []
    winner, ending = outcome["winner"], outcome["ending"]
    for d in state["duelists"]:
        if winner:
            expected = "win" if d["side"] == winner else "loss"
        else:
            expected = "abandoned" if ending == "abandoned" else "draw"
        if outcome["results"].get(d["id"]) != expected:
            problems.append(f"{d['name']}'s result does not follow from the winner")
    check = supported.get(ending)
    why = check(state, winner) if check else ""
    if why:
        problems.append(f"the duel ended by {ending} but {why}")
    return problems
