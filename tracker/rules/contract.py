"""The face every ruleset shows the core, declared once: the ``Ruleset`` protocol, the sample
duels each brings for tests and benchmarks, and the small records its history hooks return.

The core (services, read models, recaps, web pages) asks a ruleset only through these names
and never names a ruleset itself; ``tracker.rules.register`` refuses a module that lacks one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from tracker.rules.dice import Dice
from tracker.rules.fields import Field as FormField
from tracker.rules.text import Text


@dataclass(frozen=True)
class Fact:
    """One thing a duelist did that the statistics count: a card laid, an insult tried, a skill
    chosen for initiative. ``kind`` names the statistic it feeds (see ``Statistic``)."""

    kind: str
    character: str
    subject: str
    round: int = 0
    won: bool = False  # won its turn, hit, won initiative: the statistic's "won" column
    amount: int = 0  # damage dealt by it, when the statistic counts damage


@dataclass(frozen=True)
class HistoryFacts:
    """What a duel leaves in the history besides its outcome: how long it ran and its facts."""

    turns: int
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True)
class Statistic:
    """One statistics section of a ruleset: its facts of ``kind`` counted by subject.

    Every row has ``name``, ``used``, ``won`` and ``rate`` (won per used, in %); ``sums`` adds
    columns, row key -> summed fact column (``amount``, or ``duel_won``: the duelist won the duel).
    A fact's subject that is a key (PF2e's ``nature``) is shown by its name in ``names``.
    """

    kind: str
    sums: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str | Text] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Both end up in the SQL that counts the facts: only known columns, only plain names.
        unknown = set(self.sums.values()) - SUMMABLE
        if unknown:
            raise ValueError(f"a statistic sums only {sorted(SUMMABLE)}, not {sorted(unknown)}")
        if not all(name.isidentifier() for name in self.sums):
            raise ValueError(f"a statistic's column names must be plain names: {sorted(self.sums)}")


SUMMABLE = frozenset({"amount", "duel_won"})


@dataclass(frozen=True)
class Step:
    """Where one command of a duel belongs, for time travel: its round (a ruleset whose rounds
    are single turns, such as Rocèt's, names the turn here) and whose turn within it ("" when
    the round is the turn, or for what happens between turns)."""

    round: str
    turn: str = ""


@dataclass(frozen=True)
class Headline:
    """What a recap's headline says of a duel, as facts the ruleset reads from its own events:
    each a short sentence or "" when it has none (never a secret: players read it too)."""

    decisive: str = ""  # the turn that decided it
    biggest: str = ""  # the biggest hit
    criticals: tuple[str, ...] = ()  # critical successes and fumbles, each in a few words
    best_line: str = ""  # the best line of a war of words


@dataclass(frozen=True)
class Recovery:
    """One way a character recovers between duels under a ruleset: a rest, a treatment.

    ``rule`` is the rule in one line, marked [base] or [assumed] as the rules page marks it (the
    GM sees it beside the button); ``fields`` what the GM enters (a check's modifier, typed dice)."""

    label: str
    rule: str
    fields: tuple[FormField, ...] = ()


@dataclass(frozen=True)
class Recovered:
    """What a recovery did, decided once and stored in its event: points per track (negative
    when a treatment went wrong), every die it rolled, and the check's degree when it had one."""

    changes: Mapping[str, int]
    rolls: tuple[int, ...] = ()
    result: str = ""


@dataclass(frozen=True)
class RecoveryTimes:
    """The log's times a recovery may be ruled by, handed to the pure rule as data (it reads no
    clock): for each kind of recovery, the seconds from the record of the character's latest
    standing one to the moment this one would be recorded at. A kind never used is absent."""

    waited: Mapping[str, float] = field(default_factory=dict)


@runtime_checkable
class Samples(Protocol):
    """Sample duels of a ruleset, for the conformance test, the fuzz and crash tests and the benches."""

    DUELISTS: Sequence[Mapping[str, Any]]  # two character sheets (CreateCharacter fields), sides a and b
    SETUPS: Sequence[Mapping[str, Any]]  # set-ups that start a duel between them; the first is the usual one

    def scripted(self, ids: Mapping[str, str]) -> tuple[Mapping[str, Any], list[dict]]:
        """A set-up and the commands of a short duel with every die typed (``ids``: character by side)."""


@runtime_checkable
class Ruleset(Protocol):
    """What the core asks of a ruleset module.

    Every word it gives a person to read (titles, labels, log lines, refusals, progress,
    assumptions, headlines) is a ``tracker.rules.text.Text``: a message id with its values, read in
    the reader's language when rendered (``str``), from the ruleset's own catalog."""

    NAME: str  # stored in DuelStarted
    TITLE: Text
    KINDS: Mapping[str, Text]  # kind -> label
    STATS: Sequence[FormField]  # the character stats block it needs
    TRACKS: Sequence[Mapping[str, Any]]  # {"track", "label", "max_stat", "persists"}
    SETUP: Sequence[FormField]  # the duel set-up form
    COMMANDS: Mapping[str, type]  # command name -> command class (with its FIELDS)
    TURNS_LABEL: Text  # what its duels count: "turns", "rounds"
    GAME_TERMS: tuple[str, ...]  # words of the game every language shows as they are (cards, stats, skills)
    HISTORY_EVENTS: tuple[str, ...]  # the event types ``history_facts`` reads
    STATISTICS: tuple[Statistic, ...]  # its sections on the statistics and record pages
    HIDDEN_FROM_PLAYERS: tuple[str, ...]  # event types whose log line alone gives a secret away
    GM_DETAILS: Mapping[str, Callable[[dict], str]]  # event type -> the secret its data holds, in words
    RECOVERIES: Mapping[str, Recovery]  # kind -> how it works; every ruleset has a "rest"
    samples: Samples

    def validate_stats(self, raw: Mapping[str, Any]) -> dict: ...

    def start(self, header: dict, setup: Mapping[str, Any], duelists: list[dict], dice: Dice) -> list: ...

    def decide(self, state: dict, command: Any, dice: Dice) -> list: ...

    def evolve(self, state: dict | None, event: Any, at: int) -> dict: ...

    def actions(self, state: dict) -> list[str]: ...

    def legal_actions(self, state: dict, audience: str) -> list[dict]:
        """The legal next actions as data for ``audience`` (``tracker.rules.legal``: ``GM``,
        ``TABLE``…): each ``{"type", "by", "side", "fields"}``, the fields narrowed to the values the
        rules accept now (built with ``legal.offer``). Its types are ``actions(state)`` for the GM;
        the duel page draws its forms from this list and the API answers it. An audience that may
        send nothing gets ``[]``, and never a value that is secret from it (a card in hand)."""

    def describe(self, state: dict, event: Any) -> Text: ...

    def public(self, state: dict) -> dict: ...

    def progress(self, state: dict) -> Text: ...

    def assumptions(self, state: dict) -> list[Text]: ...

    def secrets(self, state: dict) -> list[Text]: ...

    def seen_by(self, state: dict, audience: str) -> dict:
        """The state as one reader may see it ("gm", "seat:a", "seat:b", "display", "recap", "api"):
        the one place a ruleset decides who sees which secret. Every page, fragment and JSON read
        of a duel's state goes through it."""

    def history_facts(self, state: dict, events: list) -> HistoryFacts: ...

    def step_of(self, state: dict, event: Any) -> Step:
        """The round and turn of the command whose first event is ``event``, told from the duel's
        state just before it (never None: the core places the start itself)."""

    def headline(self, state: dict, events: Sequence[tuple[int, Any]]) -> Headline:
        """The recap's headline facts of a duel from its standing (version, event) pairs and its
        state at the end, told only from what the table saw."""

    def recover(self, kind: str, stats: Mapping[str, Any], current: Mapping[str, int],
                settings: Mapping[str, Any], values: Mapping[str, Any], dice: Dice,
                times: RecoveryTimes = RecoveryTimes()) -> Recovered:
        """What the recovery ``kind`` (a key of ``RECOVERIES``) gives a character with these
        ``stats`` and ``current`` points on each persisting track, under the campaign's
        ``settings`` for the ruleset, with the GM's ``values`` (its parsed ``fields``): never past
        a track's maximum, and every die drawn from ``dice`` kept in the answer. ``times`` are the
        log's times, for a rule that waits between two recoveries (a refusal when it is too soon)."""

    def adjustable_tracks(self, state: dict) -> list[dict]:
        """The tracks the GM may correct by hand in this running duel ("I forgot the +2"), each
        ``{"character", "name", "side", "track", "label", "value", "max"}``: the core's
        ``AdjustDuelTrack`` offers these, clamps to ``max`` and refuses to reach 0."""

    def set_track(self, state: dict, character: str, track: str, value: int) -> dict:
        """The state with one of ``adjustable_tracks`` at ``value`` (a new state), for the fold of
        ``DuelTrackAdjusted`` (handed to ``duel.evolver``)."""

    def retraction_carries(self, target: Any, later: Sequence[tuple[int, Any]]) -> Sequence[int]:
        """The versions of the ``later`` (version, event) pairs still standing after the retracted
        command (whose first event is ``target``) that the retraction must take back with it; the
        core takes each of their commands whole. ``duel.whole_suffix`` (the duel rewinds to just
        before the command) unless the ruleset knows better: ``duel.suffix_except`` names events
        nothing stands on (a note), taken back alone and left standing by a rewind."""

    def invariants(self, state: dict) -> list[str]:
        """What a state the rules can reach always satisfies, as the violations in plain language
        (empty when it holds): written once, checked by the property tests after every command and
        retraction. ``evolve`` raises ``ImpossibleHistory`` rather than fold an event the state
        could not have produced, and ``decide`` refuses to produce one."""


# Optional: MAX_PER_SIDE (duelists a side may field; 1 when absent), CAMPAIGN_SETTINGS with
# validate_campaign_settings(raw) (what a campaign keeps for every duel of the ruleset), and
# folded_stats(block) with FOLDED_LABEL (the stats the sheet folds away unless asked, and what
# to call them: PF2e's untrained skills), setup_fields(kind) (the SETUP fields that matter in
# that kind: the set-up form shows only those) and setup_defaults(kind, sheets by side) (what
# the set-up form fills in from the chosen characters' sheets: their weapon).
# Players' seats: SEAT_COMMANDS (command name -> (state, raw fields) -> the side it speaks for: the
# only commands a seat may send, and only for its own side), seat_actions(state, side) (what that
# side's seat may do now) and SEALED (event type -> the fields no reader is shown). A ruleset
# without them has no seat commands: its seats only follow the duel.
# ending_detail(state, event): how a ``DuelWon``/``DuelDrawn`` the ruleset decided came about, told
# from the state before it (a Text), or None to show the event's own ``detail`` (the GM's words).
# The events store facts only, never the sentence; the ruleset hands it to ``duel.evolver`` and
# ``duel.describe_ending`` too.
# count_turns(n): how long a duel lasted in words, with the language's plural ("1 turn", "3 rounds");
# without it a reader says ``n`` and ``TURNS_LABEL``.
# turns_label(kind): what a duel of that kind counts, when kinds count differently (a duel of wits
# counts exchanges, a sword duel rounds); without it every kind counts ``TURNS_LABEL``.
OPTIONAL = ("SEAT_CHOICE_EVENTS", "count_turns", "turns_label", "MAX_PER_SIDE", "CAMPAIGN_SETTINGS", "validate_campaign_settings", "folded_stats", "FOLDED_LABEL",
            "setup_fields", "setup_defaults", "SEAT_COMMANDS", "seat_actions", "SEALED", "ending_detail")


def missing(module: ModuleType) -> list[str]:
    """The names of the interface ``module`` lacks (its samples' included), in declaration order."""
    lacking = [name for name in _members(Ruleset) if not hasattr(module, name)]
    samples = getattr(module, "samples", None)
    if samples is not None:
        lacking += [f"samples.{name}" for name in _members(Samples) if not hasattr(samples, name)]
    if hasattr(module, "CAMPAIGN_SETTINGS") != hasattr(module, "validate_campaign_settings"):
        lacking.append("CAMPAIGN_SETTINGS and validate_campaign_settings (both or neither)")
    return lacking


def _members(protocol: type) -> list[str]:
    own = [name for name in vars(protocol) if not name.startswith("_")]
    return list(protocol.__annotations__) + [name for name in own if name not in protocol.__annotations__]


def within_max(tracks: Sequence[Mapping[str, Any]], stats: Mapping[str, Any], current: Mapping[str, int],
               gains: Mapping[str, int]) -> dict[str, int]:
    """The points each persisting track really regains: what the rule gives, never past the
    track's maximum, and no lower than 0 for a loss (a track never goes below 0)."""
    changes = {}
    for track in tracks:
        name = track["track"]
        if not track["persists"] or name not in gains:
            continue
        maximum, now = stats.get(track["max_stat"], 0), current.get(name, 0)
        wanted = gains[name]
        changes[name] = max(min(wanted, maximum - now), -now) if wanted >= 0 else max(wanted, -now)
    return changes
