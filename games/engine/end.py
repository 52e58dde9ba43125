"""The end of a bout and of the game: the table is taken or discarded, hands are refilled from the stock,
players whose cards ran out go out, the next bout's leader and defender; then the result, its epaulettes,
the finishing places and the chips each seat wins or loses.
"""

from __future__ import annotations

from .cards import BEATERS, QUEEN_RANK, RANK_MASK, RANKS, names, popcount, suit_of
from .errors import IllegalAction
from .result import DRAW, DURAK, Epaulettes, GameResult
from .state import State
from .table import (
    HAND_SIZE, bout_limit, clear_bout, clear_table, next_opponent_with_cards, next_partner_with_cards,
    next_with_cards, throwers, turn_up,
)

# --- the end of a bout ----------------------------------------------------------------------------


def end_bout_if_done(state: State) -> None:
    """The bout ends when every attack card is covered (or the defender has taken) and every eligible
    thrower has passed since the last card was played; at once if nobody is eligible."""
    if state.open and not state.taken:
        return
    if throwers(state) & ~state.passed:
        return
    _end_bout(state)


def _end_bout(state: State) -> None:
    leader, defender, taken = state.attacker, state.defender, state.taken
    _collect_table(state, taken)
    if state.stock:
        _draw(state, leader, defender)
    state.bouts += 1
    if not state.stock:
        if state.hidden_cards:
            # With the stock empty, a player whose hand is empty turns up his hidden card and plays on.
            hands = state.hands
            for seat in range(state.n):
                if not hands[seat] and not state.out_mask >> seat & 1:
                    turn_up(state, seat)
        go_out(state)
    if game_over(state):
        return
    _next_bout(state, defender, taken)


def _collect_table(state: State, taken: bool) -> None:
    """The cards on the table go to the defender who took them, or to the discard pile."""
    table = state.table_mask()
    defender = state.defender
    if taken:
        state.hands[defender] |= table
        if state.one_card:
            state.announced &= ~(1 << defender)
            state.forgot &= ~(1 << defender)
    else:
        state.discard |= table
        state.discard_count += popcount(table)
        state.discarded_once = True


def _draw(state: State, leader: int, defender: int) -> None:
    """Hands are refilled to six from the stock. Draw order: the leader first, then clockwise from the final
    defender's left, the final defender last; a leader who ended as the defender draws last."""
    hands, n, stock = state.hands, state.n, state.stock
    order = [leader] if leader != defender else []
    for step in range(1, n):
        seat = (defender + step) % n
        if seat != leader:
            order.append(seat)
    order.append(defender)
    for seat in order:
        hand = hands[seat]
        need = HAND_SIZE - popcount(hand)
        while need > 0 and stock:
            hand |= 1 << stock.pop()
            need -= 1
        hands[seat] = hand
    if not stock and state.hidden_cards:
        _stock_ran_out(state)


def _stock_ran_out(state: State) -> None:
    """The face-up card has been drawn: the card under it is turned up, stays out of play and names the trump
    from now on; a joker means no trumps (RULES.md, Aktobe)."""
    card = state.hidden_trump
    if card < 0:
        return
    state.trump = suit_of(card)
    state.beaters = BEATERS[state.rules.joker_beats][state.trump + 1]


def go_out(state: State) -> None:
    """With the stock empty, players whose hands are empty go out, in the order in which they played their
    last card (``emptied``), at the end of a bout or between two bouts."""
    hands = state.hands
    for seat in state.emptied + list(range(state.n)):
        if not hands[seat] and not state.out_mask >> seat & 1:
            state.out.append(seat)
            state.out_bouts.append(state.bouts)
            state.out_mask |= 1 << seat


def _next_bout(state: State, defender: int, taken: bool) -> None:
    """Who leads the next bout and against whom, and a clear table for it."""
    hands = state.hands
    team_of = state.team_of
    if team_of is None:
        if taken or not hands[defender]:
            leader = next_with_cards(state, defender)
        else:
            leader = defender
        state.defender = next_with_cards(state, leader)
    else:
        # Teams: the lead falls to the defender (beaten) or to the seat on the taker's left; if that
        # player is out his next partner with cards leads, against the opponent he would have attacked.
        lead_seat = (defender + 1) % state.n if taken else defender
        team = team_of[lead_seat]
        leader = lead_seat
        if not hands[lead_seat]:
            partner = next_partner_with_cards(state, lead_seat, team)
            if partner >= 0:
                leader = partner
        state.defender = next_opponent_with_cards(state, lead_seat, team)
    state.attacker = leader
    clear_bout(state)
    if state.special:
        state.duel_open = False
    state.limit = bout_limit(state)


