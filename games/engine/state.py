"""The state of one game: hands, stock, table, whose bout it is, who is out; cheap to copy.

A state is a plain value with int bitmasks for sets of cards. ``play.apply`` returns a new state; the
search bots copy states thousands of times a second, so ``copy`` copies only the lists that change.
"""

from __future__ import annotations

from typing import Any

from .cards import RANK_BIT, RANKS, SUIT_MASK, card_name, cards_in, names
from .rules import Rules

EPAULETTE_RANK = RANKS.index("6")


class State:
    __slots__ = (
        "rules", "n", "hands", "stock", "trump", "trump_card", "attack", "cover", "attack_by",
        "attack_ok", "cover_ok", "open", "table_ranks", "discard", "discard_count", "attacker",
        "defender", "limit", "taken", "passed", "shown", "played", "covered", "emptied", "out",
        "out_mask", "discarded_once", "finished", "result", "teams", "team_of", "stake", "bank",
        "paid", "epaulette_rank", "neighbours", "beaters", "bouts", "out_bouts",
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
    result: dict[str, Any] | None
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None
    team_of: tuple[int, ...] | None
    stake: int
    bank: int
    paid: list[int]           # chips each seat has paid into the bank (stake and penalties)
    epaulette_rank: int
    neighbours: bool          # throw_in == "neighbours", cached for the hot path
    beaters: tuple[int, ...]  # BEATERS row for this game's trump and joker rule
    bouts: int                # bouts finished so far
    out_bouts: list[int]      # for each seat in ``out``, the bout (1-based) at whose end it went out

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
        new.epaulette_rank = self.epaulette_rank
        new.neighbours = self.neighbours
        new.beaters = self.beaters
        new.bouts = self.bouts
        new.out_bouts = self.out_bouts[:]
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
        }


def rank_bits_of(mask: int) -> int:
    bits = 0
    for card in cards_in(mask):
        bits |= RANK_BIT[card]
    return bits
