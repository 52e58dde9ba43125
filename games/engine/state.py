"""The state of one game: hands, stock, table, whose bout it is, who is out; cheap to copy.

A state is a plain value with int bitmasks for sets of cards. ``play.apply`` returns a new state; the
search bots copy states thousands of times a second, so ``copy`` copies only the lists that change.
"""

from __future__ import annotations

from typing import Any

from .cards import RANK_BIT, RANKS, SUIT_MASK, card_name, cards_in, names
from .result import GameResult
from .rules import Rules

EPAULETTE_RANK = RANKS.index("6")
NO_CLAIM = 1 << 30  # a first leader who held no trump: any trump shown is lower


def owed_entry(giver: int, receiver: int) -> int:
    """One card owed, as ``State.owed`` stores it: giver * 16 + receiver (a table seats at most eight)."""
    return giver << 4 | receiver


def owed_pair(entry: int) -> tuple[int, int]:
    """The (giver, receiver) of one entry of ``State.owed``: the only place that unpacks it."""
    return entry >> 4, entry & 15


class State:
    __slots__ = (
        "rules", "n", "hands", "stock", "trump", "trump_card", "attack", "cover", "attack_by",
        "attack_ok", "cover_ok", "open", "table_ranks", "discard", "discard_count", "attacker",
        "defender", "limit", "taken", "passed", "shown", "played", "covered", "emptied", "out",
        "out_mask", "discarded_once", "finished", "result", "teams", "team_of", "stake", "bank",
        "paid", "epaulette_ranks", "queen", "neighbours", "beaters", "bouts", "out_bouts", "special",
        "hidden_cards", "one_card", "hidden", "hidden_up", "hidden_trump", "announced", "forgot", "owed", "opening",
        "duel_open", "claim", "forced_take",
    )

    rules: Rules
    n: int
    hands: list[int]          # each seat's hand as a card mask
    stock: list[int]          # card ids, the top of the stock LAST (pop() draws), the face-up card first
    trump: int                # suit index, or -1 for no trumps
    trump_card: int           # the face-up card at the bottom of the stock, -1 if the stock started empty
    attack: list[int]         # attack cards on the table, in the order played
    cover: list[int]          # the card covering attack[i], or -1
    attack_by: list[int]      # the seat that played attack[i]
    attack_ok: list[bool]     # whether attack[i] was legal when played (cheating tables)
    cover_ok: list[bool]      # whether cover[i] beat attack[i] when played (cheating tables)
    open: int                 # number of uncovered attack cards
    table_ranks: int          # ranks on the table (attack and cover) as a 14-bit mask
    discard: int              # the discard pile as a card mask; never shown to a seat
    discard_count: int
    attacker: int             # the seat that led the current bout, or leads the next one
    defender: int
    limit: int                # most attack cards this bout may hold
    taken: bool               # the defender has said he takes
    passed: int               # seats that passed since the last card was played or returned
    shown: int                # seats that showed a trump to transfer in this bout
    played: list[int]         # per seat, cards it attacked, threw or transferred with in this bout
    covered: int              # seats that covered in this bout
    emptied: list[int]        # seats whose hand became empty in this bout, in that order
    out: list[int]            # seats out of the game, in the order they went out
    out_mask: int
    discarded_once: bool      # a bout has ended in a discard (ends the first-bout limit)
    finished: bool
    result: GameResult | None
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None
    team_of: tuple[int, ...] | None
    stake: int
    bank: int
    paid: list[int]           # chips each seat has paid into the bank (stake and penalties)
    epaulette_ranks: list[int]  # per seat, the rank his side hangs as epaulettes (6, or its rung of the ladder)
    queen: int                # the ladder's queen (a card), or -1; hung alone when a side's rank is Q
    neighbours: bool          # throw_in == "neighbours", cached for the hot path
    beaters: tuple[int, ...]  # BEATERS row for this game's trump and joker rule
    bouts: int                # bouts finished so far
    out_bouts: list[int]      # for each seat in ``out``, the bout (1-based) at whose end it went out
    # Aktobe (docs/aktobe.md). ``special`` is rules.special: the one flag the hot paths look at.
    special: bool
    hidden_cards: bool        # rules.hidden_cards, cached
    one_card: bool            # rules.one_card, cached
    hidden: list[int]         # per seat, his hidden card (kept once turned up), or -1
    hidden_up: int            # seats whose hidden card has been turned up (into the hand), or who have none
    hidden_trump: int         # the card under the face-up trump; turned up, out of play, once the stock is empty
    announced: int            # seats that said "one card!" since their hand last changed
    forgot: int               # seats that acted down to one card without saying it (since their hand last changed)
    owed: list[int]           # cards still to be given, in order: owed_entry(giver, receiver)
    opening: bool             # the game's first lead is still to be made: any trump holder may make it
    duel_open: bool           # the first bout runs: a lower trump than ``claim`` may be shown (trump_duel)
    claim: int                # the lowest trump the first leader held when he led (NO_CLAIM: none)
    forced_take: bool         # an epaulette lead: the defender must take (no_attack_with_epaulettes)

    def copy(self) -> State:
        new = State.__new__(State)
        new.rules = self.rules
        new.n = self.n
        new.hands = self.hands[:]
        new.stock = self.stock[:]
        new.trump = self.trump
        new.trump_card = self.trump_card
        new.attack = self.attack[:]
        new.cover = self.cover[:]
        new.attack_by = self.attack_by[:]
        new.attack_ok = self.attack_ok[:]
        new.cover_ok = self.cover_ok[:]
        new.open = self.open
        new.table_ranks = self.table_ranks
        new.discard = self.discard
        new.discard_count = self.discard_count
        new.attacker = self.attacker
        new.defender = self.defender
        new.limit = self.limit
        new.taken = self.taken
        new.passed = self.passed
        new.shown = self.shown
        new.played = self.played[:]
        new.covered = self.covered
        new.emptied = self.emptied[:]
        new.out = self.out[:]
        new.out_mask = self.out_mask
        new.discarded_once = self.discarded_once
        new.finished = self.finished
        new.result = self.result
        new.teams = self.teams
        new.team_of = self.team_of
        new.stake = self.stake
        new.bank = self.bank
        new.paid = self.paid[:]
        new.epaulette_ranks = self.epaulette_ranks
        new.queen = self.queen
        new.neighbours = self.neighbours
        new.beaters = self.beaters
        new.bouts = self.bouts
        new.out_bouts = self.out_bouts[:]
        new.special = self.special
        new.hidden_cards = self.hidden_cards
        new.one_card = self.one_card
        # Classic games never change these two lists: a copy shares them.
        new.hidden = self.hidden[:] if self.hidden_cards else self.hidden
        new.hidden_up = self.hidden_up
        new.hidden_trump = self.hidden_trump
        new.announced = self.announced
        new.forgot = self.forgot
        new.owed = self.owed[:] if self.special else self.owed
        new.opening = self.opening
        new.duel_open = self.duel_open
        new.claim = self.claim
        new.forced_take = self.forced_take
        return new

    # Small read-only helpers used by views, bots and tests (not by the hot path).
    def table_pairs(self) -> list[tuple[int, int]]:
        return list(zip(self.attack, self.cover))

    def table_mask(self) -> int:
        mask = 0
        for card in self.attack:
            mask |= 1 << card
        for card in self.cover:
            if card >= 0:
                mask |= 1 << card
        return mask

    def trump_mask(self) -> int:
        return SUIT_MASK[self.trump] if self.trump >= 0 else 0

    def is_out(self, seat: int) -> bool:
        return bool(self.out_mask >> seat & 1)

    def face_down(self, seat: int) -> int:
        """The seat's hidden card while it lies face down, else -1."""
        return self.hidden[seat] if not self.hidden_up >> seat & 1 else -1

    def owed_pairs(self) -> list[tuple[int, int]]:
        """The cards still to be given (Aktobe), in order, as (giver, receiver) pairs."""
        return [owed_pair(entry) for entry in self.owed]

    def hidden_mask(self) -> int:
        """The hidden cards still face down: the players' and, while the stock lasts, the one under the trump."""
        mask = 0
        for seat, card in enumerate(self.hidden):
            if card >= 0 and not self.hidden_up >> seat & 1:
                mask |= 1 << card
        if self.hidden_trump >= 0 and self.stock:
            mask |= 1 << self.hidden_trump
        return mask

    def to_json(self) -> dict[str, Any]:
        """The ``state`` object of DESIGN.md's replay output (the whole truth: not for players)."""
        return {
            "hands": [names(hand) for hand in self.hands],
            "stock": len(self.stock),
            "trump": "SCDH"[self.trump] if self.trump >= 0 else None,
            "table": [
                {"attack": card_name(a), "cover": card_name(c) if c >= 0 else None}
                for a, c in zip(self.attack, self.cover)
            ],
            "discard": self.discard_count,
            "attacker": self.attacker,
            "defender": self.defender,
            "out": list(self.out),
            **self._aktobe_json(),
        }

    def _aktobe_json(self) -> dict[str, Any]:
        """Aktobe's part of the replay output, only for the rules that have it (classic output is unchanged):
        each seat's hidden card while face down (else null), the card under the trump, who said "one card!",
        the cards still to be given [giver, receiver]."""
        rules = self.rules
        data: dict[str, Any] = {}
        if rules.hidden_cards:
            data["hidden"] = [card_name(self.face_down(seat)) if self.face_down(seat) >= 0 else None
                              for seat in range(self.n)]
            data["hidden_trump"] = card_name(self.hidden_trump) if self.hidden_trump >= 0 else None
        if rules.one_card:
            data["announced"] = [seat for seat in range(self.n) if self.announced >> seat & 1]
        if rules.one_card or rules.trump_duel:
            data["owed"] = [[giver, receiver] for giver, receiver in self.owed_pairs()]
        return data


def rank_bits_of(mask: int) -> int:
    bits = 0
    for card in cards_in(mask):
        bits |= RANK_BIT[card]
    return bits
