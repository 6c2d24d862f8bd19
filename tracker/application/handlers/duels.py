"""Commands on duels: starting one from a session, and every ruleset's own commands."""

from __future__ import annotations

import dataclasses

from tracker import rules
from tracker.application.commands import AdjustDuelTrack, DuelCommand, NoteDuel, StartDuel, TakeOverSeat, expected
from tracker.domain.errors import NotFound
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import AdjustTrackInDuel, DuelNoted, DuelSeatTakenOver, decide_adjustment
from tracker.rules.fields import parse_command
from tracker.rules.text import t
from tracker.application.services import Outcome, Service
from tracker.eventstore.store import write_transaction


def start_duel(service: Service, command: StartDuel) -> Outcome:
    """Start a duel in a session (today's, planned on the fly, when none is named), its ruleset
    deciding its first events."""
    if not command.session_id:
        with write_transaction(service.db):  # the session is planned only if the duel starts
            session_id = todays_session(service, command.campaign_id)
            return start_duel(service, dataclasses.replace(command, session_id=session_id))
    session = service.existing(f"session-{command.session_id}")
    module = rules.get(command.ruleset)
    duelists = _duelists(service, module, session["campaign_id"], command.duelists)
    duel_id = service.context.new_id()
    header = {
        "duel_id": duel_id,
        "campaign_id": session["campaign_id"],
        "session_id": command.session_id,
        "stakes": command.stakes,
        "judge": command.judge,
        "challenger": command.challenger,
    }
    # What the campaign keeps for every duel of the ruleset (an insult table, say) is the
    # set-up's default, whether the duel comes from the form (which shows it) or from the API.
    campaign = service.existing(f"campaign-{session['campaign_id']}")
    setup = {**campaign.get("rules", {}).get(module.NAME, {}), **command.setup}
    dice = _tray(service, {}, server_roll=True)
    return service.append(
        f"duel-{duel_id}", session["campaign_id"], 0, command,
        lambda _: module.start(header, setup, duelists, dice)
    )


def todays_session(service: Service, campaign_id: str) -> str:
    """The campaign's session dated today, or a new one planned for today (numbered after the last)."""
    service.existing(f"campaign-{campaign_id}")
    today = service.context.now()[:10]
    found = queries.session_on(service.db, campaign_id, today)
    if found:
        return found["id"]
    number = queries.last_session_number(service.db, campaign_id) + 1
    planned = service.handle({"type": "PlanSession", "campaign_id": campaign_id, "number": number, "date": today,
                              "on_the_fly": True})
    return planned.key


def _duelists(service: Service, module, campaign_id: str, chosen: tuple[tuple[str, str], ...]) -> list[dict]:
    """Snapshot each chosen character as the rules need them: stats and current points."""
    duelists, errors = [], {}
    for character_id, side in chosen:
        row = queries.character_in(service.db, campaign_id, character_id)
        if row is None:
            errors[f"side_{side}"] = t("choose a character of this campaign")
            continue
        if any(d["id"] == row["id"] for d in duelists):  # the read models hold one row per duelist
            errors[f"side_{side}"] = t("a character can take only one place in a duel")
            continue
        stats = row["stats"].get(module.NAME)
        duelists.append(
            {
                "id": row["id"],
                "name": row["name"],
                "side": side,
                "rank": row["rank"],
                "stats": stats,
                "current": _current(service, module, row["id"], stats),
            }
        )
    for side in ("a", "b"):
        if not any(d["side"] == side for d in duelists) and f"side_{side}" not in errors:
            errors[f"side_{side}"] = t("choose a duelist")
    if errors:
        raise Invalid(errors)
    return duelists


def _current(service: Service, module, character_id: str, stats: dict | None) -> dict:
    """Each track's current value: its maximum less the running total of persisting wounds."""
    lost = queries.lost_points(service.db, character_id)
    # Never above the maximum: a wound healed by a rest and retracted later gives nothing back twice.
    return {
        track["track"]: (stats or {}).get(track["max_stat"], 0) - max(lost.get(track["track"], 0) if track["persists"] else 0, 0)
        for track in module.TRACKS
    }


