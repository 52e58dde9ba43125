"""A fair deal: a seed from ``secrets``, a shuffle reproducible from it, and a commitment to the deck.

The deck order is fixed at deal time. Before the game its commitment, SHA-256 of a salt and the order,
can be published; after the game the salt and the order are revealed and anyone can check them
(``verify_commitment``). The shuffle is Fisher-Yates driven by SHA-256 of the seed and a counter, so the
same seed gives the same deck on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from .cards import SUIT_MASK, card_name, deck_cards, mask_of, suit_of
from .errors import MalformedRecord
from .rules import Rules
from .start import lowest_trump_holder, new_game
from .state import State
from .table import HAND_SIZE


def new_seed() -> str:
    return secrets.token_hex(16)


class _SeededStream:
    """Uniform integers from SHA-256(seed, counter); rejection sampling keeps them unbiased."""

    def __init__(self, seed: str) -> None:
        self.seed = seed.encode()
        self.counter = 0

    def below(self, bound: int) -> int:
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            digest = hashlib.sha256(self.seed + b":" + str(self.counter).encode()).digest()
            self.counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % bound


def shuffled_deck(deck: int, seed: str) -> list[int]:
    cards = deck_cards(deck)
    stream = _SeededStream(seed)
    for index in range(len(cards) - 1, 0, -1):
        other = stream.below(index + 1)
        cards[index], cards[other] = cards[other], cards[index]
    return cards


def deck_text(order: list[int]) -> str:
    return " ".join(card_name(card) for card in order)


def commitment(salt: str, order: list[int]) -> str:
    """SHA-256 (hex) of ``salt``, a colon and the deck order written as space-separated cards."""
    return hashlib.sha256(f"{salt}:{deck_text(order)}".encode()).hexdigest()


def verify_commitment(digest: str, salt: str, order_text: str) -> bool:
    expected = hashlib.sha256(f"{salt}:{order_text}".encode()).hexdigest()
    return hmac.compare_digest(expected, digest)


@dataclass(frozen=True)
class Deal:
    """A deck order split into hands (seat order) and stock (top first, the face-up card last); under the
    hidden_cards rule also each seat's hidden card and the card under the face-up trump card."""

    rules: Rules
    order: list[int]
    hands: list[int]
    stock: list[int]
    trump: int
    salt: str
    hidden: list[int] | None = None
    hidden_trump: int = -1

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.order)

    def state(
        self, *, first_attacker: int | None = None,
        teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None, stake: int = 0,
        epaulette_ranks: list[int] | None = None, queen: int = -1,
    ) -> State:
        return new_game(
            self.rules, self.hands, self.stock, trump=self.trump, first_attacker=first_attacker,
            teams=teams, stake=stake, hidden=self.hidden, hidden_trump=self.hidden_trump,
            epaulette_ranks=epaulette_ranks, queen=queen,
        )


def rotated_order(order: list[int], players: int, rotation: int, *, hidden_cards: bool = False) -> list[int]:
    """The deck order that deals seat s the hand (and, under hidden_cards, the hidden card) that seat
    ``(s + rotation) % players`` gets from ``order``; the stock is left as it is. A duplicate round
    (tournaments.duplicate) deals one shuffle to every board, its seats rotated."""
    rotation %= players
    if rotation == 0:
        return list(order)
    rotated = list(order)
    dealt = min(players * HAND_SIZE, len(order))
    ends = [dealt]
    if hidden_cards:
        ends.append(dealt + players)
    start = 0
    for end in ends:
        for base in range(start, end, players):
            for seat in range(players):
                rotated[base + seat] = order[base + (seat + rotation) % players]
        start = end
    return rotated


def deal(
    rules: Rules, players: int, seed: str | None = None, salt: str | None = None, rotation: int = 0
) -> Deal:
    """Shuffle and deal six cards each, one at a time round the table; the rest is the stock.

    If the deck is dealt out completely, the last card dealt names the trump (RULES.md, Deal). Under the
    hidden_cards rule (Aktobe, seed 004) each seat then gets one hidden card, in seat order, and the last card
    of the deck goes face down under the face-up trump card: the order is the hands, the hidden cards, the
    stock top first down to its face-up card, and the card under it. A joker face up means no trumps (-1).

    ``rotation`` deals the same shuffle with the hands moved round the seats (``rotated_order``): the
    order and its commitment are of the deck as this table was dealt it; the stock and the trump are the
    shuffle's (when the deck is dealt out, the trump is named by the last card the shuffle deals)."""
    if not 2 <= players <= rules.max_players:
        raise MalformedRecord(f"a {rules.deck}-card game takes 2 to {rules.max_players} players")
    seed = seed if seed is not None else new_seed()
    shuffled = shuffled_deck(rules.deck, seed)
    dealt = players * HAND_SIZE
    order = rotated_order(shuffled, players, rotation, hidden_cards=rules.hidden_cards)
    hands = [mask_of(order[seat:dealt:players]) for seat in range(players)]
    salt = salt if salt is not None else new_seed()
    if rules.hidden_cards:
        hidden = order[dealt:dealt + players]
        stock = order[dealt + players:-1]
        return Deal(rules=rules, order=order, hands=hands, stock=stock, trump=suit_of(stock[-1]), salt=salt,
                    hidden=hidden, hidden_trump=order[-1])
    stock = order[dealt:]
    trump = suit_of(stock[-1] if stock else shuffled[dealt - 1])
    return Deal(rules=rules, order=order, hands=hands, stock=stock, trump=trump, salt=salt)


def redeal_suit(rules: Rules, hand: int) -> int | None:
    """RULES.md, redeal_five_same_suit: the suit of which a hand holds 5 or more cards, when the table plays
    the option (the hand may then ask for a redeal); None otherwise."""
    if not rules.redeal_five_same_suit:
        return None
    for suit, mask in enumerate(SUIT_MASK):
        if (hand & mask).bit_count() >= 5:
            return suit
    return None


def redeal_refusal(rules: Rules, hand: int, suit: int, moved: bool) -> str | None:
    """Why a hand may not ask for a redeal for five of `suit` (RULES.md, redeal_five_same_suit), or None if it
    may; `moved`: a move of the deal has been played."""
    if not rules.redeal_five_same_suit:
        return "this table does not play redeal_five_same_suit"
    if moved:
        return "a redeal may be asked only before the first move"
    if not 0 <= suit < len(SUIT_MASK) or (hand & SUIT_MASK[suit]).bit_count() < 5:
        return "a redeal needs five or more cards of one suit in your hand"
    return None


def redeal_allowed(rules: Rules, hand: int) -> bool:
    """RULES.md, redeal_five_same_suit: a hand with 5 or more cards of one suit may ask for a redeal."""
    return redeal_suit(rules, hand) is not None


def first_attacker_for(
    rules: Rules, hands: list[int], trump: int, previous_durak: int | None = None,
) -> int:
    """Who leads a game: the lowest trump, or with ``next_game_first: under_fool`` in a series the
    player on the previous durak's left ("из-под дурака", seed 000)."""
    if rules.next_game_first == "under_fool" and previous_durak is not None:
        return (previous_durak + 1) % len(hands)
    return lowest_trump_holder(hands, trump)
