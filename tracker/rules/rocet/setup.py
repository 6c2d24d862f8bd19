"""How a Rocèt duel is set up: the variant, deck, card mode, weapons, and who may duel."""
from __future__ import annotations

from typing import Mapping

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.fields import Field, parse_fields
from tracker.rules.duel import DuelStarted, SIDES, other
from tracker.rules.rocet.events import RocetCardsDrawn, RocetDeckShuffled
from tracker.rules.rocet.terms import A_MUERTE_CLOCK, HAND, KINDS, NAME, WEAPON_TYPES, deck_cards
from tracker.rules.text import join, t

MAY_DUEL = ("pj", "villano", "elite", "campeon")
DECKS = {"shared": 36, "own": 18}

SETUP = (
    Field("kind", t("Variant"), "choice", default="relojes", choices=tuple(KINDS.items())),
    Field("clock_size", t("Clock intervals (Clocks variant)"), "int", default=6, minimum=1, maximum=24,
          help=t("Both clocks are equal; 6 unless agreed otherwise. ¡A muerte! always uses 4.")),
    Field("meter_steps", t("Superiority steps to each end (Superioridad)"), "int", default=6,
          minimum=1, maximum=24, help=t("[assumed] The meter starts in the middle; reaching your end wins.")),
    Field("deck", t("Deck"), "choice", default="shared",
          choices=(("shared", t("One 36-card deck shared")), ("own", t("An 18-card deck each")))),
    Field("cards", t("Cards"), "choice", default="virtual",
          choices=(("virtual", t("Virtual: the server shuffles, deals and keeps the hands")),
                   ("physical", t("Physical: real cards, the GM records each one revealed")))),
    Field("choices", t("Who chooses the cards"), "choice", default="gm",
          choices=(("gm", t("The GM records both cards as they are revealed")),
                   ("sealed", t("Each side in secret: players on their seats, NPCs on the GM's page"))),
          help=t("Sealed: nobody, the GM included, sees a card before both are chosen.")),
    Field("reveal", t("Sealed cards are turned over"), "choice", default="auto",
          choices=(("auto", t("as soon as both sides have chosen")), ("gm", t("when the GM presses Reveal")))),
    Field("dice_by", t("Who rolls when sealed cards are turned over"), "choice", default="server",
          choices=(("server", t("The server rolls at the reveal")),
                   ("seats", t("Each seat types its own dice with its card")),
                   ("table", t("The GM types the table's dice and reveals")))),
    Field("own_weapons", t("Both agreed to pick their own weapon"), "bool", default=False,
          help=t("Otherwise the challenged side picks the weapon type for both.")),
    Field("weapon_type", t("Weapon type (picked by the challenged side)"), "choice", required=False,
          choices=tuple((kind, kind) for kind in WEAPON_TYPES)),
    Field("weapon_a", t("Side A's weapon (name on the sheet)"), "text", required=False, maximum=80,
          help=t("Blank: the only eligible weapon on the sheet")),
    Field("weapon_b", t("Side B's weapon (name on the sheet)"), "text", required=False, maximum=80,
          help=t("Blank: the only eligible weapon on the sheet")),
    Field("reshuffle", t("Shuffle the discards into a new pile when it runs out"), "bool", default=True,
          help=t("[assumed] Otherwise nobody draws once the pile is empty.")),
    Field("clock_floor", t("A clock never goes below 0"), "bool", default=True,
          help=t("[assumed] Otherwise Insulto can leave a clock in debt.")),
    Field("restart", t("¡A muerte!: a completed clock"), "choice", default="zero",
          choices=(("zero", t("starts again from 0")), ("carry", t("keeps the intervals past its end"))),
          help=t("[assumed]")),
)


def start(header: dict, setup: Mapping, duelists: list[dict], dice: Dice) -> list:
    """The opening events: DuelStarted, then the deck(s) and the first hands of three."""
    settings = parse_fields(SETUP, setup)
    if settings["kind"] == "a_muerte":  # its clocks are always 4 (the seed): record the size in force
        settings["clock_size"] = A_MUERTE_CLOCK
    by_side = _check_duelists(duelists)
    challenged = other(header.get("challenger")) if header.get("challenger") in SIDES else ""
    armed = []
    for side in SIDES:
        weapon = _weapon(by_side[side], settings, challenged)
        settings[f"weapon_{side}"] = weapon["name"]
        armed.append(dict(by_side[side], weapon=weapon))
    started = DuelStarted(
        duel_id=header["duel_id"], campaign_id=header["campaign_id"],
        session_id=header["session_id"], ruleset=NAME, kind=settings["kind"],
        duelists=tuple(armed), settings=settings, challenger=header.get("challenger") or "",
        stakes=header.get("stakes") or "", judge=header.get("judge") or "")
    return [started] + _deal(settings, dice)


def _check_duelists(duelists: list[dict]) -> dict[str, dict]:
    if len(duelists) != 2 or sorted(d["side"] for d in duelists) != ["a", "b"]:
        raise Refused(t("a Rocèt duel is fought by exactly two duelists, one on each side"))
    a, b = sorted(duelists, key=lambda d: d["side"])
    if a["id"] == b["id"]:
        raise Refused(t("{name} cannot duel themselves: pick two different characters", name=a["name"]),
                      field="duelist_b")
    for d in (a, b):
        if d["rank"] not in MAY_DUEL:
            raise Refused(t("{name} may not duel: only player characters and Villano, Élite or "
                            "Campeón NPCs fight Rocèt duels (rank: {rank})", name=d["name"], rank=d["rank"]),
                          field=f"duelist_{d['side']}")
        if not d.get("stats"):
            raise Refused(t("{name} has no Rocèt stats block on their sheet (DES, INT, PG, PM, weapons)",
                            name=d["name"]), field=f"duelist_{d['side']}")
    return {"a": a, "b": b}