def duel_command(service: Service, command: DuelCommand) -> Outcome:
    """Run one of a duel's own commands through its ruleset, with typed or server dice."""
    version, state = service.state_of(f"duel-{command.duel_id}")
    if state is None:
        raise NotFound(t("no such duel"))
    module = rules.get(state["ruleset"])
    cls = module.COMMANDS.get(command.action)
    if cls is None:
        raise Invalid({"type": t("{ruleset} duels have no command {command}", ruleset=module.TITLE, command=repr(command.action))})
    parsed = parse_command(cls, command.fields)
    typed = {name[5:]: value for name, value in vars(parsed).items() if name.startswith("dice_") and value}
    dice = _tray(service, typed, server_roll=bool(getattr(parsed, "server_roll", False)))

    def decide(current: dict | None) -> list:
        events = module.decide(current, parsed, dice)
        extra = dice.leftover()
        if extra:
            raise Refused(
                t("more dice were typed than the rules used: {dice}",
                  dice="; ".join(f"{who}: {' '.join(map(str, v))}" for who, v in extra.items())),
                field=f"dice_{next(iter(extra))}",
            )
        return events

    # A sealed choice names the turn it is for instead: two seats choosing at once must not conflict.
    version = None if getattr(cls, "ANY_VERSION", False) else expected(command.fields)
    return service.append(f"duel-{command.duel_id}", state["campaign_id"], version, command, decide)


def note_duel(service: Service, command: NoteDuel) -> Outcome:
    """Attach the GM's note to a duel, or to one moment of it (an event of its stream)."""
    version, state = service.state_of(f"duel-{command.duel_id}")
    if state is None:
        raise NotFound(t("no such duel"))
    if command.about > version:  # events are only ever added: one that exists now always will
        raise Invalid({"about": t("the duel has no event {number} (it has {count})", number=command.about, count=version)})

    def decide(current: dict | None) -> list:
        return [DuelNoted(text=command.text, about=command.about, public=command.public)]

    # No expected version: a note stands on nothing, so no form is ever stale for it.
    return service.append(f"duel-{command.duel_id}", state["campaign_id"], None, command, decide)


def take_over_seat(service: Service, command: TakeOverSeat) -> Outcome:
    """Hand a side a player's seat plays back to the GM (a player who left): an event the seat
    shows, so the player reads why their taps stopped."""
    _, state = service.state_of(f"duel-{command.duel_id}")
    if state is None:
        raise NotFound(t("no such duel"))

    def decide(current: dict) -> list:
        if current.get("outcome"):
            raise Refused(t("this duel is over"), field="side")
        if command.side in current.get("taken_over", ()):
            raise Refused(t("the GM already plays this side"), field="side")
        seated = {row["character_id"] for row in queries.seats_of_session(service.db, current["session_id"])}
        if not any(d["side"] == command.side and d["id"] in seated for d in current["duelists"]):
            raise Refused(t("no player's seat plays this side: the GM already makes its choices"), field="side")
        return [DuelSeatTakenOver(side=command.side)]

    # Read and decided in the write transaction; no form is stale for it (it stands on no rule).
    return service.append(f"duel-{command.duel_id}", state["campaign_id"], None, command, decide)


def adjust_duel_track(service: Service, command: AdjustDuelTrack) -> Outcome:
    """Correct a duelist's track in a running duel, among the tracks its ruleset offers."""
    version, state = service.state_of(f"duel-{command.duel_id}")
    if state is None:
        raise NotFound(t("no such duel"))
    module = rules.get(state["ruleset"])
    asked = AdjustTrackInDuel(character=command.character_id, track=command.track, amount=command.amount,
                              reason=command.reason)

    def decide(current: dict | None) -> list:
        return decide_adjustment(current, module.adjustable_tracks(current), asked)

    return service.append(f"duel-{command.duel_id}", state["campaign_id"], command.expected_version, command, decide)


def _tray(service: Service, typed: dict, server_roll: bool) -> Dice:
    """The dice for a command: typed values first, then the server's roller when allowed."""
    rng = service.context.rng
    return Dice(
        typed,
        source=(lambda sides: rng.randint(1, sides)) if server_roll else None,
        shuffle=lambda n: rng.sample(range(n), n),
    )
