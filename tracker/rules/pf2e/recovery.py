"""How a Pathfinder 2e character recovers between duels: a night's rest, and Treat Wounds.

[base] A full night's rest restores HP equal to the Constitution modifier (minimum 1) × level;
[assumed] the campaign may set "a rest restores all HP" (default off). Treat Wounds: Medicine
against DC 15 (or the higher DCs of an expert healer, with their bonus HP): critical success
4d8 HP, success 2d8, critical failure 1d8 damage. [base] The target cannot be treated again for
an hour: told from the log's times (when the last standing treatment was recorded, and now), so a
retracted treatment does not count; [assumed] the campaign may set "Treat Wounds ignores the hour"
(default off) for a table that keeps its own time.
"""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.contract import Recovered, Recovery, RecoveryTimes, within_max
from tracker.rules.fields import Field
from tracker.rules.pf2e.checks import degree
from tracker.rules.pf2e.sheet import TRACKS
from tracker.rules.text import t

REST_SETTING = Field("rest_full_hp", t("A rest restores all HP"), "bool", default=False,
                     help=t("[assumed] off by default: the rules restore Constitution modifier × level"))
IGNORE_HOUR_SETTING = Field("treat_wounds_ignore_hour", t("Treat Wounds ignores the hour"), "bool", default=False,
                            help=t("[assumed] off by default: the rules let a target be treated again only after an "
                                   "hour"))
TREAT_AGAIN_AFTER = 60 * 60  # seconds

# DC -> bonus HP on a success (PF2e Treat Wounds: trained 15, expert 20, master 30, legendary 40).
TREAT_DCS = {15: 0, 20: 10, 30: 30, 40: 50}
TREAT_FIELDS = (
    Field("medicine", t("Healer's Medicine modifier"), "int", minimum=-10, maximum=60),
    Field("dc", t("DC"), "choice", default="15",
          choices=(("15", t("15 (trained)")), ("20", t("20 (expert, +10 HP)")), ("30", t("30 (master, +30 HP)")),
                   ("40", t("40 (legendary, +50 HP)")))),
    Field("dice", t("Dice"), "dice", required=False, help=t("the d20, then the healing d8s, e.g. “14 5 3”")),
    Field("server_roll", t("Let the server roll what was not typed"), "bool", default=False),
)

RECOVERIES = {
    "rest": Recovery(t("Night's rest"), t("[base] A full night's rest restores Constitution modifier (minimum 1) × "
                                          "level HP; [assumed] a campaign setting can make it restore all HP (off by "
                                          "default).")),
    "treat_wounds": Recovery(t("Treat Wounds"), t("[base] Medicine against DC 15: critical success 4d8 HP, success "
                                                  "2d8, critical failure 1d8 damage; once an hour per target ([assumed] a "
                                                  "campaign setting can ignore the hour)."),
                             TREAT_FIELDS),
}


def recover(kind, stats, current, settings, values, dice, times: RecoveryTimes = RecoveryTimes()) -> Recovered:
    """A night's rest, or Treat Wounds with its check and its d8s, an hour after the last one."""
    if kind == "rest":
        gain = stats["hp_max"] if settings.get("rest_full_hp") else max(1, stats.get("con", 0)) * max(1, stats["level"])
        return Recovered(within_max(TRACKS, stats, current, {"HP": gain}))
    if not settings.get("treat_wounds_ignore_hour"):
        _refuse_within_the_hour(times)
    dc = int(values.get("dc") or 15)
    d20 = dice.roll(20, "a", t("the Medicine check"))
    result = degree(d20 + values["medicine"], dc, d20)
    count = {"critical_success": 4, "success": 2, "critical_failure": 1}.get(result, 0)
    d8s = tuple(dice.roll(8, "a", t("Treat Wounds")) for _ in range(count))
    healed = sum(d8s) + (TREAT_DCS[dc] if result in ("success", "critical_success") else 0)
    gain = -healed if result == "critical_failure" else healed
    return Recovered(within_max(TRACKS, stats, current, {"HP": gain}), rolls=(d20, *d8s), result=result)


def _refuse_within_the_hour(times: RecoveryTimes) -> None:
    """Refuse a treatment less than an hour, by the log's times, after the last standing one."""
    waited = times.waited.get("treat_wounds")
    if waited is not None and waited < TREAT_AGAIN_AFTER:
        left = -(-(TREAT_AGAIN_AFTER - waited) // 60)  # whole minutes, rounded up
        raise Refused(t("this character was treated less than an hour ago: Treat Wounds can treat them again in "
                        "{minutes} min (or the campaign's rules may ignore the hour)", minutes=int(left)))