# --- the end of the game ---------------------------------------------------------------------------


def game_over(state: State) -> bool:
    n = state.n
    durak: int | None = None
    losing_team: list[int] | None = None
    winner = -1
    if state.teams is None:
        remaining = n - len(state.out)
        if remaining > 1:
            return False
        if remaining == 1:
            durak = next(seat for seat in range(n) if not state.out_mask >> seat & 1)
            winner = state.out[-1]
    else:
        done = [all(state.out_mask >> seat & 1 for seat in team) for team in state.teams]
        if not any(done):
            return False
        if not all(done):
            winning = 0 if done[0] else 1
            losing_team = list(state.teams[1 - winning])
            winner = [seat for seat in state.out if state.team_of and state.team_of[seat] == winning][-1]
    state.finished = True
    decided = durak is not None or losing_team is not None
    state.result = GameResult(
        outcome=DURAK if decided else DRAW,
        durak=durak,
        losing_team=None if losing_team is None else tuple(losing_team),
        out_order=tuple(state.out),
        epaulettes=_epaulettes(state, winner, durak) if decided else None,
    )
    # The table is cleared; attacker and defender keep their values from the final bout.
    clear_table(state)
    return True


def surrender(state: State, seat: int) -> None:
    """``seat`` gives up (the ``surrender`` action; a clock's fall is recorded as one): the game ends at once,
    the table as it stands, with him as the durak, or his whole team losing in a team game. Whoever already
    went out keeps his place; ``places`` and ``settlement`` then rank and pay as after any durak."""
    team = None if state.teams is None or state.team_of is None else state.teams[state.team_of[seat]]
    state.finished = True
    state.result = GameResult(
        outcome=DURAK,
        durak=seat if team is None else None,
        losing_team=None if team is None else tuple(sorted(team)),
        out_order=tuple(state.out),
    )


def _epaulettes(state: State, winner: int, durak: int | None) -> Epaulettes | None:
    """RULES.md, Epaulettes: every card the winning side's last player to go out played in the final
    bout was an attack, throw-in or transfer card of the epaulette rank (not a cover), and at least one
    of them is not a trump. The rank is his side's (6, or its rung of the epaulette ladder); on the
    ladder's last rung the series' queen is hung alone, trump or not (seed 000)."""
    if winner < 0 or state.covered >> winner & 1:
        return None
    cards = state.played[winner]
    rank = state.epaulette_ranks[winner]
    if not cards:
        return None
    if rank == QUEEN_RANK and state.queen >= 0:
        if cards != 1 << state.queen:
            return None
    else:
        if cards & ~RANK_MASK[rank]:
            return None
        if not cards & ~state.trump_mask():
            return None
    return Epaulettes(seat=durak, by=winner, rank=RANKS[rank], cards=tuple(names(cards)))


def places(state: State) -> list[list[int]]:
    """A finished game's finishing order as groups of seats, best first: players who went out at the
    end of the same bout share a group (they draw each other for ratings); the losers come last as one
    group (the durak, or the losing team's players still holding cards). A draw is a single group."""
    if not state.finished or state.result is None:
        raise IllegalAction("the game is not over")
    if state.result.draw:
        return [list(range(state.n))]
    losers = set(state.result.losers)
    groups: list[list[int]] = []
    last_bout = -1
    for seat, bout in zip(state.out, state.out_bouts):
        if seat in losers:
            continue
        if bout != last_bout:
            groups.append([])
            last_bout = bout
        groups[-1].append(seat)
    winners_left = [seat for seat in range(state.n) if seat not in losers and seat not in state.out]
    if winners_left:
        groups.append(winners_left)
    groups.append(sorted(losers))
    return groups


def settlement(state: State) -> list[int]:
    """Each seat's net chips for a finished game: what it paid in (stake, penalties) against its share
    of the bank. The bank goes in equal shares to the players who are not the durak (not on the losing
    team); whole chips left over go one each to the winners in the order they went out. In a draw each
    player gets back what he paid. Chips are neither made nor lost: the result sums to zero."""
    if not state.finished or state.result is None:
        raise IllegalAction("the game is not over")
    paid = state.paid
    if state.result.draw:
        return [0] * state.n
    losers = set(state.result.losers)
    winners = [seat for seat in state.result.out_order if seat not in losers]
    winners += [seat for seat in range(state.n) if seat not in losers and seat not in winners]
    share, left_over = divmod(state.bank, len(winners))
    net = [-amount for amount in paid]
    for position, seat in enumerate(winners):
        net[seat] += share + (1 if position < left_over else 0)
    return net
