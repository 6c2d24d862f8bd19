"""Which events a GM may retract or restore, and the events that do it."""

from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.text import t
from tracker.domain.workspace.events import EventRetracted, RetractionRestored


UNRETRACTABLE = {"CampaignCreated", "CharacterCreated", "SessionPlanned", "DuelStarted", "EventRetracted",
                 "RetractionRestored",
                 "GMRegistered", "CoGMAdded", "CoGMRemoved", "PlayerLinkIssued", "PlayerLinkRevoked",
                 "ApiTokenIssued", "ApiTokenRevoked", "GMPasswordChanged", "GMLoggedOut",
                 "GMSessionsEnded", "CampaignOwnerAssigned"}


def decide_retraction(target_type: str, target_version: int, decided_with: list[tuple[int, str]],
                      carried: list[int], retracted: set[int], reason: str) -> list:
    """Retract one event of a stream, with every event that goes with it, or refuse.

    ``decided_with`` holds (version, type) of every event the same command appended (the target
    among them); ``carried`` the versions of the later events the stream's rules say stand on it."""
    if target_version in retracted:
        raise Refused(t("that event is already retracted"))
    if target_type in UNRETRACTABLE:
        what = {"EventRetracted": t("a retraction (restore it instead)"),
                "RetractionRestored": t("a restore (retract the event again instead)"),
                "DuelStarted": t("the start of a duel (abandon the duel instead)")}
        raise Refused(t("cannot retract {what}: later events stand on it",
                        what=what.get(target_type, t("a creation event"))))
    if any(kind == "DuelStarted" for _, kind in decided_with):
        raise Refused(t("this was decided with the start of the duel (the opening shuffle and deal): "
                        "abandon the duel and start it again instead"))
    taken = {v for v, _ in decided_with if v not in retracted} | set(carried)
    consequences = tuple(sorted(taken - {target_version}))
    return [EventRetracted(version=target_version, retracted_type=target_type, reason=reason,
                           consequences=consequences, scope="rewind" if carried else "event")]


def decide_restore(retraction_version: int, retraction_type: str, standing_after: list[int], taken: set[int],
                   reason: str) -> list:
    """Restore a retraction, or refuse: only a retraction still in force, and only while nothing
    standing was logged after it in its stream, so the stream returns to a state it really had
    (the later events were decided without what it took back)."""
    if retraction_type != "EventRetracted":
        raise Refused(t("only a retraction can be restored"))
    if retraction_version not in taken:
        raise Refused(t("this retraction was already restored"))
    if standing_after:
        raise Refused(t("later events were logged after this retraction, on the state it left: "
                        "restoring it would mix two pasts. Retract those first, then restore it"))
    return [RetractionRestored(version=retraction_version, reason=reason)]
