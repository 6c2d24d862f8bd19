"""What every duel shares, whatever its ruleset: how it starts, how it ends, its wounds.

A duel stream opens with ``DuelStarted``, which snapshots the duelists (names, ranks,
stats and current points at the start), so the rules never read another stream.
Rulesets declare a winner with ``DuelWon`` or ``DuelDrawn``; the GM may end any duel
with a yield, a disqualification or by abandoning it.


A facade: the vocabulary is in duel_vocabulary.py, the flow in duel_flow.py."""
from __future__ import annotations

from tracker.rules.duel_vocabulary import (  # noqa: F401
    ADJUST_FALLS, Abandon, AdjustTrackInDuel, Disqualify, DuelAbandoned, DuelDisqualified, DuelDrawn,
    DuelNoted, DuelSeatTakenOver, DuelStarted, DuelTrackAdjusted, DuelWon, DuelYielded, ENDING_COMMANDS,
    ENDING_EVENTS, ENDING_LABELS, SIDES, SIDE_CHOICES, Yield, detail_was_a_sentence,
)
from tracker.rules.duel_flow import (  # noqa: F401
    Adjustable, Describer, EndingCheck, EndingDetail, Handler, Mutator, Resulter, Started, TrackSetter,
    adjusted, adjusted_by, adjustment_line, chosen_on_seats, decide_adjustment, decide_ending, decider,
    describe_ending, ending_label, ending_problems, evolve_ending, evolver, fields_of, finish, handled_by,
    impossible, initial, name_endings, names, noted, other, require_running, side_of, suffix_except,
    taken_over, told_detail, whole_suffix, wound,
)
