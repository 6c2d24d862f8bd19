"""[assumed] With no reshuffle, Rocèt's cards run out: a duelist left with no card to play ends
the duel in a draw, once nothing else is left to settle. Before this rule the legal actions
offered a PlayTurn whose card had no choice, and nothing but a yield or an abandonment could end it.

Played with the pure rules: a superiority duel, physical cards, one 18-card deck each (15 left
in each pile after the deal), no reshuffle. Each turn Finta meets Treta and the winner (and their
card) alternates,
so the meter never reaches an end; the loser of each turn discards, so the hands empty early."""
from tests.legal_play import apply, decide, offered, start
from tracker import rules

ROCET = rules.get("rocet")
SETUP = {"kind": "superioridad", "cards": "physical", "deck": "own", "reshuffle": False,
         "weapon_type": "Espada"}


def test_a_duelist_with_no_card_left_ends_the_duel_in_a_draw():
    state, at = start(ROCET, SETUP, seats=False, seed=1), 100
    sizes = []
    for turn in range(40):
        if state["outcome"]:
            break
        names = [a["type"] for a in offered(ROCET, state)]
        if "Discard" in names:
            command = ("Discard", {"side": state["pending_discard"], "card": "Finta"})
        else:
            assert names[0] == "PlayTurn", names
            # DES d10, INT d8 (side A) against d8, d8: 9+7 beats 1+2, then the other way round.
            high, low = [9, 7], [1, 2]
            a_wins = state["turn"] % 2 == 0
            cards = ("Finta", "Treta") if a_wins else ("Treta", "Finta")  # the winner's card, each in turn
            command = ("PlayTurn", {"card_a": cards[0], "card_b": cards[1],
                                    "dice_a": high if a_wins else low, "dice_b": low if a_wins else [7, 7]})
        state, at = apply(ROCET, state, decide(ROCET, state, *command), at)
        sizes.append((state["sides"]["a"]["hand_size"], state["sides"]["b"]["hand_size"],
                      state["decks"]["a"]["pile_size"], state["decks"]["b"]["pile_size"]))
    outcome = state["outcome"]
    assert outcome is not None, sizes[-5:]
    assert outcome["winner"] is None and outcome["ending"] == "cards_out", outcome
    assert {r for r in outcome["results"].values()} == {"draw"}
    hands_and_piles = sizes[-1]
    assert 0 in hands_and_piles[:2] and hands_and_piles[2:] == (0, 0), sizes[-3:]
    assert "a draw (the cards ran out)" in str(outcome["summary"])
    assert any("no card to play" in str(a) for a in ROCET.assumptions(state))


def test_with_the_reshuffle_the_same_duel_never_runs_out():
    state, at = start(ROCET, {**SETUP, "reshuffle": True}, seats=False, seed=1), 100
    for turn in range(40):
        names = [a["type"] for a in offered(ROCET, state)]
        if "Discard" in names:
            command = ("Discard", {"side": state["pending_discard"], "card": "Finta"})
        else:
            a_wins = state["turn"] % 2 == 0
            cards = ("Finta", "Treta") if a_wins else ("Treta", "Finta")
            command = ("PlayTurn", {"card_a": cards[0], "card_b": cards[1],
                                    "dice_a": [9, 7] if a_wins else [1, 2], "dice_b": [1, 2] if a_wins else [7, 7]})
        state, at = apply(ROCET, state, decide(ROCET, state, *command), at)
    assert state["outcome"] is None
