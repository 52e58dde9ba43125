"""The table's arithmetic: who sits next with cards, who defends against a leader, how many attack cards a bout
may hold and how many more may be thrown in, who may throw in, and the cards moving between hands and table.

Every module of the rules builds on these (RULES.md, Decisions, The bout); none of them changes whose turn
it is except ``clear_bout``, the one reset of the table between bouts.
"""

from __future__ import annotations

from typing import Final

from .cards import names, popcount
from .errors import IllegalAction
from .state import State

HAND_SIZE: Final = 6
# After a take under unlimited_throw_in_on_take a throw may hold any number of cards: more than any hand.
NO_LIMIT: Final = 64
PENALTY_PERCENT: Final = 15  # RULES.md, Cheating tables: a caught cheater (or a false accuser) pays 15 % of the stake


def penalty(stake: int) -> int:
    """15 % of the stake in whole chips, rounded half up (chips are integers in the ledger)."""
    return (stake * PENALTY_PERCENT + 50) // 100


# --- seats ----------------------------------------------------------------------------------------


def next_with_cards(state: State, seat: int) -> int:
    hands, n = state.hands, state.n
    for step in range(1, n):
        other = (seat + step) % n
        if hands[other]:
            return other
    return -1


def next_opponent_with_cards(state: State, seat: int, team: int) -> int:
    """The next player on ``seat``'s left with cards who plays against ``team``, or -1."""
    return _next_with_cards_in_team(state, seat, team, False)


def next_partner_with_cards(state: State, seat: int, team: int) -> int:
    """The next player on ``seat``'s left with cards who plays for ``team``, or -1."""
    return _next_with_cards_in_team(state, seat, team, True)


def _next_with_cards_in_team(state: State, seat: int, team: int, same_team: bool) -> int:
    hands, n, team_of = state.hands, state.n, state.team_of
    assert team_of is not None
    for step in range(1, n):
        other = (seat + step) % n
        if hands[other] and (team_of[other] == team) == same_team:
            return other
    return -1


def defender_for(state: State, leader: int) -> int:
    """The next player with cards on the leader's left; in teams, the next such opponent."""
    if state.team_of is None:
        return next_with_cards(state, leader)
    return next_opponent_with_cards(state, leader, state.team_of[leader])


def transfer_target(state: State, seat: int) -> int:
    """Who defends after ``seat`` transfers: the next player on his left with cards; in teams the next
    such opponent of the transferring player."""
    if state.team_of is None:
        return next_with_cards(state, seat)
    return next_opponent_with_cards(state, seat, state.team_of[seat])


# --- limits ---------------------------------------------------------------------------------------


def base_limit(state: State) -> int:
    # RULES.md: at most 6 attack cards, or 5 before the first discard under first_bout_limit 5.
    if state.rules.first_bout_limit == 5 and not state.discarded_once:
        return 5
    return HAND_SIZE


def defence_count(state: State, seat: int) -> int:
    """The cards ``seat`` can defend with: his hand, and with the stock empty his hidden card still face down,
    which he turns up as soon as his hand runs out (RULES.md, Aktobe; it does not interrupt the bout)."""
    count = popcount(state.hands[seat])
    if state.hidden_cards and not state.stock and state.hidden[seat] >= 0 and not state.hidden_up >> seat & 1:
        count += 1
    return count


def bout_limit(state: State) -> int:
    """Never more attack cards than the defender held when he became the defender."""
    return min(base_limit(state), defence_count(state, state.defender))


def lead_limit(state: State, seat: int) -> int:
    """The limit of a bout ``seat`` would lead: the one set for it if he is its attacker, else (a first lead
    made by another trump holder) the limit against the defender he would have."""
    if seat == state.attacker:
        return state.limit
    return min(base_limit(state), defence_count(state, defender_for(state, seat)))


