"""Whose turn it is and what the turn timer plays for a seat that lets its time run out."""

from __future__ import annotations

from games.engine import Action, State, is_legal, legal_actions, throwers
from games.engine.actions import ATTACK, PASS, TAKE


def waiting_seats(state: State) -> list[int]:
    """The seats the game waits for: the leader of a new bout, a defender with uncovered cards, and the
    throwers who still have to say "beaten" or "take it". At a cheating table anyone may also accuse,
    but nobody has to, so an accusation is never waited for."""
    if state.finished:
        return []
    if not state.attack:
        return [state.attacker]
    seats = []
    if not state.taken and state.open:
        seats.append(state.defender)
    if state.taken or not state.open:
        mask = throwers(state) & ~state.passed
        seats.extend(seat for seat in range(state.n) if mask >> seat & 1 and seat != state.defender)
    return seats


def _lowest_card(hand: int, trump: int) -> int:
    cards = [card for card in range(hand.bit_length()) if hand >> card & 1]
    # A card's id is rank * 4 + suit: the lowest plain card first, a trump only when there is no other.
    return min(cards, key=lambda card: (card & 3 == trump, card >> 2, card & 3))


def default_action(state: State, seat: int) -> Action:
    """RULES-neutral choice when the timer fires: a defender takes, a leader plays his lowest card,
    throwers pass."""
    if not state.attack and seat == state.attacker:
        candidate = Action(ATTACK, 1 << _lowest_card(state.hands[seat], state.trump))
    elif seat == state.defender:
        candidate = Action(TAKE)
    else:
        candidate = Action(PASS)
    if is_legal(state, seat, candidate):
        return candidate
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    return legal[0]
