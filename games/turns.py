"""Whose turn it is and what the turn timer plays for a seat that lets its time run out."""

from __future__ import annotations

from games.engine import Action, State, is_legal, legal_actions, throwers
from games.engine.actions import ANNOUNCE, ATTACK, CHALLENGE, DUEL, GIVE, PASS, TAKE


def waiting_seats(state: State) -> list[int]:
    """The seats the game waits for: the leader of a new bout, a defender with uncovered cards, and the
    throwers who still have to say "beaten" or "take it". At a cheating table anyone may also accuse,
    but nobody has to, so an accusation is never waited for."""
    if state.finished:
        return []
    if state.owed:
        # Aktobe: nothing is played until the cards owed (the "one card!" penalty, the duel) are given.
        seats = []
        for entry in state.owed:
            if entry >> 4 not in seats:
                seats.append(entry >> 4)
        return seats
    if not state.attack:
        return [state.attacker]
    seats = []
    if not state.taken and state.open:
        seats.append(state.defender)
    if state.taken or not state.open:
        mask = throwers(state) & ~state.passed
        seats.extend(seat for seat in range(state.n) if mask >> seat & 1 and seat != state.defender)
    return seats


def optional_seats(state: State) -> list[int]:
    """Aktobe: the seats with a move nobody waits for but a bot makes at once: "one card!", the duel for the
    first lead, "how many cards?" of a player seen to forget. A bot in one of them gets to move too."""
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


def _lowest_card(hand: int, trump: int) -> int:
    cards = [card for card in range(hand.bit_length()) if hand >> card & 1]
    # A card's id is rank * 4 + suit: the lowest plain card first, a trump or a joker only when there is no other.
    return min(cards, key=lambda card: (card >= 52 or card & 3 == trump, card >> 2, card & 3))


def default_action(state: State, seat: int) -> Action:
    """RULES-neutral choice when the timer fires: a defender takes, a leader plays his lowest card,
    throwers pass, a player who owes a card (Aktobe) gives his lowest."""
    if state.owed:
        candidate = Action(GIVE, 1 << _lowest_card(state.hands[seat], state.trump))
    elif not state.attack and seat == state.attacker:
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
