"""A deliberately tiny ruleset for testing the core without any real duel system:
each turn both sides roll a d6, the higher hits for the difference, first to 3 hits wins.

It speaks as a shipped ruleset does, in Texts (it brings no catalog, so they read in English).
"""
from tracker.domain.events import event
from tracker.rules import duel, legal
from tracker.rules.base import Refused
from tracker.rules.fields import Field, command, parse_fields
from tracker.rules.state import update
from tracker.rules.text import t
from tracker.rules.contract import Fact, Headline, HistoryFacts, Recovered, Recovery, Statistic, Step, within_max

NAME = "coin"
TITLE = t("Coin test duel")
KINDS = {"plain": t("Plain")}
STATS = (Field("hp", t("HP"), "int", minimum=1, maximum=99),)
TRACKS = ({"track": "HP", "label": "HP", "max_stat": "hp", "persists": True},)
SETUP = (Field("hits", t("Hits to win"), "int", default=3, minimum=1, maximum=9),)
TURNS_LABEL = t("turns")
GAME_TERMS = ()
HISTORY_EVENTS = ("CoinTurnPlayed",)
STATISTICS = (Statistic("coin_rolls", sums={"margin": "amount"}),)
HIDDEN_FROM_PLAYERS = ()
GM_DETAILS = {}


def validate_stats(raw):
    return parse_fields(STATS, raw)


@event
class CoinTurnPlayed:
    """Both sides rolled a d6; the higher hit for the difference."""

    roll_a: int
    roll_b: int


@command
class Play:
    FIELDS = (Field("dice_a", t("Side A's d6"), "dice", required=False),
              Field("dice_b", t("Side B's d6"), "dice", required=False),
              Field("server_roll", t("Let the server roll"), "bool", default=False))
    dice_a: tuple = ()
    dice_b: tuple = ()
    server_roll: bool = False


COMMANDS = {"Play": Play, **duel.ENDING_COMMANDS}


def start(header, setup, duelists, dice):
    clean = parse_fields(SETUP, setup)
    for d in duelists:
        if d["stats"] is None:
            raise Refused(f"{d['name']} has no coin stats", field=f"side_{d['side']}")
    return [duel.DuelStarted(ruleset=NAME, kind="plain", settings=clean, duelists=tuple(duelists), **header)]


def decide(state, cmd, dice):
    if isinstance(cmd, Play):
        duel.require_running(state)
        a, b = dice.roll(6, "a"), dice.roll(6, "b")
        events = [CoinTurnPlayed(roll_a=a, roll_b=b)]
        after = evolve(state, events[0], 0)
        for side in "ab":
            if after["hits"][side] >= state["settings"]["hits"]:
                events.append(duel.DuelWon(side=side, ending="hits"))
        return events
    return duel.decide_ending(state, cmd)


def started(ev):
    hp = {d["id"]: (d.get("current") or {}).get("HP", d["stats"]["hp"]) for d in ev.duelists}
    return {**duel.initial(ev), "hits": {"a": 0, "b": 0}, "turns": 0, "hp": hp}


def adjustable_tracks(state):
    """Each duelist's HP (which the coin's hits never spend: only the GM's adjustments move it)."""
    return [{"character": d["id"], "name": d["name"], "side": d["side"], "track": "HP", "label": "HP",
             "value": state["hp"][d["id"]], "max": d["stats"]["hp"]} for d in state["duelists"]]


def set_track(state, character, track, value):
    return update(state, hp={**state["hp"], character: value})


def mutate(ev, state, at):
    if not isinstance(ev, CoinTurnPlayed):
        raise TypeError(type(ev).__name__)
    state = update(state, turns=state["turns"] + 1)
    if ev.roll_a != ev.roll_b:
        winner = "a" if ev.roll_a > ev.roll_b else "b"
        loser = duel.side_of(state, duel.other(winner))[0]
        state = update(state, hits={**state["hits"], winner: state["hits"][winner] + 1})
        state = duel.wound(state, loser["id"], "HP", abs(ev.roll_a - ev.roll_b), at, "coin hit")
    return state


def actions(state):
    return [] if state["outcome"] else list(COMMANDS)


def legal_actions(state, audience):
    """Every command while the duel runs, for the GM only."""
    if audience != legal.GM:
        return []
    return [legal.offer(COMMANDS[name], name) for name in actions(state)]


