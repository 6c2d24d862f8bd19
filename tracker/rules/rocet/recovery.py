"""How a Rocèt character recovers between duels: Fabula Ultima's rest."""
from __future__ import annotations

from tracker.rules.contract import Recovered, Recovery, within_max
from tracker.rules.rocet.sheet import TRACKS
from tracker.rules.text import t

RECOVERIES = {
    "rest": Recovery(t("Rest"), t("[base] Fabula Ultima: a rest (a night's sleep, an inn) restores all PG and PM. "
                                  "[assumed] Nothing else is restored between two duels unless the GM adjusts a "
                                  "track.")),
}


def recover(kind, stats, current, settings, values, dice, times=None) -> Recovered:
    """A rest: every PG and PM back."""
    return Recovered(within_max(TRACKS, stats, current, {"PG": stats["pg_max"], "PM": stats["pm_max"]}))
