"""games.botplay: a bot seat's move; only a searching level has the game's deal replayed for its evidence."""

from __future__ import annotations

import random

import pytest

from games.botplay import bot_action
from games.engine import Rules, State, legal_actions, play
from games.engine.actions import ATTACK
from tests.games.bots.variants import new_state


def _in_a_bout() -> tuple[State, State, list[dict[str, object]]]:
    """A heads-up podkidnoy game one lead in: the state as dealt, the state now and the log."""
    dealt = new_state(Rules(), 2, "botplay-bout")
    state = dealt.copy()
    seat = state.attacker
    lead = next(action for action in legal_actions(state, seat) if action.kind == ATTACK)
    play(state, seat, lead)
    return dealt, state, [{"seat": seat, **lead.to_json()}]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_level_that_does_not_search_never_asks_for_the_deal(level: str) -> None:
    dealt, state, log = _in_a_bout()

    def deal() -> State:
        raise AssertionError("the deal was replayed for a bot that does not read it")

    action = bot_action(state=state, seat=state.defender, level=level, log=log, rng=random.Random(1), dealt=deal)
    assert action in legal_actions(state, state.defender)


def test_a_searching_level_reads_the_bout_from_the_deal() -> None:
    dealt, state, log = _in_a_bout()
    asked: list[State] = []

    def deal() -> State:
        asked.append(dealt)
        return dealt.copy()

    action = bot_action(state=state, seat=state.defender, level="hard", log=log, rng=random.Random(1), dealt=deal)
    assert asked and action in legal_actions(state, state.defender)
