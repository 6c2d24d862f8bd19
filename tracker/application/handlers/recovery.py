"""Commands on a character's tracks between duels: a recovery by the rules, the whole party's rest
at the end of a session, and the GM's adjustment by hand.

Each decides from the character's points at that very moment (read inside the write transaction)
and stores what it changed, so the sheet, a rebuild and a retraction all read the same numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from tracker import rules
from tracker.domain import workspace
from tracker.application.commands import AdjustTrack, RecoverCharacter, RestParty
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.rules.contract import RecoveryTimes
from tracker.rules.dice import Dice
from tracker.rules.fields import parse_fields
from tracker.rules.text import t
from tracker.application.services import Outcome, Service
from tracker.eventstore.store import write_transaction


def current_points(service: Service, module, character_id: str, stats: dict) -> dict[str, int]:
    """Each persisting track's points now: its maximum less what the log says was lost and not
    given back (wounds, recoveries, adjustments)."""
    lost = queries.lost_points(service.db, character_id)
    return {track["track"]: stats.get(track["max_stat"], 0) - max(lost.get(track["track"], 0), 0)
            for track in module.TRACKS if track["persists"]}


def _sheet(service: Service, character_id: str, ruleset: str) -> tuple[dict, object, dict]:
    """The character's state, the ruleset and its stats block, or a refusal naming the field."""
    state = service.existing(f"character-{character_id}")
    module = rules.RULESETS.get(ruleset)
    if module is None:
        raise Invalid({"ruleset": t("choose one of {choices}", choices=", ".join(rules.RULESETS))})
    stats = state["stats"].get(module.NAME)
    if stats is None:
        raise Invalid({"ruleset": t("{name} has no {ruleset} sheet", name=state["name"], ruleset=module.TITLE)})
    return state, module, stats


def recovery_times(service: Service, state: dict, module) -> RecoveryTimes:
    """The log's times the ruleset's recoveries may wait on: for each kind, the seconds from the
    record of the character's latest standing one (a retracted one is not in the state's changes)
    to the moment this append is recorded at."""
    latest: dict[str, int] = {}
    for change in state.get("changes", []):
        if change["ruleset"] == module.NAME and change["kind"] != "adjustment":
            latest[change["kind"]] = max(latest.get(change["kind"], 0), change["at"])
    recorded = queries.recorded_times(service.db, f"character-{state['id']}", latest.values())
    now = dt.datetime.fromisoformat(service.recording_at)
    return RecoveryTimes(waited={kind: (now - dt.datetime.fromisoformat(recorded[version])).total_seconds()
                                 for kind, version in latest.items() if version in recorded})


def _settings(service: Service, campaign_id: str, module) -> dict:
    campaign = service.existing(f"campaign-{campaign_id}")
    return campaign.get("rules", {}).get(module.NAME, {})


def recover_character(service: Service, command: RecoverCharacter) -> Outcome:
    """A character rests, or is treated, by one of their ruleset's recoveries."""
    state, module, stats = _sheet(service, command.character_id, command.ruleset)
    recovery = module.RECOVERIES.get(command.recovery)
    if recovery is None:
        raise Invalid({"recovery": t("{ruleset} knows {recoveries}", ruleset=module.TITLE, recoveries=", ".join(module.RECOVERIES))})
    values = parse_fields(recovery.fields, command.fields)
    typed = {"a": list(values["dice"])} if values.get("dice") else {}
    rng = service.context.rng
    dice = Dice(typed, source=(lambda sides: rng.randint(1, sides)) if values.get("server_roll") else None)
    settings = _settings(service, state["campaign_id"], module)

    def decide(_state) -> list:
        current = current_points(service, module, command.character_id, stats)
        done = module.recover(command.recovery, stats, current, settings, values, dice,
                              times=recovery_times(service, _state or state, module))
        if dice.leftover():
            raise Refused(t("more dice were typed than the rule used"), field="dice")
        return [workspace.CharacterRecovered(ruleset=module.NAME, recovery=command.recovery,
                                             changes=dict(done.changes), rolls=tuple(done.rolls), result=done.result)]

    return service.append(f"character-{command.character_id}", state["campaign_id"], command.expected_version,
                          command, decide)


def adjust_track(service: Service, command: AdjustTrack) -> Outcome:
    """The GM changes one of a character's tracks by hand, with the reason."""
    state, module, stats = _sheet(service, command.character_id, command.ruleset)
    track = next((kept for kept in module.TRACKS if kept["track"] == command.track), None)
    if track is None or not track["persists"]:
        kept = [other["track"] for other in module.TRACKS if other["persists"]]
        raise Invalid({"track": t("choose one of {tracks} (a track the sheet keeps between duels)", tracks=", ".join(kept))})

    def decide(_state) -> list:
        now = current_points(service, module, command.character_id, stats)[command.track]
        maximum = stats.get(track["max_stat"], 0)
        if not 0 <= now + command.amount <= maximum:
            down, up = "%+d" % -now, "%+d" % (maximum - now)
            raise Refused(t("{track} is {now}/{maximum}: it can change by {down} to {up}", track=command.track, now=now,
                            maximum=maximum, down=down, up=up),
                          field="amount")
        return [workspace.TrackAdjusted(ruleset=module.NAME, track=command.track, amount=command.amount,
                                        reason=command.reason)]

    return service.append(f"character-{command.character_id}", state["campaign_id"], command.expected_version,
                          command, decide)


def rest_party(service: Service, command: RestParty) -> Outcome:
    """Every PJ of the session's campaign, and everyone who duelled in the session, rests: one
    rest per ruleset sheet, each on its character's stream, all in one transaction."""
    session = service.existing(f"session-{command.session_id}")
    campaign_id = session["campaign_id"]
    resting = queries.party_of(service.db, campaign_id, command.session_id)
    if not resting:
        raise Refused(t("nobody to rest: the campaign has no PC and nobody duelled in this session"))
    first = None
    with write_transaction(service.db):
        for index, character in enumerate(resting):
            for name in character["stats"]:
                module = rules.RULESETS.get(name)
                if module is None:
                    continue
                # The command id is kept once, with the first rest: a retried command finds it there.
                sent = command if first is None else dataclasses.replace(command, command_id=None)
                outcome = _rest_one(service, sent, character, module, campaign_id)
                if outcome.replayed:
                    return outcome
                first = first or outcome
    if first is None:
        raise Refused(t("nobody to rest: no one in the party has a sheet"))
    return first


def _rest_one(service: Service, command: RestParty, character: dict, module, campaign_id: str) -> Outcome:
    stats = character["stats"][module.NAME]
    settings = _settings(service, campaign_id, module)

    def decide(_state) -> list:
        current = current_points(service, module, character["id"], stats)
        done = module.recover("rest", stats, current, settings, {}, Dice())
        return [workspace.CharacterRecovered(ruleset=module.NAME, recovery="rest", changes=dict(done.changes),
                                             rolls=tuple(done.rolls), result=done.result,
                                             session_id=command.session_id)]

    return service.append(f"character-{character['id']}", campaign_id, None, command, decide)
