"""bench/duplicate.py's field of search bots (bench.searchers): with the arena's ``first_listed`` a game between
two searchers depends on the deal, the seats and the budgets alone, not on the arena's generator nor on the
games played before; and the pieces the field's figures are built from (the tied rank correlation, the
calibration, the endgame solver's count of positions, the field at other budgets)."""

from __future__ import annotations

import random

import pytest

from bench.duplicate import (
    SEARCH_BUDGETS, SEARCH_FIELD, SEARCHERS, _budgets, _play, calibrate_field, search_field, spearman, spearman_tied,
)
from bench.searchers import Searcher
from games.bots.arena import play_game
from games.bots.endgame import exact_endgame
from games.bots.heuristic import decide
from games.bots.search import ENDGAME_MOST_POSITIONS, SearchBot
from games.engine import actors, deal, play
from games.engine.actions import Action
from games.engine.legal import legal_actions
from games.engine.rules import preset_rules

RULES = preset_rules("podkidnoy")


def _game(seed: str, first: Searcher, second: Searcher, rng: random.Random, rotation: int = 0) -> list[tuple[int, Action]]:
    state = deal(RULES, 2, seed=seed, salt="test", rotation=rotation).state()
    bots = [first.for_game(seed, rotation % 2), second.for_game(seed, (1 + rotation) % 2)]
    record = play_game(state, bots, rng, first_listed=True)  # checks every move with the engine's play()
    assert state.finished
    return record.actions


def test_a_game_of_searchers_depends_on_the_deal_seats_and_budgets_alone() -> None:
    weak, strong = Searcher(2), Searcher(6)
    for number in range(2):
        seed = f"searchers {number}"
        games = {tuple(map(str, _game(seed, weak, strong, random.Random(draw)))) for draw in range(2)}
        # Another game first (the bots' proofs and generators are the game's own), another arena generator.
        _game("another deal", strong, weak, random.Random(5))
        games.add(tuple(map(str, _game(seed, weak, strong, random.Random(9)))))
        assert len(games) == 1
    # The random numbers are the deal's: another deal, another stream, and another game.
    assert _game("searchers 0", weak, strong, random.Random(0)) != _game("searchers 1", weak, strong, random.Random(0))


def test_the_bench_plays_a_searchers_game_the_same_whatever_the_arena_draws() -> None:
    first, second = Searcher(1), Searcher(3)
    results = [_play("bench deal", 1, [first, second], random.Random(draw), duplicate=True, ordered=True)
               for draw in range(2)]  # fmt: skip
    assert results[0] == results[1]


def test_the_tied_rank_correlation() -> None:
    strengths = {"a": 0.9, "b": 0.7, "c": 0.5, "d": 0.2}
    for order in (["a", "b", "c", "d"], ["b", "a", "d", "c"], ["d", "c", "b", "a"]):
        assert abs(spearman_tied(order, strengths) - spearman(order, strengths)) < 1e-12
    tied = {"a": 0.9, "a2": 0.9, "c": 0.5, "d": 0.2}
    # Copies of one bot in either order rank alike; a correlation of 1 is out of reach with ties in one list.
    assert spearman_tied(["a", "a2", "c", "d"], tied) == spearman_tied(["a2", "a", "c", "d"], tied)
    assert 0.9 < spearman_tied(["a", "a2", "c", "d"], tied) < 1
    assert spearman_tied(["d", "c", "a", "a2"], tied) < -0.9


def test_the_calibration_scores_each_deal_from_both_sides() -> None:
    field = {"one": Searcher(1), "four": Searcher(4)}
    strengths, errors = calibrate_field(field, 2, ordered=True)
    assert abs(strengths["one"] + strengths["four"] - 1) < 1e-12
    assert errors["one"] == errors["four"]


def test_the_endgame_solver_budget_is_a_count_when_given() -> None:
    # Heads-up with the stock gone: given no positions the solver proves nothing; given the count the default
    # budget of a CPU second comes to, it finds the same move.
    proven = 0
    for number in range(6):
        state = deal(RULES, 2, seed=f"endgame {number}", salt="test").state()
        while not exact_endgame(state, 1):
            seat = actors(state)[0]
            play(state, seat, decide(state, seat, state.hands))
        if state.finished:
            continue
        seat = actors(state)[0]
        legal = tuple(legal_actions(state, seat))
        move = decide(state, seat, state.hands)
        assert SearchBot(1.0, 10, endgame_positions=0).endgame_move(state, seat, move, legal) is None
        default = SearchBot(1.0, 10).endgame_move(state, seat, move, legal)
        assert SearchBot(1e6, 10, endgame_positions=ENDGAME_MOST_POSITIONS).endgame_move(state, seat, move, legal) == default
        proven += default is not None
    assert proven > 0


def test_the_field_at_other_budgets_plays_each_budget_alike() -> None:
    # The default field is unchanged: each of SEARCH_BUDGETS twice, copies side by side.
    assert SEARCH_FIELD == [f"search{iterations}" for iterations in SEARCH_BUDGETS for _ in range(2)]
    assert [searcher.iterations for searcher in SEARCHERS.values()] == list(SEARCH_BUDGETS)
    searchers, field = search_field((128, 256, 512, 1024))
    assert [searcher.iterations for searcher in searchers.values()] == [128, 256, 512, 1024]
    assert field == [name for name in ("search128", "search256", "search512", "search1024") for _ in range(4)]
    assert _budgets("64,128") == (64, 128)
    assert search_field((64, 128))[1].count("search128") == 8
    for wrong in ((), (1, 2, 3), (8, 8), (0, 4)):
        with pytest.raises(ValueError):
            search_field(wrong)


def test_a_stream_gives_a_replay_fresh_random_numbers() -> None:
    # search_self_deal_share's replays: one stream plays a deal one way; other streams play it otherwise; no
    # stream is the field's seeding.
    games = {stream: tuple(map(str, _game("streams", Searcher(3, stream=stream), Searcher(3, stream=stream),
                                          random.Random(0)))) for stream in ("", "replay 0", "replay 1")}  # fmt: skip
    assert games["replay 0"] == tuple(map(str, _game("streams", Searcher(3, stream="replay 0"),
                                                     Searcher(3, stream="replay 0"), random.Random(7))))  # fmt: skip
    assert len(set(games.values())) == 3
    assert games[""] == tuple(map(str, _game("streams", Searcher(3), Searcher(3), random.Random(1))))
