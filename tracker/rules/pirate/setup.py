"""How a pirate duel is agreed and opened: its terms, and the warnings they call for."""
from __future__ import annotations

from typing import Mapping

from tracker.rules.base import Invalid, Refused, why
from tracker.rules.dice import Dice
from tracker.rules.fields import Field, parse_fields
from tracker.rules.duel import SIDES, DuelStarted

from .rolls import max_damage
from .sheet import DEFAULT_INSULTS, INSULT_CELLS, INSULT_HELP, insult_lines, parse_insults
from .terms import KINDS, NAME
from tracker.rules.text import Text, join, t, tn


SETUP = (
    Field("kind", t("Kind of duel"), "choice", default="sword", choices=tuple(KINDS.items())),
    Field("sword_victory", t("A sword duel is fought to"), "choice", default="first_blood",
          choices=(("first_blood", t("First blood (usual)")), ("hits", t("A number of hits")),
                   ("death", t("The death (rare)")))),
    Field("hits", t("Hits to win (sword duel to hits)"), default=2, minimum=2, maximum=3,
          help=t("2 or 3. More hits means more risk of a death, above all at low PV.")),
    Field("weapon_a", t("Side A's weapon"), "text", required=False, maximum=80,
          help=t("A weapon name from the sheet; blank takes the first sword (or pistol) on it.")),
    Field("weapon_b", t("Side B's weapon"), "text", required=False, maximum=80,
          help=t("A weapon name from the sheet; blank takes the first sword (or pistol) on it.")),
    Field("distance", t("Distance in paces (pistol duel)"), required=False, minimum=1, maximum=500,
          help=t("Agreed before the duel; beyond a pistol's range its shots are at Desventaja.")),
    Field("second_a", t("Side A's second (pistol duel)"), "text", required=False, maximum=80,
          help=t("The person who reloads side A's pistols.")),
    Field("second_b", t("Side B's second (pistol duel)"), "text", required=False, maximum=80,
          help=t("The person who reloads side B's pistols.")),
    Field("shots", t("Shots per duelist (pistol duel)"), default=6, minimum=1, maximum=30,
          help=t("[assumed] When both have fired them all with no hit, the duel is a draw.")),
    Field("bullet", t("A bullet that hits (pistol duel)"), "choice", default="wounds",
          choices=(("wounds", t("Deals the pistol's damage to PV")), ("no_damage", t("Only ends the duel")))),
    Field("wit_end", t("A duelo de labia ends"), "choice", default="points",
          choices=(("points", t("After the agreed exchanges: most damage dealt wins")),
                   ("humiliation", t("Only when one is humiliated (CAR 0)")))),
    Field("exchanges", t("Exchanges (duelo de labia)"), default=3, minimum=1, maximum=20),
    Field("tie", t("A tie on points (duelo de labia)"), "choice", default="sudden_death",
          choices=(("sudden_death", t("Sudden death: more exchanges until one leads")), ("draw", t("A draw")))),
    Field("choices", t("Who chooses the insults (duelo de labia)"), "choice", default="gm",
          choices=(("gm", t("The GM records each insult in turn")),
                   ("sealed", t("Each side in secret before the exchange: players on their seats, NPCs on the "
                                "GM's page"))),
          help=t("Sealed: nobody, the GM included, sees an insult before both have chosen; then the exchange "
                 "is rolled in initiative order.")),
    Field("reveal", t("Sealed insults are thrown"), "choice", default="auto",
          choices=(("auto", t("as soon as both have chosen")), ("gm", t("when the GM presses Throw")))),
    Field("dice_by", t("Who rolls a sealed exchange"), "choice", default="server",
          choices=(("server", t("The server rolls when it is thrown")),
                   ("seats", t("Each seat types its insult's d20 with its choice (the server rolls the rest)")),
                   ("table", t("The GM types the table's dice and throws")))),
    Field("insults", t("Insult table (duelo de labia)"), "weapons", default=insult_lines(DEFAULT_INSULTS),
          columns=("name", "to_hit", "damage", "backlash"), cells=INSULT_CELLS,
          help=INSULT_HELP),
)


def start(header: dict, setup: Mapping, duelists: list[dict], dice: Dice) -> list:
    """Open a pirate duel: DuelStarted with the terms (weapons, seconds, insult table) fixed."""
    clean = parse_fields(SETUP, setup)
    kind = clean["kind"]
    by_side = _one_per_side(duelists)
    for d in duelists:
        if not d.get("stats"):
            raise Refused(t("{name} has no pirate stats on their sheet: fill them in first", name=d["name"]),
                          field="duelists")
    settings: dict = {"kind": kind}
    if kind in ("sword", "pistol"):
        for d in duelists:
            if current_pv(d) <= 0:
                raise Refused(t("{name} is at 0 PV and cannot fight a sword duel", name=d["name"]) if kind == "sword"
                              else t("{name} is at 0 PV and cannot fight a pistol duel", name=d["name"]),
                              field="duelists")
        settings["weapons"] = {side: _weapon(by_side[side], kind, clean[f"weapon_{side}"]) for side in SIDES}
    if kind == "sword":
        settings["sword_victory"] = clean["sword_victory"]
        if clean["sword_victory"] == "hits":
            settings["hits"] = clean["hits"]
    elif kind == "pistol":
        missing = {f: t("is required for a pistol duel") for f in ("distance", "second_a", "second_b") if not clean[f]}
        if missing:
            raise Invalid(missing)
        settings.update(distance=clean["distance"], shots=clean["shots"], bullet=clean["bullet"],
                        seconds={side: clean[f"second_{side}"] for side in SIDES})
    else:
        try:
            insults = parse_insults(clean["insults"])
        except ValueError as problem:
            raise Invalid({"insults": why(problem)}) from None
        settings.update(wit_end=clean["wit_end"], exchanges=clean["exchanges"], tie=clean["tie"], insults=insults)
        if clean["choices"] == "sealed":  # recorded only when chosen: a GM-recorded duel's terms stay as they were
            settings.update(choices="sealed", reveal=clean["reveal"], dice_by=clean["dice_by"])
    return [DuelStarted(duel_id=header["duel_id"], campaign_id=header["campaign_id"],
                        session_id=header["session_id"], ruleset=NAME, kind=kind, settings=settings,
                        duelists=tuple(dict(d) for d in duelists), challenger=header.get("challenger", ""),
                        stakes=header.get("stakes", ""), judge=header.get("judge", ""))]


