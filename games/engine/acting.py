"""Who acts now: the one answer to "who may act, who must, who is waited on" (``who_acts``).

MAY: the seats with at least one legal action (random playouts, the benchmark). NEEDED: the seats whose
move the game needs: moves nobody has to make (accusations, Aktobe's "how many cards?", the duel, a first
lead by another trump holder) are left out; bots that play honestly draw their actors from these.
WAITED: the seats the server's turn timer runs for (a thrower who may still throw but has not said
"beaten" or "take it" is waited on only once the defence is complete or taken). PROMPTED: Aktobe's
optional moves a bot makes at once ("one card!", the duel, "how many cards?" of a player seen to forget).
"""

from __future__ import annotations

from typing import Final

from .actions import ANNOUNCE, CHALLENGE, DUEL
from .aktobe import one_card_due
from .cards import CARDS_OF_RANKS
from .legal import legal_actions
from .state import State
from .table import throw_room, throwers

MAY: Final = 0
NEEDED: Final = 1
WAITED: Final = 2
PROMPTED: Final = 3


def who_acts(state: State, kind: int) -> list[int]:
    """The seats of ``kind`` (MAY, NEEDED, WAITED or PROMPTED) in ``state``, in seat order except that
    Aktobe's owers come in the order they owe and "one card!" announcers come first."""
    if kind == MAY:
        return actors(state)
    if kind == NEEDED:
        return movers(state)
    if kind == WAITED:
        return _waited(state)
    if kind == PROMPTED:
        return _prompted(state)
    raise ValueError(f"unknown kind {kind}")


def actors(state: State) -> list[int]:
    """MAY: the seats that have at least one legal action now, without listing the actions (the hot path
    of random playouts, so it is public on its own)."""
    if state.finished:
        return []
    if state.special:
        # Aktobe: out of turn, anyone may say "one card!", ask "how many cards?", duel or make the first lead.
        return [seat for seat in range(state.n) if legal_actions(state, seat)]
    if not state.attack:
        return [state.attacker]
    if state.rules.cheating:
        # Anyone still in the game may accuse a card he did not play.
        return [seat for seat in range(state.n) if not state.out_mask >> seat & 1 and legal_actions(state, seat)]
    return _bout_movers(state)


def movers(state: State) -> list[int]:
    """NEEDED: whoever owes a card (nothing else is played meanwhile), whoever must say "one card!", the
    leader, a defender with open cards, the throwers who may still throw or pass."""
    if state.finished:
        return []
    if state.special:
        if state.owed:
            return _owers(state)
        due = [seat for seat in range(state.n) if state.one_card and one_card_due(state, seat)]
        if due:
            return due + [seat for seat in ([state.attacker] if not state.attack else _bout_movers(state)) if seat not in due]
    if not state.attack:
        return [state.attacker]
    return _bout_movers(state)


def _owers(state: State) -> list[int]:
    # Aktobe: the seats that owe cards (the "one card!" penalty, the duel), in the order they owe.
    seats: list[int] = []
    for giver, _receiver in state.owed_pairs():
        if giver not in seats:
            seats.append(giver)
    return seats


def _bout_movers(state: State) -> list[int]:
    seats = []
    defender = state.defender
    if not state.taken and state.open:
        seats.append(defender)
    mask = throwers(state) & ~state.passed
    if mask:
        can_pass = state.taken or not state.open
        room = throw_room(state)
        wanted = CARDS_OF_RANKS[state.table_ranks]
        hands = state.hands
        for seat in range(state.n):
            if mask >> seat & 1 and (can_pass or room > 0 and hands[seat] & wanted):
                seats.append(seat)
    return seats


def _waited(state: State) -> list[int]:
    # At a cheating table anyone may also accuse, but nobody has to, so an accusation is never waited for.
    if state.finished:
        return []
    if state.owed:
        return _owers(state)
    if not state.attack:
        return [state.attacker]
    seats = []
    if not state.taken and state.open:
        seats.append(state.defender)
    if state.taken or not state.open:
        mask = throwers(state) & ~state.passed
        seats.extend(seat for seat in range(state.n) if mask >> seat & 1 and seat != state.defender)
    return seats


def _prompted(state: State) -> list[int]:
    if state.finished or not state.special or state.owed:
        return []
    seats = []
    for seat in range(state.n):
        for action in legal_actions(state, seat):
            kind = action.kind
            if kind == ANNOUNCE or kind == DUEL or kind == CHALLENGE and state.forgot >> action.target & 1:
                seats.append(seat)
                break
    return seats
