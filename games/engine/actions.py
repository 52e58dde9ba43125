"""Actions as small immutable values, and their JSON form of DESIGN.md (the game record's action log)."""

from __future__ import annotations

from typing import Any, Final

from .cards import SUITS, card_name, cards_in, lowest_card, parse_card, parse_suit
from .errors import MalformedRecord

ATTACK: Final = 0
COVER: Final = 1
THROW: Final = 2
TRANSFER: Final = 3
SHOW_TRUMP: Final = 4
TAKE: Final = 5
PASS: Final = 6
ACCUSE: Final = 7
# Aktobe (RULES.md, The Aktobe variant; docs/aktobe.md): "one card!", "how many cards?" of a player who did not
# say it, a card given to another player (the penalty, the duel), and a lower trump shown for the first lead.
ANNOUNCE: Final = 8
CHALLENGE: Final = 9
GIVE: Final = 10
DUEL: Final = 11
# A player gives up, at any moment and whoever is to move: he (his team) loses as a durak would. Never listed by
# ``legal_actions``, which are the moves of the game itself.
SURRENDER: Final = 12
# RULES.md, redeal_five_same_suit: before the first move a hand with five or more cards of one suit asks for a new
# deal (``target`` is that suit). It replaces the deal, so only a record, which holds the next deal, plays it
# (``records.Record.play_on``); ``play`` refuses it and ``legal_actions`` never lists it.
REDEAL: Final = 13
KIND_NAMES = (
    "attack", "cover", "throw", "transfer", "show_trump", "take", "pass", "accuse", "announce", "challenge", "give",
    "duel", "surrender", "redeal",
)
KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}
_MULTI_CARD = (ATTACK, THROW, TRANSFER)
_ONE_CARD = (SHOW_TRUMP, ACCUSE, GIVE, DUEL)


class Action:
    """One move. ``cards`` is the set of cards played, shown, given or accused (a bitmask; one card for a
    cover, show_trump, accuse, give or duel); ``target`` is the attack card a cover goes on, the seat a
    challenge asks, else -1.

    A plain class rather than a NamedTuple: compiled by mypyc it is built in a few nanoseconds,
    which matters when bots list thousands of moves a second."""

    __slots__ = ("kind", "cards", "target")

    def __init__(self, kind: int, cards: int = 0, target: int = -1) -> None:
        self.kind = kind
        self.cards = cards
        self.target = target

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and self.cards == other.cards and self.target == other.target

    def __hash__(self) -> int:
        return hash((self.kind, self.cards, self.target))

    def __repr__(self) -> str:
        return f"Action({self!s})"

    @property
    def card(self) -> int:
        return lowest_card(self.cards)

    def to_json(self) -> dict[str, Any]:
        kind = self.kind
        data: dict[str, Any] = {"type": KIND_NAMES[kind]}
        if kind in _MULTI_CARD:
            data["cards"] = [card_name(card) for card in cards_in(self.cards)]
        elif kind == COVER:
            data["attack"] = card_name(self.target)
            data["card"] = card_name(self.card)
        elif kind in _ONE_CARD:
            data["card"] = card_name(self.card)
        elif kind == CHALLENGE:
            data["target"] = self.target
        elif kind == REDEAL:
            data["suit"] = SUITS[self.target]
        return data

    def __str__(self) -> str:
        kind = self.kind
        if kind in _MULTI_CARD:
            return KIND_NAMES[kind] + " " + " ".join(card_name(card) for card in cards_in(self.cards))
        if kind == COVER:
            return f"cover {card_name(self.target)} with {card_name(self.card)}"
        if kind in _ONE_CARD:
            return f"{KIND_NAMES[kind]} {card_name(self.card)}"
        if kind == CHALLENGE:
            return f"challenge seat {self.target}"
        if kind == REDEAL:
            return f"redeal for five of {SUITS[self.target]}"
        return KIND_NAMES[kind]


def attack(*cards: int) -> Action:
    return Action(ATTACK, _mask(cards))


def throw(*cards: int) -> Action:
    return Action(THROW, _mask(cards))


def transfer(*cards: int) -> Action:
    return Action(TRANSFER, _mask(cards))


def cover(attack_card: int, covering_card: int) -> Action:
    return Action(COVER, 1 << covering_card, attack_card)


def show_trump(card: int) -> Action:
    return Action(SHOW_TRUMP, 1 << card)


def accuse(card: int) -> Action:
    return Action(ACCUSE, 1 << card)


def give(card: int) -> Action:
    return Action(GIVE, 1 << card)


def duel(card: int) -> Action:
    return Action(DUEL, 1 << card)


def challenge(seat: int) -> Action:
    return Action(CHALLENGE, 0, seat)


def redeal(suit: int) -> Action:
    return Action(REDEAL, 0, suit)


TAKE_ACTION = Action(TAKE)
PASS_ACTION = Action(PASS)
ANNOUNCE_ACTION = Action(ANNOUNCE)
SURRENDER_ACTION = Action(SURRENDER)


def _mask(cards: tuple[int, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def action_from_json(data: object) -> Action:
    """Parse ``{"type": "cover", "attack": "6S", "card": "8S"}`` and the like; MalformedRecord if the
    shape is wrong (unknown type, missing field, a string that is not a card, a card listed twice). Whether a
    challenge's target is a seat of the game is the record's check."""
    if not isinstance(data, dict):
        raise MalformedRecord("an action must be an object")
    kind_name = data.get("type")
    kind = KIND_BY_NAME.get(kind_name) if isinstance(kind_name, str) else None
    if kind is None:
        raise MalformedRecord(f"unknown action type: {kind_name!r}")
    try:
        if kind in _MULTI_CARD:
            raw = data.get("cards")
            if not isinstance(raw, list) or not raw:
                raise MalformedRecord(f"{kind_name} needs a non-empty list 'cards'")
            mask = 0
            for text in raw:
                card = parse_card(text)
                if mask >> card & 1:
                    raise MalformedRecord(f"{kind_name} lists {text} twice")
                mask |= 1 << card
            return Action(kind, mask)
        if kind == COVER:
            if "attack" not in data or "card" not in data:
                raise MalformedRecord("cover needs 'attack' and 'card'")
            return Action(COVER, 1 << parse_card(data["card"]), parse_card(data["attack"]))
        if kind in _ONE_CARD:
            if "card" not in data:
                raise MalformedRecord(f"{kind_name} needs 'card'")
            return Action(kind, 1 << parse_card(data["card"]))
        if kind == CHALLENGE:
            target = data.get("target")
            if isinstance(target, bool) or not isinstance(target, int) or target < 0:
                raise MalformedRecord("challenge needs 'target', the seat asked")
            return Action(CHALLENGE, 0, target)
        if kind == REDEAL:
            if not isinstance(data.get("suit"), str):
                raise MalformedRecord("redeal needs 'suit', the suit the hand holds five of")
            return Action(REDEAL, 0, parse_suit(data["suit"]))
    except ValueError as error:
        raise MalformedRecord(str(error)) from None
    return Action(kind)