def throwers(state: State) -> int:
    """The seats that may throw in now, as a mask: players other than the defender who hold cards;
    with throw_in neighbours only the nearest player still in the game on each side of the defender;
    in teams only the defender's opponents (RULES.md, Decisions, The bout)."""
    defender, hands, n = state.defender, state.hands, state.n
    if state.neighbours:
        out_mask = state.out_mask
        candidates = 0
        seat = (defender + 1) % n
        while seat != defender and out_mask >> seat & 1:
            seat = (seat + 1) % n
        if seat != defender:
            candidates |= 1 << seat
        seat = (defender - 1) % n
        while seat != defender and out_mask >> seat & 1:
            seat = (seat - 1) % n
        if seat != defender:
            candidates |= 1 << seat
    else:
        if state.team_of is None:
            mask = 0
            for seat in range(n):
                if hands[seat] and seat != defender:
                    mask |= 1 << seat
            return mask
        candidates = ((1 << n) - 1) ^ (1 << defender)
    mask = 0
    team_of = state.team_of
    for seat in range(n):
        if candidates >> seat & 1 and hands[seat]:
            if team_of is None or team_of[seat] != team_of[defender]:
                mask |= 1 << seat
    return mask


def throw_room(state: State) -> int:
    """How many more cards may be thrown in on this bout: the limit less the attack cards on the table, or
    NO_LIMIT after a take under unlimited_throw_in_on_take (Aktobe)."""
    if state.taken and state.special and state.rules.unlimited_throw_in_on_take:
        return NO_LIMIT
    return state.limit - len(state.attack)


def transfer_room(state: State, seat: int) -> tuple[int, int]:
    """(new defender, how many cards may still be added) if ``seat`` may transfer now, else (-1, -1).

    RULES.md: only before any cover, before a take, while all attack cards share one rank; the new
    defender holds at least as many cards as there will be attack cards, and the total stays within
    6 (or 5)."""
    rules = state.rules
    if not rules.transfer or state.taken or state.covered:
        return -1, -1
    ranks = state.table_ranks
    if ranks & (ranks - 1):
        return -1, -1
    target = transfer_target(state, seat)
    if target < 0:
        return -1, -1
    if state.special and rules.transfer_beyond_hand:
        # Aktobe: the next player may get more cards than he holds; he covers what he can and takes the rest.
        return target, base_limit(state) - len(state.attack)
    room = min(base_limit(state), defence_count(state, target)) - len(state.attack)
    return target, room


def submasks(mask: int, most: int) -> list[int]:
    """Every non-empty subset of ``mask`` with at most ``most`` cards."""
    if not mask & (mask - 1):
        return [mask] if mask and most > 0 else []
    found = []
    sub = mask
    while sub:
        if popcount(sub) <= most:
            found.append(sub)
        sub = (sub - 1) & mask
    return found


# --- the cards on the table and in the hands -------------------------------------------------------


def clear_table(state: State) -> None:
    """Take every card off the table (where they went is the caller's business)."""
    state.attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok = [], [], [], [], []
    state.open = 0
    state.table_ranks = 0


def clear_bout(state: State) -> None:
    """A new bout: an empty table and nobody has taken, passed, shown, played or covered in it yet."""
    clear_table(state)
    state.taken = False
    state.passed = 0
    state.shown = 0
    state.played = [0] * state.n
    state.covered = 0
    state.emptied = []
    state.forced_take = False


def check_holds(state: State, seat: int, cards: int, verb: str) -> None:
    missing = cards & ~state.hands[seat]
    if missing:
        raise IllegalAction(f"seat {seat} cannot {verb} {' '.join(names(missing))}: not in his hand")


def remove_from_hand(state: State, seat: int, cards: int) -> None:
    hand = state.hands[seat] & ~cards
    state.hands[seat] = hand
    if state.one_card:
        state.announced &= ~(1 << seat)
        state.forgot &= ~(1 << seat)
    if not hand:
        if state.hidden_cards and not state.stock and turn_up(state, seat):
            return
        emptied = state.emptied
        if seat in emptied:
            emptied.remove(seat)
        emptied.append(seat)


def return_to_hand(state: State, seat: int, cards: int) -> None:
    state.hands[seat] |= cards
    if state.one_card:
        state.announced &= ~(1 << seat)
        state.forgot &= ~(1 << seat)
    if seat in state.emptied:
        state.emptied.remove(seat)


def turn_up(state: State, seat: int) -> bool:
    """With the stock empty and his hand empty a player turns up his hidden card and plays on with it."""
    card = state.hidden[seat]
    if card < 0 or state.hidden_up >> seat & 1:
        return False
    state.hands[seat] = 1 << card
    state.hidden_up |= 1 << seat
    state.announced &= ~(1 << seat)
    state.forgot &= ~(1 << seat)
    return True
