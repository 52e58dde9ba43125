"""Legal moves: ``legal_actions(state, seat)``, every action a seat may take now.

RULES.md is the specification, its "Decisions" section included. ``play.is_legal`` is the ground truth these
lists follow: at a cheating table, throw-ins that mix several cards of ranks missing from the table are legal
but not listed; every other legal action is.
"""

from __future__ import annotations

from .actions import (
    ACCUSE, ANNOUNCE, ATTACK, CHALLENGE, COVER, DUEL, GIVE, PASS, SHOW_TRUMP, TAKE, THROW, TRANSFER, Action,
)
from .aktobe import barred_leads, duel_card, givers, must_cover_with, one_card_due, owed_by
from .cards import CARDS_OF_RANKS, RANK_MASK, RANK_OF_BIT_INDEX, rank_of
from .state import State
from .table import lead_limit, submasks, throw_room, throwers, transfer_room


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it is not his to act).

    At a cheating table, throw-ins that mix several cards of ranks missing from the table are legal
    but not listed (``_throw_actions``); every other legal action is listed."""
    if state.finished or state.out_mask >> seat & 1:
        return []
    if state.special:
        return _special_legal_actions(state, seat)
    return _bout_actions(state, seat)


def _bout_actions(state: State, seat: int) -> list[Action]:
    if not state.attack:
        return _lead_actions(state, seat)
    if seat == state.defender:
        actions = _defence_actions(state, seat)
    elif throwers(state) >> seat & 1 and not state.passed >> seat & 1:
        actions = _throw_actions(state, seat)
    else:
        actions = []
    if state.rules.cheating:
        _add_accusations(state, seat, actions)
    return actions


def _lead_actions(state: State, seat: int) -> list[Action]:
    """A lead: one card, or several of one rank, within the limit."""
    hand = state.hands[seat]
    limit = state.limit
    if seat != state.attacker:
        # Aktobe: before the game's first lead any trump holder may make it (trump_duel).
        if not (state.opening and hand & state.trump_mask()):
            return []
        limit = lead_limit(state, seat)
    actions = []
    rest = hand
    while rest:
        low = rest & -rest
        same = hand & RANK_MASK[RANK_OF_BIT_INDEX[low.bit_length() - 1]]
        rest &= ~same
        if same == low:
            actions.append(Action(ATTACK, low))
        else:
            for sub in submasks(same, limit):
                actions.append(Action(ATTACK, sub))
    if state.special and state.rules.no_attack_with_epaulettes:
        barred = barred_leads(state, seat)
        if barred:
            actions = [action for action in actions if not action.cards & barred]
    return actions


def _defence_actions(state: State, seat: int) -> list[Action]:
    """The defender's covers (any card at a cheating table), his take, his transfers."""
    actions: list[Action] = []
    hand = state.hands[seat]
    if state.forced_take:
        # An epaulette lead must be taken (no_attack_with_epaulettes): no cover, no transfer.
        if not state.taken:
            actions.append(Action(TAKE))
    elif not state.taken:
        if state.open:
            cheating = state.rules.cheating
            beaters = state.beaters
            for attack_card, covering in zip(state.attack, state.cover):
                if covering < 0:
                    candidates = hand if cheating else hand & beaters[attack_card]
                    while candidates:
                        low = candidates & -candidates
                        actions.append(Action(COVER, low, attack_card))
                        candidates ^= low
            if not (state.hidden_cards and must_cover_with(state) >= 0):
                actions.append(Action(TAKE))
        if state.rules.transfer:
            _add_transfers(state, seat, hand, actions)
    return actions


def _throw_actions(state: State, seat: int) -> list[Action]:
    """A thrower's throw-ins within the room left, and his pass once the defence is complete or taken."""
    actions = []
    hand = state.hands[seat]
    room = throw_room(state)
    if room > 0:
        honest = hand & CARDS_OF_RANKS[state.table_ranks]
        for sub in submasks(honest, room):
            actions.append(Action(THROW, sub))
        if state.rules.cheating:
            # A dishonest throw-in is listed one card at a time: throws that mix several cards
            # are legal too (``is_legal``), but listing them all would grow as 2 ** hand size.
            dishonest = hand & ~honest
            while dishonest:
                low = dishonest & -dishonest
                actions.append(Action(THROW, low))
                dishonest ^= low
    if state.taken or not state.open:
        actions.append(Action(PASS))
    return actions


def _special_legal_actions(state: State, seat: int) -> list[Action]:
    """Aktobe's moves around the bout's (docs/aktobe.md): while cards are owed only they are given; "one card!"
    and "how many cards?" with the stock empty; a lower trump shown during the first bout."""
    if state.owed:
        giver = owed_by(state, seat)
        if giver < 0:
            return []
        actions = []
        hand = state.hands[seat]
        while hand:
            low = hand & -hand
            actions.append(Action(GIVE, low))
            hand ^= low
        return actions
    actions = _bout_actions(state, seat)
    if state.one_card and not state.stock:
        if one_card_due(state, seat):
            actions.append(Action(ANNOUNCE))
        for other in range(state.n):
            if other != seat and one_card_due(state, other) and givers(state, other):
                actions.append(Action(CHALLENGE, 0, other))
    if state.duel_open and seat != state.attacker:
        card = duel_card(state, seat)
        if card >= 0:
            actions.append(Action(DUEL, 1 << card))
    return actions


def _add_transfers(state: State, seat: int, hand: int, actions: list[Action]) -> None:
    target, room = transfer_room(state, seat)
    if target < 0 or room < 0:
        return
    rank = rank_of(state.attack[0])
    same = hand & RANK_MASK[rank]
    if room > 0:
        for sub in submasks(same, room):
            actions.append(Action(TRANSFER, sub))
    if state.rules.transfer_by_showing_trump and not state.shown >> seat & 1 and state.trump >= 0 and rank < 13:
        trump_card = rank * 4 + state.trump
        if same >> trump_card & 1:
            actions.append(Action(SHOW_TRUMP, 1 << trump_card))


def _add_accusations(state: State, seat: int, actions: list[Action]) -> None:
    defender = state.defender
    for attack_card, by, covering in zip(state.attack, state.attack_by, state.cover):
        if by != seat:
            actions.append(Action(ACCUSE, 1 << attack_card))
        if covering >= 0 and defender != seat:
            actions.append(Action(ACCUSE, 1 << covering))