def result(state, ev):
    """Both rolls and who hit for how much."""
    winner = "a" if ev.roll_a > ev.roll_b else "b" if ev.roll_b > ev.roll_a else None
    return duel.fields_of(ev, hit_by=winner, damage=abs(ev.roll_a - ev.roll_b))


def describe(state, ev):
    if isinstance(ev, duel.DuelStarted):
        return t("Coin duel started.")
    if isinstance(ev, CoinTurnPlayed):
        return t("Turn {turn}: {a} vs {b}.", turn=state["turns"] + 1, a=ev.roll_a, b=ev.roll_b)
    return duel.describe_ending(state, ev) or type(ev).__name__


def public(state):
    return state


def assumptions(state):
    return [t("First to {hits} hits wins (a test rule).", hits=state["settings"]["hits"])]


def progress(state):
    return t("Turn {turn}", turn=state["turns"])


# A hit, or the win, stands on every turn before it: a retraction rewinds to just before it.
retraction_carries = duel.whole_suffix


ENDINGS = {"hits": lambda s, w: "" if s["hits"][w] >= s["settings"]["hits"] else "the winner lacks the hits"}


def invariants(state):
    """Hits never pass the number that wins, and a win by hits has them."""
    problems = [f"side {side} has {n} hits" for side, n in state["hits"].items()
                if not 0 <= n <= state["settings"]["hits"]]
    return problems + duel.ending_problems(state, ENDINGS)



def secrets(state):
    return []


# A rest gives back 3 HP (a test rule, so a partial recovery is exercised too).
RECOVERIES = {"rest": Recovery(t("Rest"), t("[assumed] A rest gives back 3 HP (a test rule)."))}


def recover(kind, stats, current, settings, values, dice, times=None):
    return Recovered(within_max(TRACKS, stats, current, {"HP": 3}))


def seen_by(state, audience):
    """A coin duel holds no secret: every reader sees the whole state."""
    return state


def history_facts(state, events):
    """Each side's roll, and whether it hit (by how much)."""
    a, b = (duel.side_of(state, side)[0]["id"] for side in "ab")
    facts = [Fact("coin_rolls", who, str(mine), round=turn, won=mine > theirs, amount=max(mine - theirs, 0))
             for turn, ev in enumerate(events, 1)
             for who, mine, theirs in ((a, ev.roll_a, ev.roll_b), (b, ev.roll_b, ev.roll_a))]
    return HistoryFacts(state["turns"], tuple(facts))


def step_of(state, ev):
    """A turn is one command: a new one opens with a roll; an ending belongs to the turn before."""
    if isinstance(ev, CoinTurnPlayed):
        return Step(t("Turn {turn}", turn=state["turns"] + 1))
    return Step(t("Turn {turn}", turn=state["turns"]))


def headline(state, events):
    """The widest margin is the biggest hit; the roll that reached the hits to win decides it."""
    turns = [(n, ev) for n, (_, ev) in enumerate((p for p in events if isinstance(p[1], CoinTurnPlayed)), 1)]
    if not turns:
        return Headline()
    n, widest = max(turns, key=lambda t: abs(t[1].roll_a - t[1].roll_b))
    biggest = f"{abs(widest.roll_a - widest.roll_b)} in turn {n}" if widest.roll_a != widest.roll_b else ""
    sixes = tuple(f"side {side} rolled a 6 in turn {k}" for k, ev in turns
                  for side, roll in (("a", ev.roll_a), ("b", ev.roll_b)) if roll == 6)
    decisive = f"turn {turns[-1][0]}" if state["outcome"] and state["outcome"]["ending"] == "hits" else ""
    return Headline(decisive=decisive, biggest=biggest, criticals=sixes)


class samples:
    """Two coin duellists and a duel of theirs with typed dice."""

    DUELISTS = ({"name": "Heads", "rank": "pj", "stats": {"coin": {"hp": 9}}},
                {"name": "Tails", "rank": "villano", "stats": {"coin": {"hp": 9}}})
    SETUPS = ({"hits": 3}, {"hits": 1})

    @staticmethod
    def scripted(ids):
        return {"hits": 2}, [{"type": "Play", "dice_a": [5], "dice_b": [2]},
                             {"type": "Play", "dice_a": [1], "dice_b": [4]},
                             {"type": "Play", "dice_a": [6], "dice_b": [3]}]


# Built last: it folds with describe and ENDINGS above.
evolve = duel.evolver(started, mutate, describe, ENDINGS, result=result, adjustable=adjustable_tracks,
                      set_track=set_track)
