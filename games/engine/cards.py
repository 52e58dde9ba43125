"""Cards as small integers and sets of cards as int bitmasks.

A card's id is ``rank * 4 + suit`` with ranks 0..12 for 2..A and suits 0..3 for S, C, D, H; the two
jokers are ids 52 (red) and 53 (black) with rank 13. A set of cards is an int whose bit ``id`` is set
for each card in it, the way python-chess keeps sets of squares: membership, union and "all cards of
this rank" are single integer operations, and copying a hand costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

SUITS: Final = "SCDH"
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "Joker")
QUEEN_RANK: Final = RANKS.index("Q")
JOKER_RANK: Final = 13
RED_JOKER: Final = 52
BLACK_JOKER: Final = 53
CARD_COUNT: Final = 54
JOKERS: Final = (1 << RED_JOKER) | (1 << BLACK_JOKER)
NO_TRUMP: Final = -1

# Lowest rank index in each deck size (RULES.md, Cards): 24 = 9..A, 36 = 6..A, 52/54 = 2..A.
LOWEST_RANK: Final[dict[int, int]] = {24: 7, 36: 4, 52: 0, 54: 0}
DECK_SIZES: Final[tuple[int, ...]] = tuple(LOWEST_RANK)

RED_SUITS: Final = (2, 3)  # diamonds and hearts


def rank_of(card: int) -> int:
    return card >> 2 if card < RED_JOKER else JOKER_RANK


def suit_of(card: int) -> int:
    """The suit of a plain card; jokers have no suit (-1)."""
    return card & 3 if card < RED_JOKER else -1


def is_red(card: int) -> bool:
    if card == RED_JOKER:
        return True
    if card == BLACK_JOKER:
        return False
    return (card & 3) in RED_SUITS


def card_name(card: int) -> str:
    if card == RED_JOKER:
        return "RJ"
    if card == BLACK_JOKER:
        return "BJ"
    return RANKS[card >> 2] + SUITS[card & 3]


_BY_NAME = {card_name(card): card for card in range(CARD_COUNT)}


def parse_card(text: object) -> int:
    """The id of a card written like ``6S``, ``10H``, ``QD``, ``RJ``; ValueError for anything else."""
    if isinstance(text, str):
        card = _BY_NAME.get(text.upper())
        if card is not None:
            return card
    raise ValueError(f"not a card: {text!r}")


def parse_suit(text: object) -> int:
    if isinstance(text, str) and len(text) == 1 and text.upper() in SUITS:
        return SUITS.index(text.upper())
    raise ValueError(f"not a suit: {text!r}")


_POPCOUNT16: Final[tuple[int, ...]] = tuple(bin(value).count("1") for value in range(1 << 16))


def popcount(mask: int) -> int:
    """The number of cards in a set of cards. Table lookups rather than ``int.bit_count``: compiled
    with mypyc they are native operations, while a method call on an int is not."""
    return (
        _POPCOUNT16[mask & 0xFFFF] + _POPCOUNT16[(mask >> 16) & 0xFFFF]
        + _POPCOUNT16[(mask >> 32) & 0xFFFF] + _POPCOUNT16[(mask >> 48) & 0xFFFF]
    )


def bit(card: int) -> int:
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The ids of the cards in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def names(mask: int) -> list[str]:
    return [card_name(card) for card in cards_in(mask)]


def deck_mask(deck: int) -> int:
    """Every card of a deck of 24, 36, 52 or 54 cards."""
    low = LOWEST_RANK[deck]
    mask = ((1 << 52) - 1) ^ ((1 << (low * 4)) - 1)
    if deck == 54:
        mask |= bit(RED_JOKER) | bit(BLACK_JOKER)
    return mask


def deck_cards(deck: int) -> list[int]:
    return list(cards_in(deck_mask(deck)))


RANK_MASK: Final[tuple[int, ...]] = tuple(0xF << (rank * 4) for rank in range(13)) + (bit(RED_JOKER) | bit(BLACK_JOKER),)
SUIT_MASK: Final[tuple[int, ...]] = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))
RANK_BIT: Final[tuple[int, ...]] = tuple(1 << rank_of(card) for card in range(CARD_COUNT))
RANK_OF_BIT_INDEX: Final[tuple[int, ...]] = tuple(rank_of(card) for card in range(CARD_COUNT))


def _cards_of_ranks(rank_bits: int) -> int:
    mask = 0
    for rank in range(14):
        if rank_bits >> rank & 1:
            mask |= RANK_MASK[rank]
    return mask


# CARDS_OF_RANKS[set of ranks as a 14-bit mask] = every card of those ranks; the throw-in test.
CARDS_OF_RANKS: Final[tuple[int, ...]] = tuple(_cards_of_ranks(rank_bits) for rank_bits in range(1 << 14))


def _beaters(attack: int, trump: int, joker_beats: str) -> int:
    """Every card that covers ``attack`` when ``trump`` is the trump suit (-1: no trumps)."""
    jokers = bit(RED_JOKER) | bit(BLACK_JOKER)
    if attack >= RED_JOKER:
        # Only the other joker covers a joker (RULES.md, Aktobe).
        return jokers & ~bit(attack)
    rank, suit = attack >> 2, attack & 3
    higher_same_suit = 0
    for higher in range(rank + 1, 13):
        higher_same_suit |= 1 << (higher * 4 + suit)
    mask = higher_same_suit
    if trump >= 0 and suit != trump:
        mask |= SUIT_MASK[trump]
    if joker_beats == "same_colour":
        mask |= bit(RED_JOKER) if suit in RED_SUITS else bit(BLACK_JOKER)
    else:
        mask |= jokers
    return mask


# BEATERS[joker mode][trump + 1][attack card] = the set of cards that cover it.
BEATERS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    mode: tuple(tuple(_beaters(attack, trump, mode) for attack in range(CARD_COUNT)) for trump in range(-1, 4))
    for mode in ("all", "same_colour")
}


def beats(cover: int, attack: int, trump: int, joker_beats: str = "all") -> bool:
    return bool(BEATERS[joker_beats][trump + 1][attack] >> cover & 1)
