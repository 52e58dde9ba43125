"""Bots do not pass the same cards round for ever (heuristic.LONG_GAME_BOUTS): past that many bouts they
sometimes play a random honest move. Three medium bots at Aktobe once went round for ever on a deal where the
cheapest card of each leader was one of the sevens and eights being taken and passed on; a live table of bots
would have played that game until the server stopped."""

from __future__ import annotations

import random

import pytest

from games.botplay import bot_action
from games.bots import heuristic
from games.engine import Rules, legal_actions, play
from games.engine.actions import ACCUSE, CHALLENGE
from games.turns import optional_seats, waiting_seats

from .variants import VARIANTS, new_state, random_positions, variant_id


def _bots_play(preset: str, players: int, seed: str, most: int) -> int | None:
    """Medium bots play the deal through the live tables' path (the seats the game waits for, the optional
    moves first); the number of moves, or None if it had not ended after ``most``."""
    state = new_state(Rules.from_dict({"preset": preset}), players, seed)
    start = state.copy()
    log: list[dict[str, object]] = []
    rng = random.Random(seed)
    for moves in range(most):
        if state.finished:
            return moves
        seat = (optional_seats(state) + waiting_seats(state))[0]
        action = bot_action(state=state.copy(), seat=seat, level="medium", log=log, rng=rng, dealt=start.copy)
        play(state, seat, action)
        log.append({"seat": seat, **action.to_json()})
    return None


def test_three_medium_bots_finish_the_aktobe_deal_that_went_round_for_ever() -> None:
    # Without the random moves this deal passed 7S 7C 7H and 8S 8C 8D 8H round for ever after bout 60.
    assert _bots_play("aktobe", 3, "b-39", 5_000) is not None


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_long_game_moves_are_random_honest_moves_only_past_the_bout_limit(variant: tuple[Rules, int]) -> None:
    rules, players = variant
    rng = random.Random(5)
    tried = 0
    for state, seat, _log in random_positions(rules, players, "long-games", 7):
        legal = legal_actions(state, seat)
        honest = [action for action in legal if action.kind not in (ACCUSE, CHALLENGE) and heuristic.honest(state, action)]
        if not honest or state.special and state.owed:
            continue
        tried += 1
        state.bouts = heuristic.LONG_GAME_BOUTS
        before = rng.getstate()
        assert heuristic.long_game_move(state, legal, rng) is None
        assert rng.getstate() == before  # nothing drawn: a normal game's moves are not disturbed
        state.bouts = heuristic.LONG_GAME_BOUTS + 1
        chosen = [heuristic.long_game_move(state, legal, rng) for _ in range(40)]
        made = [action for action in chosen if action is not None]
        assert 0 < len(made) < len(chosen)
        assert all(action in honest for action in made)
    assert tried > 3
