"""The heads-up endgame solver (games.bots.endgame): a move it proves to win is won against every reply,
and it is asked only where the seat knows every card."""

from __future__ import annotations

import random

from games.bots import heuristic
from games.bots.endgame import (
    MOST_KEPT_POSITIONS, NOT_LOSE, WIN, ProofTables, exact_endgame, position_key, prove, winning_move,
)
from games.bots.search import SearchBot, solver_first_move
from games.engine import Rules, State, actors, legal_actions, play_trusted
from tests.games.bots.test_no_peeking import heuristic_positions
from tests.games.bots.test_strength import endgames
from tests.games.bots.variants import new_state, variant_id

BUDGET = 400_000


def _play_out_the_proof(position: State, seat: int, goal: int, rng: random.Random) -> State:
    """From a position where `seat` has a proven move: he plays a proven move whenever he acts (the proof
    must hold after every reply), the other seat plays at random, either may be drawn to act first."""
    state = position.copy()
    while not state.finished:
        seats = actors(state)
        actor = seats[int(rng.random() * len(seats))]
        legal = list(legal_actions(state, actor))
        if actor == seat:
            move = winning_move(state, seat, legal, BUDGET, goal)
            assert move is not None, "a proven position is no longer proven after the other seat's reply"
        else:
            move = legal[int(rng.random() * len(legal))]
        play_trusted(state, actor, move)
    return state


def test_a_move_proven_to_win_wins_whatever_the_other_seat_plays() -> None:
    proven = {WIN: 0, NOT_LOSE: 0}
    for number, (position, _log) in enumerate(endgames(24, "solver")):
        assert exact_endgame(position)
        for seat in actors(position):
            for goal in (WIN, NOT_LOSE):
                move = winning_move(position, seat, list(legal_actions(position, seat)), BUDGET, goal)
                if move is None:
                    continue
                proven[goal] += 1
                for line in range(4):
                    after = position.copy()
                    play_trusted(after, seat, move)
                    end = _play_out_the_proof(after, seat, goal, random.Random(f"{number}-{line}"))
                    assert end.result is not None
                    durak = end.result.durak
                    assert durak != seat and (goal == NOT_LOSE or durak is not None), (number, seat, goal, durak)
    # The positions are real endgames: the solver proves wins in many, and cannot in the rest.
    assert proven[WIN] >= 5 and proven[NOT_LOSE] >= proven[WIN]


def test_only_heads_up_with_the_stock_empty_is_solved() -> None:
    position, _log = endgames(1, "solver-where")[0]
    assert exact_endgame(position)
    with_stock = position.copy()
    with_stock.stock = [0]
    assert not exact_endgame(with_stock)
    assert exact_endgame(with_stock, 1)  # the face-up trump alone: the search bot solves it too
    with_stock.stock = [0, 1]
    assert not exact_endgame(with_stock, 1)
    assert not exact_endgame(new_state(Rules(), 3, "three"))
    assert not exact_endgame(new_state(Rules(cheating=True), 2, "cheating"))


def _decisions(count: int, seed: str) -> list[tuple[State, int]]:
    """Each decision of heuristic-against-heuristic play from ``count`` endgames where the seat has a choice."""
    decisions: list[tuple[State, int]] = []
    for number, (position, _log) in enumerate(endgames(count, seed)):
        state = position.copy()
        rng = random.Random(number)
        while not state.finished:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            if len(legal_actions(state, seat)) > 1:
                decisions.append((state.copy(), seat))
            play_trusted(state, seat, heuristic.decide(state, seat, state.hands))
    return decisions


def test_kept_tables_and_the_tree_order_prove_what_a_fresh_solver_proves() -> None:
    """The search bot's solver tries the heuristic's move first in its tree and keeps what it proved from one
    move to the next: neither may change what is proven, only how fast."""
    kept = ProofTables()
    agreed = wins = kept_nodes = fresh_nodes = 0
    for state, seat in _decisions(12, "kept-tables"):
        moves = list(legal_actions(state, seat))
        fresh = prove(state, seat, moves, BUDGET)
        ordered = prove(state, seat, moves, BUDGET, WIN, kept, solver_first_move)
        if fresh.complete and ordered.complete:
            assert ordered.move == fresh.move
            agreed += 1
            wins += fresh.move is not None
            kept_nodes += ordered.nodes
            fresh_nodes += fresh.nodes
    assert agreed >= 50 and 10 <= wins < agreed, (agreed, wins)
    # Along a game many positions were searched at an earlier move already (about two thirds as many
    # positions are searched; the order alone saves about a seventh).
    assert kept_nodes < 0.8 * fresh_nodes, (kept_nodes, fresh_nodes)


