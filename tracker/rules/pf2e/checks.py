"""The four degrees of success and what a counteract check can counteract."""
from __future__ import annotations

from tracker.rules.text import t

DEGREES = ("critical_failure", "failure", "success", "critical_success")
DEGREE_LABELS = {"critical_failure": t("critical failure"), "failure": t("failure"),
                 "success": t("success"), "critical_success": t("critical success")}
HITS = ("success", "critical_success")


def degree(total: int, dc: int, die: int) -> str:
    """PF2e degree of success: ±10 from the DC, then a natural 20 up a step, a natural 1 down."""
    if total >= dc + 10:
        step = 3
    elif total >= dc:
        step = 2
    elif total > dc - 10:
        step = 1
    else:
        step = 0
    if die == 20:
        step = min(step + 1, 3)
    elif die == 1:
        step = max(step - 1, 0)
    return DEGREES[step]


def counteracts(result: str, counter_rank: int, target_rank: int) -> bool:
    """Critical success: up to 3 ranks higher; success: up to 1 higher; failure: only lower."""
    if result == "critical_success":
        return target_rank <= counter_rank + 3
    if result == "success":
        return target_rank <= counter_rank + 1
    if result == "failure":
        return target_rank < counter_rank
    return False


def attack_penalty(strikes_made: int, agile: bool) -> int:
    """The multiple attack penalty for a turn's next Strike."""
    if strikes_made == 0:
        return 0
    step = 4 if agile else 5
    return -step * min(strikes_made, 2)
