"""Rocèt's vocabulary: the six duel cards, the Ventaja cycle and the opposed 【DES+INT】 roll."""
from __future__ import annotations

from tracker.rules.duel import name_endings
from tracker.rules.text import Text, t

NAME = "rocet"
TITLE = t("Rocèt")
KINDS = {
    "relojes": t("Clocks (first to complete their own clock)"),
    "primera_sangre": t("Primera sangre (first attack won)"),
    "superioridad": t("Superioridad (shared superiority meter)"),
    "a_muerte": t("¡A muerte! (4-interval clocks, to the death)"),
}
# Each variant's short name, as the log's opening line says it.
VARIANT_NAMES = {
    "relojes": t("Clocks"),
    "primera_sangre": t("Primera sangre"),
    "superioridad": t("Superioridad"),
    "a_muerte": t("¡A muerte!"),
}
name_endings({"clock": t("clock"), "first_blood": t("first blood"), "superiority": t("superiority"),
              "unconscious": t("unconscious"), "death": t("death"), "cards_out": t("the cards ran out")})

CARDS = ("Estocada Alta", "Estocada Profunda", "Tajo Circular", "Finta", "Treta", "Insulto")
ATTACKS = ("Estocada Alta", "Estocada Profunda", "Tajo Circular")
DISCARDERS = ("Finta", "Treta")

# Each card gives Ventaja (+4) against the one it beats. The seed prints the sixth card
# as a second "Estocada Profunda"; it is Insulto (the only card the cycle still lacks).
BEATS = {
    "Estocada Alta": "Insulto",
    "Estocada Profunda": "Estocada Alta",
    "Tajo Circular": "Estocada Profunda",
    "Treta": "Tajo Circular",
    "Finta": "Treta",
    "Insulto": "Finta",
}
VENTAJA = 4

WEAPON_TYPES = ("Espada", "Daga")
# The game's own words, shown as they are in every language (docs/glossary.md): the cards, the
# weapon types, the roll and its edges, the stats and the tracks.
GAME_TERMS = (*CARDS, *WEAPON_TYPES, "Tirada Enfrentada", "Ventaja", "Desventaja", "DES", "INT", "PG", "PM")
HAND = 3
A_MUERTE_CLOCK = 4


def effect(card: str) -> str:
    """What a card does when it wins: "attack", "discard" (Treta, Finta) or "insult"."""
    if card in ATTACKS:
        return "attack"
    if card in DISCARDERS:
        return "discard"
    return "insult"


def advantage(card_a: str, card_b: str) -> str:
    """The side whose card beats the other's (Ventaja +4), or "" for none."""
    if BEATS[card_a] == card_b:
        return "a"
    if BEATS[card_b] == card_a:
        return "b"
    return ""


def deck_cards(size: int) -> list[str]:
    """A fresh deck before shuffling: the six cards in equal numbers."""
    return [CARDS[i % len(CARDS)] for i in range(size)]


def critical(pair) -> bool:
    return pair[0] == pair[1] and pair[0] >= 6


def fumble(pair) -> bool:
    return pair[0] == pair[1] == 1


def compare(pair_a, pair_b, bonus_a: int = 0, bonus_b: int = 0) -> str:
    """Who wins one opposed roll: "a", "b" or "tie" (a tie is rerolled).

    A critical (a double of 6 or more) beats any non-critical; a fumble (double 1s) loses
    to any non-fumble; two criticals or two fumbles tie; otherwise the higher total wins.
    """
    crit_a, crit_b = critical(pair_a), critical(pair_b)
    if crit_a != crit_b:
        return "a" if crit_a else "b"
    if crit_a:
        return "tie"
    fum_a, fum_b = fumble(pair_a), fumble(pair_b)
    if fum_a != fum_b:
        return "b" if fum_a else "a"
    if fum_a:
        return "tie"
    total_a, total_b = sum(pair_a) + bonus_a, sum(pair_b) + bonus_b
    if total_a == total_b:
        return "tie"
    return "a" if total_a > total_b else "b"


def label(pair) -> Text:
    """A roll's dice with its critical/fumble mark, e.g. "6+6 critical"."""
    if critical(pair):
        return t("{first}+{second} critical", first=pair[0], second=pair[1])
    if fumble(pair):
        return t("{first}+{second} fumble", first=pair[0], second=pair[1])
    return t("{first}+{second}", first=pair[0], second=pair[1])
