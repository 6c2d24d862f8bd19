"""How a pirate character recovers between duels: a rest, as the campaign's setting says.

The source is silent, so the rest is [assumed] and a campaign setting: all PV by default.
CAR is spent only inside a wit duel and is whole again when that duel ends.
"""
from __future__ import annotations

from tracker.rules.contract import Recovered, Recovery, within_max
from tracker.rules.fields import Field
from tracker.rules.pirate.sheet import TRACKS
from tracker.rules.text import t

REST_CHOICES = (("all", t("All PV")), ("half", t("Half the maximum PV (rounded down)")), ("none", t("Nothing")))
REST_SETTING = Field("rest_restores", t("A rest restores"), "choice", default="all", choices=REST_CHOICES,
                     help=t("[assumed] the rules are silent: all PV unless the campaign says otherwise"))

RECOVERIES = {
    "rest": Recovery(t("Rest"), t("[assumed] A rest restores all PV (a campaign setting); CAR is whole again "
                                  "after every wit duel anyway.")),
}


def recover(kind, stats, current, settings, values, dice, times=None) -> Recovered:
    """A rest: all PV, half of them, or none, as the campaign's setting says."""
    how = settings.get("rest_restores") or REST_SETTING.default
    gain = {"all": stats["pv"], "half": stats["pv"] // 2, "none": 0}[how]
    return Recovered(within_max(TRACKS, stats, current, {"PV": gain}))