def test_a_kept_table_is_one_rule_set_and_trump_and_is_emptied_when_full() -> None:
    tables = ProofTables()
    position, _log = endgames(1, "tables")[0]
    other_trump = position.copy()
    other_trump.trump = (position.trump + 1) % 4
    first = tables.table(position, 0, WIN)
    assert tables.table(position, 0, WIN) is first
    assert tables.table(other_trump, 0, WIN) is not first
    assert tables.table(position, 1, WIN) is not first and tables.table(position, 0, NOT_LOSE) is not first
    first.update({(index, 0, 0, 0): True for index in range(MOST_KEPT_POSITIONS + 1)})
    assert tables.table(position, 0, WIN) == {}


def _future_facts(state: State) -> tuple[object, ...]:
    return (state.hands[0], state.hands[1], tuple(state.attack), tuple(state.cover), tuple(state.stock),
            tuple(state.emptied), state.attacker, state.defender, state.taken, state.passed, state.limit,
            state.shown, state.out_mask, state.discarded_once)


def test_positions_with_different_futures_have_different_keys() -> None:
    """``position_key`` packs a position into four ints: two positions share a key only if every fact their
    futures depend on is the same (random heads-up games of podkidnoy and perevodnoy, every position)."""
    facts_of: dict[tuple[int, int, int, int], tuple[object, ...]] = {}
    for rules in (Rules(), Rules(transfer=True), Rules(deck=24, first_bout_limit=5)):
        for game in range(30):
            state = new_state(rules, 2, f"keys-{game}")
            rng = random.Random(game)
            while not state.finished:
                facts = _future_facts(state)
                assert facts_of.setdefault(position_key(state), facts) == facts
                seats = actors(state)
                seat = seats[int(rng.random() * len(seats))]
                moves = legal_actions(state, seat)
                play_trusted(state, seat, moves[int(rng.random() * len(moves))])
    assert len(facts_of) > 1_000
    position, _log = endgames(1, "keys")[0]
    changed = position.copy()
    changed.passed |= 1
    assert position_key(changed) != position_key(position)


def test_the_search_plays_a_proven_win_and_else_a_proven_draw_only_when_no_win_exists() -> None:
    bot = SearchBot(seconds=1.0, iterations=40)
    played = 0
    for state, seat in _decisions(6, "search-endgame"):
        legal = tuple(legal_actions(state, seat))
        usual = heuristic.decide(state, seat, state.hands)
        win = prove(state, seat, list(legal), BUDGET)
        move = bot.endgame_move(state, seat, usual, legal)
        if win.move is not None:
            assert move is not None and winning_move(state, seat, [move], BUDGET) == move
            played += 1
        elif win.complete and move is not None:
            assert winning_move(state, seat, [move], BUDGET, NOT_LOSE) == move
    assert played >= 10


def test_cards_going_round_for_ever_are_no_win_and_the_solver_stops() -> None:
    """Perevodnoy heads-up, each player can transfer the other's lead back and take it, and the same position
    comes round again: the solver must not follow such a line for ever (it recursed until the stack ran out
    on this game), and what it proves still wins."""
    variant = (Rules(transfer=True), 2)
    proven = 0
    for state, seat, _log in heuristic_positions(*variant, f"peek-{variant_id(variant)}", every=1):
        if not exact_endgame(state, 1):
            continue
        proof = prove(state, seat, list(legal_actions(state, seat)), BUDGET, WIN, ProofTables(), solver_first_move)
        if proof.move is not None:
            proven += 1
            after = state.copy()
            play_trusted(after, seat, proof.move)
            end = _play_out_the_proof(after, seat, WIN, random.Random(proven))
            assert end.result is not None and end.result.durak not in (None, seat)
    assert proven >= 3
