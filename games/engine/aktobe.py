"""Aktobe's rules around the bout (RULES.md, The Aktobe variant; docs/aktobe.md), in one place: "one card!"
and "how many cards?", the cards owed and given, the duel for the first lead, the turned-up hidden card
that must cover, and the epaulettes an opponent may not lead.

They apply only where ``state.special`` is set (``Rules.special``): the classic paths never reach this
module's moves, and ``legal`` and ``play`` ask it only behind that flag.
"""

from __future__ import annotations

from .actions import ANNOUNCE, CHALLENGE, DUEL, GIVE, Action
from .cards import QUEEN_RANK, RANK_MASK, SUIT_MASK, card_name, popcount
from .end import end_bout_if_done, game_over, go_out
from .errors import IllegalAction, MalformedRecord
from .state import State, owed_entry, owed_pair
from .table import (
    bout_limit, check_holds, clear_bout, defender_for, next_opponent_with_cards, next_partner_with_cards,
    next_with_cards, remove_from_hand, return_to_hand,
)

# --- what a seat may or must do ---------------------------------------------------------------------


def owed_by(state: State, seat: int) -> int:
    """The index in ``owed`` of the first card ``seat`` still has to give, or -1."""
    for index, (giver, _) in enumerate(state.owed_pairs()):
        if giver == seat:
            return index
    return -1


def one_card_due(state: State, seat: int) -> bool:
    """RULES.md, Aktobe: with the stock empty, a player down to one card must say "one card!"; until he does
    (since his hand last changed) anyone may ask him "how many cards?"."""
    return (
        not state.stock and not state.out_mask >> seat & 1 and not state.announced >> seat & 1
        and popcount(state.hands[seat]) == 1
    )


def lowest_trump(state: State, seat: int) -> int:
    if state.trump < 0:
        return -1
    trumps = state.hands[seat] & SUIT_MASK[state.trump]
    return (trumps & -trumps).bit_length() - 1


def duel_card(state: State, seat: int) -> int:
    """The trump ``seat`` may show in the duel for the first lead: his lowest, if it is lower than the lowest
    trump the leader held when he led; else -1. Jokers are no trumps and never take part."""
    card = lowest_trump(state, seat)
    return card if 0 <= card < state.claim else -1


def must_cover_with(state: State) -> int:
    """The defender's turned-up hidden card if it is all he holds and it beats an open attack card: he must
    cover with it (RULES.md, Aktobe), so he may not take yet. Else -1."""
    defender = state.defender
    card = state.hidden[defender]
    if card < 0 or not state.hidden_up >> defender & 1 or state.hands[defender] != 1 << card:
        return -1
    for attack_card, covering in zip(state.attack, state.cover):
        if covering < 0 and state.beaters[attack_card] >> card & 1:
            return card
    return -1


def epaulette_cards(state: State, seat: int) -> int:
    """The cards ``seat``'s side hangs as epaulettes now: the plain cards of its rank (6, or its rung of the
    ladder); on the ladder's last rung the series' queen alone, trump or not (seed 000)."""
    rank = state.epaulette_ranks[seat]
    if rank == QUEEN_RANK and state.queen >= 0:
        return 1 << state.queen
    return RANK_MASK[rank] & ~state.trump_mask()


def _opponents(state: State, seat: int) -> list[int]:
    team_of = state.team_of
    return [
        other for other in range(state.n)
        if other != seat and not state.out_mask >> other & 1 and (team_of is None or team_of[other] != team_of[seat])
    ]


def barred_leads(state: State, seat: int) -> int:
    """no_attack_with_epaulettes: the cards ``seat`` may not lead, an opponent's epaulettes that are not his
    own side's too; none when they are all he holds, since a leader must lead (docs/aktobe.md, Epaulettes)."""
    barred = 0
    for other in _opponents(state, seat):
        barred |= epaulette_cards(state, other)
    barred &= ~epaulette_cards(state, seat)
    return 0 if state.hands[seat] & ~barred == 0 else barred


# --- Aktobe's moves ---------------------------------------------------------------------------------


def special_play(state: State, seat: int, action: Action) -> bool:
    """Aktobe's checks before any action and its own actions; True if the action was one of them."""
    kind = action.kind
    if state.owed and kind != GIVE:
        giver, receiver = owed_pair(state.owed[0])
        raise IllegalAction(f"seat {giver} must first give seat {receiver} a card")
    if kind == GIVE:
        _give(state, seat, action.cards)
    elif kind == ANNOUNCE:
        _announce(state, seat)
    elif kind == CHALLENGE:
        _challenge(state, seat, action.target)
    elif kind == DUEL:
        _duel(state, seat, action.cards)
    else:
        return False
    return True


