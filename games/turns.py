"""Whose turn it is and what the turn timer plays for a seat that lets its time run out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import Action, State, is_legal, legal_actions
from games.engine.acting import PROMPTED, WAITED, who_acts
from games.engine.actions import ATTACK, GIVE, PASS, TAKE

if TYPE_CHECKING:
    from games.models import Game


def turn_seconds(game: Game) -> int:
    """A per-move game's turn length: its table's, as the locked read gave it with the row
    (`turn_seconds_of_table`, games.services.sql), else read from the table."""
    seconds = getattr(game, "turn_seconds_of_table", None)
    return int(seconds) if seconds is not None else game.table.turn_seconds


def waiting_seats(state: State) -> list[int]:
    """The seats the turn timer waits for (games.engine.acting, WAITED)."""
    return who_acts(state, WAITED)


def optional_seats(state: State) -> list[int]:
    """Aktobe: the seats with an optional move a bot makes at once (games.engine.acting, PROMPTED)."""
    return who_acts(state, PROMPTED)


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
