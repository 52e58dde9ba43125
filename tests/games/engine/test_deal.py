"""The deal: reproducible from its seed, unbiased, and dealt as RULES.md says (six each, trump at the bottom)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.engine import Rules, deal
from games.engine.cards import deck_cards, popcount
from games.engine.deal import new_seed, shuffled_deck


def test_same_seed_same_deck_other_seed_other_deck() -> None:
    assert shuffled_deck(36, "seed-1") == shuffled_deck(36, "seed-1")
    assert shuffled_deck(36, "seed-1") != shuffled_deck(36, "seed-2")
    assert sorted(shuffled_deck(52, "x")) == deck_cards(52)
    assert new_seed() != new_seed() and len(new_seed()) == 32


def test_six_each_and_the_bottom_card_names_the_trump() -> None:
    dealt = deal(Rules(), 4, seed="table-9")
    assert [popcount(hand) for hand in dealt.hands] == [6, 6, 6, 6]
    assert len(dealt.stock) == 36 - 24
    assert dealt.trump == dealt.stock[-1] & 3
    state = dealt.state()
    assert state.trump_card == dealt.stock[-1]
    assert state.stock[0] == dealt.stock[-1]  # the face-up card is drawn last


def test_a_deck_dealt_out_completely_takes_its_trump_from_the_last_card_dealt() -> None:
    dealt = deal(Rules(), 6, seed="full")
    assert dealt.stock == []
    assert dealt.trump == dealt.order[-1] & 3


# --- fairness -----------------------------------------------------------------------------------------------
# A shuffle is fair when every order of the deck is equally likely. Two consequences are tested, each with a
# bound a fair shuffle exceeds about once in a thousand runs (fixed seeds: the verdict is the same every run):
# - every card is equally likely at every position (the 36 x 36 table of card by position, chi-square with
#   35 x 35 degrees of freedom), which the classic swap-with-any-position bug fails;
# - of every two cards each is as likely to come first (630 pairs, each a binomial count), which a random
#   cut or rotation of a sorted deck fails although it puts each card at each position equally often.

Shuffle = Callable[[str], list[int]]
DECK = 36


def _orders(shuffle: Shuffle, trials: int, prefix: str) -> list[list[int]]:
    return [shuffle(f"{prefix}-{number}") for number in range(trials)]


def position_chi_square(orders: list[list[int]]) -> tuple[float, float]:
    """The chi-square of the card-by-position table and its 99.9th percentile (Wilson-Hilferty)."""
    cards = deck_cards(DECK)
    table = {card: [0] * DECK for card in cards}
    for order in orders:
        for position, card in enumerate(order):
            table[card][position] += 1
    expected = len(orders) / DECK
    chi_square = sum((count - expected) ** 2 / expected for row in table.values() for count in row)
    freedom = (DECK - 1) ** 2
    z = 3.0902  # the standard normal's 99.9th percentile
    bound = freedom * (1 - 2 / (9 * freedom) + z * math.sqrt(2 / (9 * freedom))) ** 3
    return chi_square, bound


def worst_pair_z(orders: list[list[int]]) -> float:
    """The largest |z| over every pair of cards of how often the first came before the second (1/2 each)."""
    trials = len(orders)
    before = [[0] * DECK for _ in range(DECK)]
    index = {card: number for number, card in enumerate(deck_cards(DECK))}
    for order in orders:
        seen: list[int] = []
        for card in order:
            mine = index[card]
            for earlier in seen:
                before[earlier][mine] += 1
            seen.append(mine)
    spread = math.sqrt(trials / 4)
    return max(abs(before[a][b] - trials / 2) / spread for a in range(DECK) for b in range(a + 1, DECK))


# Each of 630 pairs beyond 4.5 standard deviations: about 7 in a million, under 1 in 200 for the worst of them.
PAIR_BOUND = 4.5


def fairness_failures(shuffle: Shuffle) -> list[str]:
    failures = []
    chi_square, bound = position_chi_square(_orders(shuffle, 7200, "position"))
    if chi_square >= bound:
        failures.append(f"card by position: chi-square {chi_square:.0f} over {bound:.0f}")
    worst = worst_pair_z(_orders(shuffle, 3000, "pairs"))
    if worst >= PAIR_BOUND:
        failures.append(f"pairwise orders: a pair {worst:.1f} standard deviations from even")
    return failures


def test_the_shuffle_is_fair() -> None:
    assert fairness_failures(lambda seed: shuffled_deck(DECK, seed)) == []


def _rotated_sorted(seed: str) -> list[int]:
    cut = random.Random(seed).randrange(DECK)
    cards = deck_cards(DECK)
    return cards[cut:] + cards[:cut]


def _swap_with_any(seed: str) -> list[int]:
    rng = random.Random(seed)
    cards = deck_cards(DECK)
    for position in range(DECK):
        other = rng.randrange(DECK)  # the bug: any position, not one not yet fixed
        cards[position], cards[other] = cards[other], cards[position]
    return cards


def test_the_fairness_test_fails_a_cut_of_a_sorted_deck_and_the_swap_with_any_position_bug() -> None:
    # Each card of a cut deck is at each position about equally often; the pairs give it away.
    assert any(failure.startswith("pairwise orders") for failure in fairness_failures(_rotated_sorted))
    assert any(failure.startswith("card by position") for failure in fairness_failures(_swap_with_any))
