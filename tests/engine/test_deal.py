"""The deal: reproducible from its seed, unbiased, and dealt as RULES.md says (six each, trump at the bottom)."""

from __future__ import annotations

from collections import Counter

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


def test_the_shuffle_is_unbiased() -> None:
    """Where the 6 of spades lands over 3,600 seeds: a chi-square test against 36 equal positions.

    With 35 degrees of freedom the 99.9th percentile is 66.6; a biased shuffle (e.g. the classic
    swap-with-any-position bug) lands far above it."""
    positions: Counter[int] = Counter()
    six_of_spades = deck_cards(36)[0]
    trials = 3600
    for number in range(trials):
        positions[shuffled_deck(36, f"uniform-{number}").index(six_of_spades)] += 1
    expected = trials / 36
    chi_square = sum((positions[place] - expected) ** 2 / expected for place in range(36))
    assert chi_square < 66.6, positions