def _weapon(duelist: dict, settings: dict, challenged: str) -> dict:
    """The duelist's weapon for this duel, from their sheet, or Refused saying why not."""
    field = f"weapon_{duelist['side']}"
    name, wanted = settings[field], settings["weapon_type"]
    if not settings["own_weapons"] and not wanted:
        if challenged:
            raise Refused(t("the challenged side (side {side}) picks the weapon type for both (Espada or Daga), "
                            "unless both agree to pick their own", side=challenged.upper()), field="weapon_type")
        raise Refused(t("the challenged side picks the weapon type for both (Espada or Daga), "
                        "unless both agree to pick their own"), field="weapon_type")
    allowed = (wanted,) if not settings["own_weapons"] else WEAPON_TYPES
    weapons = duelist["stats"].get("weapons") or []
    listing = join(f"{w['name']} ({w['type']})" for w in weapons) if weapons else t("none")
    if name:
        found = [w for w in weapons if w["name"].lower() == name.lower()]
        if not found:
            raise Refused(t("{name}'s sheet has no weapon called “{weapon}” (weapons: {listing})",
                            name=duelist["name"], weapon=name, listing=listing), field=field)
        weapon = found[0]
    else:
        eligible = [w for w in weapons if w["type"] in allowed]
        if len(eligible) != 1:
            kinds = allowed[0] if len(allowed) == 1 else t("{first} or {second}", first=allowed[0], second=allowed[1])
            raise Refused(t("choose {name}'s weapon: the sheet has {count} of type {kinds} (weapons: {listing})",
                            name=duelist["name"], count=len(eligible), kinds=kinds, listing=listing), field=field)
        weapon = eligible[0]
    if weapon["type"] not in WEAPON_TYPES:
        raise Refused(t("{name}'s {weapon} is a {type}: only an Espada or a Daga may be used in a duel",
                        name=duelist["name"], weapon=weapon["name"], type=weapon["type"]), field=field)
    if weapon["type"] not in allowed:
        raise Refused(t("{name}'s {weapon} is a {type}, but the challenged side picked {wanted} for both (unless "
                        "both agree to pick their own)", name=duelist["name"], weapon=weapon["name"],
                        type=weapon["type"], wanted=wanted), field=field)
    return dict(weapon)


def _deal(settings: dict, dice: Dice) -> list:
    size = DECKS[settings["deck"]]
    decks = ("shared",) if settings["deck"] == "shared" else SIDES
    events, piles = [], {}
    for deck in decks:
        if settings["cards"] == "virtual":
            order = dice.permutation(size)
            fresh = deck_cards(size)
            piles[deck] = [fresh[i] for i in order]
            events.append(RocetDeckShuffled(deck=deck, count=size, order=tuple(order),
                                            cards=tuple(piles[deck])))
        else:
            events.append(RocetDeckShuffled(deck=deck, count=size))
    for side in SIDES:
        deck = "shared" if settings["deck"] == "shared" else side
        if settings["cards"] == "virtual":
            hand, piles[deck] = piles[deck][:HAND], piles[deck][HAND:]
            events.append(RocetCardsDrawn(side=side, count=HAND, cards=tuple(hand)))
        else:
            events.append(RocetCardsDrawn(side=side, count=HAND))
    return events


# --- the set-up form, narrowed to the variant chosen --------------------------------------------

# Who chooses (the GM, or each side sealed on its seat), when sealed cards turn and who rolls: a
# GM starting a duel for players on phones sets these here, and a campaign keeps its own defaults.
SEATING = ("choices", "reveal", "dice_by")
COMMON_FIELDS = ("kind", "deck", "cards", "own_weapons", "weapon_type", "weapon_a", "weapon_b", "reshuffle") + SEATING
KIND_FIELDS = {"relojes": ("clock_size", "clock_floor"), "primera_sangre": (),
               "superioridad": ("meter_steps",), "a_muerte": ("restart", "clock_floor")}


def setup_fields(kind: str) -> tuple[Field, ...]:
    """The set-up fields that matter in this variant (the others keep their defaults)."""
    wanted = COMMON_FIELDS + KIND_FIELDS.get(kind, ())
    return tuple(f for f in SETUP if f.name in wanted)


def setup_defaults(kind: str, sheets: Mapping[str, dict | None]) -> dict:
    """Each side's first Espada or Daga, and its type as the weapon type (the challenged side,
    B unless said otherwise, picks it; the GM changes it if they agreed otherwise)."""
    defaults = {}
    for side in SIDES:
        eligible = [w for w in ((sheets.get(side) or {}).get("weapons") or []) if w["type"] in WEAPON_TYPES]
        if eligible:
            defaults[f"weapon_{side}"] = eligible[0]["name"]
            if side == "b":
                defaults["weapon_type"] = eligible[0]["type"]
    return defaults