def current_pv(duelist: dict) -> int:
    return (duelist.get("current") or {}).get("PV", duelist["stats"]["pv"])


def _one_per_side(duelists: list[dict]) -> dict[str, dict]:
    by_side: dict[str, dict] = {}
    for d in duelists:
        if d["side"] in by_side:
            raise Refused(t("a pirate duel is one against one: one duelist per side"), field="duelists")
        by_side[d["side"]] = d
    if set(by_side) != set(SIDES):
        raise Refused(t("a duel needs a duelist on each side"), field="duelists")
    return by_side


def _weapon(duelist: dict, kind: str, wanted: str | None) -> dict:
    """The named weapon, else the first of the duel's kind on the sheet."""
    weapons = [w for w in duelist["stats"].get("weapons") or [] if w["kind"] == kind]
    if wanted:
        named = [w for w in weapons if w["name"].lower() == wanted.lower()]
        if not named:
            held = join(w["name"] for w in weapons) if weapons else t("none")
            if kind == "pistol":
                reason = t("{name} has no pistol called {wanted} (their pistols: {held})", name=duelist["name"],
                           wanted=wanted, held=held)
            else:
                reason = t("{name} has no sword called {wanted} (their swords: {held})", name=duelist["name"],
                           wanted=wanted, held=held)
            raise Refused(reason, field=f"weapon_{duelist['side']}")
        return dict(named[0])
    if not weapons:
        reason = (t("{name} has no pistol on their sheet", name=duelist["name"]) if kind == "pistol"
                  else t("{name} has no sword on their sheet", name=duelist["name"]))
        raise Refused(reason, field=f"weapon_{duelist['side']}")
    return dict(weapons[0])


def warnings_for(settings: dict, by_side: dict[str, dict]) -> list[Text]:
    """Where the agreed hits can take a duelist to 0 PV (the rules warn of deaths at low PV): told
    from the terms and the duelists' PV at the start when the duel is folded, never stored."""
    kind = settings["kind"]
    if kind == "pistol" and settings["bullet"] == "wounds":
        hits = 1
    elif kind == "sword" and settings["sword_victory"] != "death":
        hits = settings.get("hits", 1)
    else:
        return []
    found = []
    for side, opponent in (("a", "b"), ("b", "a")):
        weapon = settings["weapons"][opponent]
        most = max_damage(weapon["damage"]) * hits
        pv = current_pv(by_side[side])
        if most >= pv:
            found.append(tn("{name} has {pv} PV: one hit of {opponent}'s {weapon} ({damage}) can deal up to {most}: "
                            "this duel can kill.",
                            "{name} has {pv} PV: {count} hits of {opponent}'s {weapon} ({damage}) can deal up to "
                            "{most}: this duel can kill.", hits, name=by_side[side]["name"], pv=pv,
                            opponent=by_side[opponent]["name"], weapon=weapon["name"], damage=weapon["damage"],
                            most=most))
    return found


# --- the set-up form, narrowed to the kind of duel chosen --------------------------------------

KIND_FIELDS = {
    "sword": ("kind", "sword_victory", "hits", "weapon_a", "weapon_b"),
    "pistol": ("kind", "weapon_a", "weapon_b", "distance", "second_a", "second_b", "shots", "bullet"),
    "wit": ("kind", "wit_end", "exchanges", "tie", "choices", "reveal", "dice_by", "insults"),
}
# Who chooses the insults (the GM, or each side sealed on its seat), when they are thrown and who
# rolls: only a duelo de labia is played from the seats; a campaign keeps its own defaults.
SEATING = ("choices", "reveal", "dice_by")


def setup_fields(kind: str) -> tuple[Field, ...]:
    """The set-up fields that matter in this kind of duel (the others keep their defaults)."""
    wanted = KIND_FIELDS.get(kind, KIND_FIELDS["sword"])
    return tuple(f for f in SETUP if f.name in wanted)


def setup_defaults(kind: str, sheets: Mapping[str, dict | None]) -> dict:
    """Each side's first weapon of the duel's kind (a sword, a pistol), as the duel would pick it."""
    defaults = {}
    for side in ("a", "b"):
        held = [w for w in ((sheets.get(side) or {}).get("weapons") or []) if w.get("kind") == kind]
        if held:
            defaults[f"weapon_{side}"] = held[0]["name"]
    return defaults
