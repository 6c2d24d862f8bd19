"""What a pirate duel shows: the legal actions, the public state, its progress, warnings and assumptions."""
from __future__ import annotations

from .fold import fallen
from .terms import ACTION, VERB, round_name
from tracker.rules.text import Text, join, t

ENDINGS = ["MarkWorthiness", "Yield", "Disqualify", "Abandon"]


def actions(state: dict) -> list[str]:
    """The command names legal now: a fall to rule on, initiative, or the next strike."""
    if state["outcome"]:
        return []
    if fallen(state):
        return ["RecordFall"] + ENDINGS
    if state["phase"] == "initiative":
        return _before_the_exchange(state) + ENDINGS
    if _sealed(state):  # an exchange a rewind stopped midway: its sealed insults are thrown, not recorded
        return ["ThrowInsults"] + ENDINGS
    return [ACTION[state["kind"]]] + ENDINGS


def _sealed(state: dict) -> bool:
    return state["kind"] == "wit" and state["settings"].get("choices") == "sealed"


def _before_the_exchange(state: dict) -> list[str]:
    if not _sealed(state):
        return ["RollInitiative"]
    # Both chosen: throwing them comes first (a choice may still be changed, after it).
    return ["ThrowInsults", "ChooseInsult"] if len(state.get("sealed") or {}) == 2 else ["ChooseInsult"]


def seat_actions(state: dict, side: str) -> list[str]:
    """What ``side``'s seat may do now: choose its insult (and line) for the coming exchange."""
    return ["ChooseInsult"] if "ChooseInsult" in actions(state) else []


def public(state: dict) -> dict:
    """Every roll is made in the open; only a sealed insult is not shown (as the table display sees it)."""
    from .secrecy import seen_by

    return seen_by(state, "display")


def warnings(state: dict) -> list[str]:
    """Where the agreed terms can kill a duelist (fixed when the duel started)."""
    return list(state["settings"].get("warnings", []))


def progress(state: dict) -> Text:
    """Where the duel stands, e.g. "Round 2: Lope to attack"."""
    if state["outcome"]:
        return t("Over: {summary}", summary=state["outcome"]["summary"])
    side = fallen(state)
    if side:
        return t("{round}: {name} is at 0 PV", round=round_name(state, state["round"]),
                 name=state["fighters"][side]["name"])
    number = state["round"] + 1 if state["phase"] == "initiative" else state["round"]
    where = round_name(state, number)
    if state["sudden_death"]:
        where = t("{round} (sudden death)", round=where)
    if state["phase"] == "initiative":
        return t("{round}: initiative", round=where)
    due = state["order"][state["turn"]]
    return t("{round}: {name} to {verb}", round=where, name=state["fighters"][due]["name"], verb=VERB[state["kind"]])


def assumptions(state: dict) -> list[Text]:
    """Every rule this duel runs under that the source leaves open, with its setting."""
    s = state["settings"]
    kind = s["kind"]
    if kind == "wit":
        both = [t("Each exchange both duelists roll initiative, d20 + Iniciativa; equal totals are "
                  "rerolled by both; the higher acts first.")]
    else:
        both = [t("Each round (exchange) both duelists roll initiative, d20 + Iniciativa; equal totals are "
                  "rerolled by both; the higher acts first.")]
    edge = t("Ventaja and Desventaja roll 2d20 and keep the higher or lower; together they cancel.")
    if kind == "sword":
        fought = {"first_blood": t("Fought to first blood."), "hits": t("Fought to {count} hits.", count=s.get("hits")),
                  "death": t("Fought to the death.")}
        return both + [
            fought[s["sword_victory"]],
            t("An attack is d20 + ATQ against the defender's DEF and hits on a total equal to or higher "
              "than DEF; a hit rolls the weapon's damage against PV. No natural 20 or 1 rules."),
            t("Only a hit that deals damage counts toward first blood or the hits."),
            t("At 0 PV the duel waits for the GM to record the duelist down or dead; in a duel to the death "
              "only death (or a yield, disqualification or abandon) ends it."),
            edge,
        ]
    if kind == "pistol":
        return both + [
            t("Each duelist has {count} shots; both out of shots with no hit is a draw.", count=s["shots"]),
            t("A shot is d20 + ATQ against the target's DEF, hitting on equal or higher; the first hit ends the duel."),
            t("Shots from beyond the pistol's range (distance {distance} paces greater than the range) "
              "are at Desventaja.", distance=s["distance"]),
            t("A hit deals the pistol's damage to PV.") if s["bullet"] == "wounds" else t("A hit deals no PV damage."),
            edge,
        ]
    table = join([t("{name} {to_hit} to hit, {damage}, the insulter takes {backlash} on a miss", name=i["name"],
                    to_hit="%+d" % i["to_hit"], damage=i["damage"], backlash=i["backlash"]) if i["backlash"]
                  else t("{name} {to_hit} to hit, {damage}", name=i["name"], to_hit="%+d" % i["to_hit"],
                         damage=i["damage"])
                  for i in s["insults"]], "; ")
    ending = (t("After {count} exchanges the most damage dealt wins; losing all CAR ends it at once.",
                count=s["exchanges"])
              if s["wit_end"] == "points" else t("Only humiliation (CAR 0) ends it; exchanges are not counted."))
    tie = (t("A tie on points goes to sudden death: more exchanges until one leads after a full exchange.")
           if s["tie"] == "sudden_death" else t("A tie on points is a draw."))
    rules = both + [
        t("In an exchange each duelist insults once, in initiative order."),
        t("An insult is d20 + Comunicación + its modifier against the target's SAB, hitting on equal or "
          "higher; a hit rolls its damage against CAR, which never touches PV."),
        t("Insult table: {table}.", table=table),
        ending,
        t("Points are the damage dealt to the opponent; damage an insulter takes on a miss is not the "
          "opponent's point."),
        edge,
    ]
    if s["wit_end"] == "points":
        rules.insert(5, tie)
    return rules
