"""How well the search bot plays the heads-up endgame, where every card is known: does it keep a won position?

A diagnostic beside bench/bots.py, not one of DESIGN.md's figures. Positions come from heuristic-against-
heuristic heads-up podkidnoy games: in each game the first decision, with the stock empty or holding only the
face-up trump, of a seat that has a choice while the hands hold 10 cards or more. A reference solve (the
endgame solver, depth first, up to REFERENCE_POSITIONS positions) says whether the seat can force a win; in
each such position every level is asked for its move, and the reference says whether that move still wins.

Figures, for each stock size N (0 or 1): ``positions_stockN``, ``won_positions_stockN`` (the reference proved a
win), ``unresolved_positions_stockN`` (the reference ran out of positions), and for each level
``wins_kept_<level>_stockN``, ``wins_thrown_<level>_stockN`` (the move lets the other seat escape; a move the
reference cannot judge counts in neither) and ``s_per_move_<level>_stockN`` (CPU seconds a move). Each level
plays as in bench/bots.py: its CPU budget and iteration cap, without the live table's wall-clock cap.

Usage: ``python bench/endgame_probe.py [--quick] [--json PATH] [--positions=N] [--levels=A,B]`` (100 positions
of each stock size, levels hard and expert; 2 worker processes; a few minutes). ``--quick``: 6 positions.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import parse_args, print_table, write_report
from games.bots import LEVELS, heuristic
from games.bots.arena import new_state
from games.bots.endgame import exact_endgame, prove
from games.bots.knowledge import observe
from games.bots.search import SearchBot
from games.engine.acting import actors
from games.engine.actions import Action
from games.engine.cards import deck_mask, popcount
from games.engine.legal import legal_actions
from games.engine.play import play_trusted
from games.engine.rules import preset_rules
from games.engine.state import State

REFERENCE_POSITIONS = 1_000_000
MIN_CARDS = 10


@dataclass(frozen=True)
class Task:
    stock: int  # 0: the stock empty; 1: the face-up trump alone
    game: int
    levels: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    stock: int
    won: bool | None  # the reference: a win can be forced; None: it could not tell
    kept: dict[str, bool | None]  # per level: the level's move still wins (None: the reference cannot tell)
    seconds: dict[str, float]


def position(stock: int, game: int) -> tuple[State, int] | None:
    """The game's first qualifying decision (see the module's docstring), or None if it has none."""
    state = new_state(preset_rules("podkidnoy"), 2, f"endgame-probe:{stock}:{game}")
    rng = random.Random(f"endgame-probe:{stock}:{game}")
    seen = 0
    while not state.finished:
        seats = actors(state)
        seat = seats[0] if len(seats) == 1 else seats[int(rng.random() * len(seats))]
        if (len(state.stock) == stock and len(legal_actions(state, seat)) > 1
                and sum(popcount(hand) for hand in state.hands) >= MIN_CARDS):
            return state, seat
        action = heuristic.choose(observe(state, seat, seen), rng)
        play_trusted(state, seat, action)
        seen |= action.cards
    return None


def forces_a_win(state: State, seat: int, moves: list[Action]) -> bool | None:
    proof = prove(state, seat, moves, REFERENCE_POSITIONS)
    return True if proof.move is not None else (False if proof.complete else None)


def play_task(task: Task) -> Outcome | None:
    found = position(task.stock, task.game)
    if found is None:
        return None
    state, seat = found
    assert exact_endgame(state, 1)
    won = forces_a_win(state, seat, list(legal_actions(state, seat)))
    kept: dict[str, bool | None] = {}
    seconds: dict[str, float] = {}
    if won:
        for level in task.levels:
            bot = SearchBot(seconds=LEVELS[level].seconds, iterations=LEVELS[level].iterations)
            started = time.process_time()
            # The seat knows every card here: the observation is the same whatever it is told it has seen.
            move = bot(observe(state, seat, deck_mask(state.rules.deck)), random.Random(task.game))
            seconds[level] = time.process_time() - started
            kept[level] = forces_a_win(state, seat, [move])
    return Outcome(task.stock, won, kept, seconds)


def main() -> None:
    options = [arg for arg in sys.argv[1:] if not arg.startswith(("--positions", "--levels"))]
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "endgame probe", options)
    count = 6 if args.quick else 100
    levels: tuple[str, ...] = ("hard", "expert")
    for arg in sys.argv[1:]:
        if arg.startswith("--positions="):
            count = int(arg.split("=", 1)[1])
        if arg.startswith("--levels="):
            levels = tuple(arg.split("=", 1)[1].split(","))
    unknown = [level for level in levels if level not in LEVELS or LEVELS[level].bot != "search"]
    if unknown:
        raise SystemExit(f"not search levels: {', '.join(unknown)}")
    # Games that pass the stock's last card in one draw have no position with the face-up trump alone.
    tasks = [Task(stock, game, levels) for stock in (0, 1) for game in range(count if stock == 0 else 5 * count)]
    print(f"endgame probe: up to {count} positions of each stock size, levels {', '.join(levels)}", flush=True)
    outcomes: list[Outcome] = []
    with multiprocessing.Pool(2) as pool:
        # In the tasks' order, so that the positions kept are the first games' whatever finishes first.
        for outcome in pool.imap(play_task, tasks):
            if outcome is not None:
                outcomes.append(outcome)
    figures: dict[str, float] = {}
    rows = []
    for stock in (0, 1):
        mine = [outcome for outcome in outcomes if outcome.stock == stock][:count]
        won = [outcome for outcome in mine if outcome.won]
        row: list[object] = [f"stock {stock}", len(mine), len(won), sum(1 for outcome in mine if outcome.won is None)]
        for level in levels:
            kept = sum(1 for outcome in won if outcome.kept[level] is True)
            thrown = sum(1 for outcome in won if outcome.kept[level] is False)
            spent = sum(outcome.seconds[level] for outcome in won) / max(1, len(won))
            row += [kept, thrown, round(spent, 3)]
            figures[f"wins_kept_{level}_stock{stock}"] = kept
            figures[f"wins_thrown_{level}_stock{stock}"] = thrown
            figures[f"s_per_move_{level}_stock{stock}"] = round(spent, 4)
        rows.append(row)
        figures[f"positions_stock{stock}"] = len(mine)
        figures[f"won_positions_stock{stock}"] = len(won)
        figures[f"unresolved_positions_stock{stock}"] = sum(1 for outcome in mine if outcome.won is None)
    header = ["positions", "count", "won", "unresolved"]
    for level in levels:
        header += [f"{level}: kept", f"{level}: thrown", f"{level}: CPU s"]
    print()
    print_table(header, rows)
    figures["quick"] = 1 if args.quick else 0
    if args.json:
        write_report(args.json, figures)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
