"""A surrender is an engine action (issue 40): the game ends at once with the one who gave up as the durak (his
team losing), ``places`` and ``settlement`` rank and pay it as after any durak, the record carries it and
``replay`` reads it; ``legal_actions`` never lists it, and it is refused once the game is over or the seat is
out."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given

from games.engine import IllegalAction, Rules, State, legal_actions, places, play, replay_json, settlement
from games.engine.actions import SURRENDER, SURRENDER_ACTION, Action, action_from_json
from tests.games.engine.test_properties import record_of
from tests.games.engine.random_games import Table, property_settings, random_game, tables


def expected(state: State, seat: int) -> tuple[list[list[int]], list[int]]:
    """Places and net chips when ``seat`` gives up, worked out from the state alone: those who went out keep
    their order (one group a bout), the other winners share the place after them, the losers come last; the
    bank goes in equal shares to the winners, the odd chips one each in the order they went out."""
    team = [seat] if state.teams is None else sorted(next(team for team in state.teams if seat in team))
    out = list(state.out)
    groups: list[list[int]] = []
    bouts: list[int] = []
    for one, bout in zip(out, state.out_bouts):
        if one in team:
            continue
        if bouts and bouts[-1] == bout:
            groups[-1].append(one)
        else:
            groups.append([one])
            bouts.append(bout)
    rest = [one for one in range(state.n) if one not in team and one not in out]
    groups += [rest] if rest else []
    groups.append(team)
    winners = [one for one in out if one not in team] + rest
    net = [-paid for paid in state.paid]
    share, odd = divmod(state.bank, len(winners))
    for position, one in enumerate(winners):
        net[one] += share + (position < odd)
    return groups, net


SURRENDERED: list[Table] = []


@property_settings(max_examples=40)
@given(table=tables())
def test_a_surrender_ends_the_game_with_him_losing_at_any_moment(table: Table) -> None:
    state, dealt = table.new_state()
    rng = random.Random(table.seed)
    actions: list[tuple[int, Action]] = []
    steps = rng.randrange(80)  # most games last longer: the surrender comes mid-game
    for count, (seat, action) in enumerate(random_game(state, rng)):
        actions.append((seat, action))
        if count >= steps:
            break
    if state.finished:
        return
    SURRENDERED.append(table)
    in_game = [seat for seat in range(state.n) if not state.out_mask >> seat & 1]
    seat = rng.choice(in_game)
    assert all(SURRENDER_ACTION not in legal_actions(state, one) for one in range(state.n))
    want_places, want_net = expected(state, seat)
    before = state.copy()
    play(state, seat, SURRENDER_ACTION)
    assert state.finished and state.result is not None
    assert state.result.losers == tuple(want_places[-1])
    assert (state.result.durak is None) == (state.teams is not None)
    assert state.result.out_order == tuple(before.out)
    assert places(state) == want_places
    assert settlement(state) == want_net and sum(want_net) == 0
    assert (state.hands, state.attack, state.cover, len(state.stock)) == (
        before.hands, before.attack, before.cover, len(before.stock)
    )
    # The record carries it, and replay reads it back to the same end.
    shown = replay_json(json.loads(json.dumps(record_of(table, dealt, [*actions, (seat, SURRENDER_ACTION)])))).to_json()
    assert shown["ok"] and shown["finished"] and shown["result"] == state.result.to_json()
    for one in range(state.n):
        with pytest.raises(IllegalAction, match="over"):
            play(state, one, SURRENDER_ACTION)


def test_a_seat_that_went_out_cannot_surrender() -> None:
    table = Table(Rules(), 3, 11, 0)
    state, _ = table.new_state()
    rng = random.Random(3)
    for _ in random_game(state, rng):
        if state.out and not state.finished:
            break
    assert state.out and not state.finished
    with pytest.raises(IllegalAction, match="out of the game"):
        play(state, state.out[0], SURRENDER_ACTION)


def test_the_property_reaches_the_surrender() -> None:
    """Most of the property's games are still being played when the surrender comes."""
    SURRENDERED.clear()
    test_a_surrender_ends_the_game_with_him_losing_at_any_moment()
    assert len(SURRENDERED) >= 30, len(SURRENDERED)


def test_the_surrender_action_in_json() -> None:
    assert SURRENDER_ACTION.to_json() == {"type": "surrender"}
    assert action_from_json({"type": "surrender"}) == Action(SURRENDER) == SURRENDER_ACTION
    assert str(SURRENDER_ACTION) == "surrender"