def _announce(state: State, seat: int) -> None:
    if not state.one_card:
        raise IllegalAction('"one card!" is not played at this table')
    if state.stock:
        raise IllegalAction('"one card!" is said only once the stock is empty')
    if popcount(state.hands[seat]) != 1:
        raise IllegalAction(f'seat {seat} holds {popcount(state.hands[seat])} cards, not one')
    if state.announced >> seat & 1:
        raise IllegalAction(f'seat {seat} has already said "one card!"')
    state.announced |= 1 << seat


def _challenge(state: State, seat: int, target: int) -> None:
    if not state.one_card:
        raise IllegalAction('"how many cards?" is not asked at this table')
    if not 0 <= target < state.n:
        raise MalformedRecord(f"no such seat: {target}")
    if target == seat:
        raise IllegalAction("a player does not ask himself how many cards he holds")
    if state.out_mask >> target & 1:
        raise IllegalAction(f"seat {target} is out of the game")
    if state.stock:
        raise IllegalAction('"how many cards?" is asked only once the stock is empty')
    if popcount(state.hands[target]) != 1:
        raise IllegalAction(f"seat {target} holds {popcount(state.hands[target])} cards, not one")
    if state.announced >> target & 1:
        raise IllegalAction(f'seat {target} has said "one card!"')
    giving = givers(state, target)
    if not giving:
        raise IllegalAction(f"nobody holds a card to give seat {target}")
    for other in giving:
        state.owed.append(owed_entry(other, target))


def givers(state: State, target: int) -> list[int]:
    """Who gives ``target`` a card when he is caught without "one card!": each other player still in the game
    who holds cards, going round from his left."""
    givers = []
    for step in range(1, state.n):
        other = (target + step) % state.n
        if not state.out_mask >> other & 1 and state.hands[other]:
            givers.append(other)
    return givers


def _give(state: State, seat: int, cards: int) -> None:
    index = owed_by(state, seat)
    if index < 0:
        if not state.owed:
            raise IllegalAction("no card is owed")
        raise IllegalAction(f"seat {seat} owes no card")
    check_holds(state, seat, cards, "give")
    if cards & (cards - 1):
        raise IllegalAction("a card is given one at a time")
    _, receiver = owed_pair(state.owed.pop(index))
    remove_from_hand(state, seat, cards)
    return_to_hand(state, receiver, cards)
    if not state.owed:
        # Cards have changed hands: every thrower may think again, and a bout that is done ends.
        state.passed = 0
        if state.attack:
            end_bout_if_done(state)
        else:
            settle_between_bouts(state)


def settle_between_bouts(state: State) -> None:
    """Cards given between two bouts may have emptied a hand with the stock empty: that player goes out now,
    as at the end of a bout, and if he was to lead the next player with cards on his left leads instead."""
    hands = state.hands
    if not state.stock:
        go_out(state)
        state.emptied = []
        if game_over(state):
            return
    leader = state.attacker
    if not hands[leader]:
        if state.team_of is None:
            leader = next_with_cards(state, leader)
        else:
            team = state.team_of[leader]
            leader = next_partner_with_cards(state, state.attacker, team)
            if leader < 0:
                leader = next_opponent_with_cards(state, state.attacker, team)
    state.attacker = leader
    state.defender = defender_for(state, leader)
    state.limit = bout_limit(state)


def _duel(state: State, seat: int, cards: int) -> None:
    if not state.rules.trump_duel:
        raise IllegalAction("the duel for the first lead is not played at this table")
    if not state.duel_open:
        raise IllegalAction("a duel for the first lead is fought only during the game's first bout")
    check_holds(state, seat, cards, "show")
    if seat == state.attacker:
        raise IllegalAction(f"seat {seat} leads: he does not duel himself")
    card = (cards & -cards).bit_length() - 1
    if cards & (cards - 1) or card != lowest_trump(state, seat):
        raise IllegalAction("a duel shows one's lowest trump")
    if card >= state.claim:
        raise IllegalAction(f"{card_name(card)} is not lower than the leader's lowest trump")
    loser = state.attacker
    # The lead was not his: the cards go back to whoever played them and the bout starts again.
    hands = state.hands
    for attack_card, by in zip(state.attack, state.attack_by):
        hands[by] |= 1 << attack_card
    for covering in state.cover:
        if covering >= 0:
            hands[state.defender] |= 1 << covering
    clear_bout(state)
    state.announced = 0
    state.forgot = 0
    state.attacker = seat
    state.defender = defender_for(state, seat)
    state.limit = bout_limit(state)
    state.claim = card
    # RULES.md, Aktobe: the one who showed the lower trump "takes the lead and is given one card by the one
    # who led" (seed 004 reads the other way round; RULES.md is the reading we play: docs/aktobe.md).
    state.owed.append(owed_entry(loser, seat))
