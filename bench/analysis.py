"""Game review: what analysing a game costs, and how far its best moves at blunders hold under a deeper search.

Figures (issue 34), from heads-up podkidnoy games (36 cards) that bots play from fixed seeds, half of them the
easy bot against the medium one (it plays a random move two times in five: blunders to find) and half the
medium bot against itself:
- ``analysis_s_per_game``: mean CPU seconds ``games.bots.review.analyse_record`` takes for a game at the
  default budget (target: at most 30).
- ``analysis_s_per_decision``: the same per action of the record (forced ones included).
- ``analysis_agreement_with_4x``: at the decisions marked a blunder, the share whose best move a judgement with
  4 times the default budget (``judge``, another seed) names too. ``analysis_agreement_with_4x_searched``: the
  same over the blunders the search judged (the solver's are exact; target for both: at least 0.8).
- ``analysis_blunders``: how many blunders that share is of; ``analysis_blunders_confirmed_4x``: the share of
  them that the deeper judgement marks a blunder too.

Usage: ``python bench/analysis.py [--quick] [--json PATH] [--games=N] [--workers=N] [--seconds=S]`` (20 games on
2 worker processes by default; CPU time is counted in each; ``--seconds`` sets the default budget for the run). ``--quick`` analyses 2 games and checks at most 4 of their
blunders at 4 times the budget: it runs within a minute, its figures are rough.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import parse_args, print_table, write_report
from games.bots import BOTS, review
from games.bots.arena import play_game
from games.bots.knowledge import GameMemory
from games.engine.deal import deal
from games.engine.play import play
from games.engine.records import Record, load_record
from games.engine.rules import Rules

SEED = "analysis-bench"
PAIRINGS = [("easy", "medium"), ("medium", "medium")]
DEEPER = "bench-4x"  # the budget name of the deeper judgement: 4 times the default
FULL_GAMES, QUICK_GAMES = 20, 2
QUICK_BLUNDERS = 4  # --quick: the blunders checked at 4 times the budget, at most


@dataclass
class GameFigures:
    game: int
    pairing: str
    actions: int
    forced: int
    solved: int
    seconds: float
    marks: dict[str, int]
    blunders: int = 0
    agreed: int = 0
    searched_blunders: int = 0
    searched_agreed: int = 0
    confirmed: int = 0


def game_record(game: int) -> tuple[str, dict[str, Any]]:
    """The record of game ``game``: a fixed deal and the bots of its pairing, seats alternating."""
    first, second = PAIRINGS[game % len(PAIRINGS)]
    names = [first, second] if game // len(PAIRINGS) % 2 == 0 else [second, first]
    rules = Rules()
    dealt = deal(rules, 2, seed=f"{SEED}:{game}", salt=f"{SEED}:{game}:salt")
    played = play_game(dealt.state(), [BOTS[name] for name in names], random.Random(f"{SEED}:{game}:bots"))
    record = Record(rules=rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, actions=played.actions)
    return f"{names[0]}-{names[1]}", record.to_json()


def analyse_game(task: tuple[int, int, float]) -> GameFigures:
    game, most_blunders, seconds_a_decision = task
    review.BUDGETS["default"] = seconds_a_decision
    pairing, record = game_record(game)
    started = time.process_time()
    analysis = review.analyse_record(record, budget="default", seed=game)
    seconds = time.process_time() - started
    marks = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    for decision in analysis.decisions:
        if decision.mark is not None:
            marks[decision.mark] += 1
    figures = GameFigures(
        game=game, pairing=pairing, actions=len(analysis.decisions),
        forced=sum(decision.forced for decision in analysis.decisions),
        solved=sum(decision.solved for decision in analysis.decisions), seconds=seconds, marks=marks,
    )
    blunders = {decision.ply: decision for decision in analysis.decisions if decision.mark == "blunder"}
    if most_blunders >= 0:
        blunders = dict(list(blunders.items())[:most_blunders])
    if not blunders:
        return figures
    review.BUDGETS[DEEPER] = 4 * review.BUDGETS["default"]
    loaded = load_record(record)
    state = loaded.initial_state()
    seen, memory = 0, GameMemory()
    for ply, (seat, action) in enumerate(loaded.actions):
        if ply in blunders:
            deeper = review.judge(state, seat, seen, memory.history, action, ply=ply, budget=DEEPER, seed=game + 1)
            agreed = deeper.best == blunders[ply].best
            figures.blunders += 1
            figures.agreed += agreed
            figures.confirmed += deeper.mark == "blunder"
            if not blunders[ply].solved:
                figures.searched_blunders += 1
                figures.searched_agreed += agreed
        memory.remember(state, seat, action, seen)
        play(state, seat, action)
        seen |= action.cards
    return figures


def main() -> None:
    own = [arg for arg in sys.argv[1:] if arg.startswith(("--games=", "--workers=", "--seconds="))]
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "analysis benchmark",
                      [arg for arg in sys.argv[1:] if arg not in own])
    options = dict(arg[2:].split("=", 1) for arg in own)
    games = int(options.get("games", QUICK_GAMES if args.quick else FULL_GAMES))
    workers = int(options.get("workers", 2))
    review.BUDGETS["default"] = float(options.get("seconds", review.BUDGETS["default"]))
    most_blunders = QUICK_BLUNDERS // games if args.quick else -1
    print(f"analysis: {games} heads-up podkidnoy games at the default budget ({review.BUDGETS['default']} s a "
          f"decision, {review.ITERATIONS_PER_SECOND:,} iterations a second) on {workers} workers")
    started = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        results = pool.map(analyse_game, [(game, most_blunders, review.BUDGETS["default"]) for game in range(games)], chunksize=1)
    rows = [
        (result.game, result.pairing, result.actions, result.forced, result.solved, result.marks["inaccuracy"],
         result.marks["mistake"], result.marks["blunder"], f"{result.agreed}/{result.blunders}",
         round(result.seconds, 2))
        for result in results
    ]
    print_table(["game", "bots", "actions", "forced", "solved", "inacc.", "mistakes", "blunders",
                 "agree 4x", "CPU s"], rows)
    seconds = sum(result.seconds for result in results)
    actions = sum(result.actions for result in results)
    blunders = sum(result.blunders for result in results)
    searched = sum(result.searched_blunders for result in results)
    figures: dict[str, float | int] = {
        "analysis_s_per_game": round(seconds / games, 3),
        "analysis_s_per_decision": round(seconds / actions, 4),
        "analysis_agreement_with_4x": round(sum(result.agreed for result in results) / blunders, 3) if blunders else 0.0,
        "analysis_agreement_with_4x_searched":
            round(sum(result.searched_agreed for result in results) / searched, 3) if searched else 0.0,
        "analysis_blunders": blunders,
        "analysis_blunders_confirmed_4x": round(sum(result.confirmed for result in results) / blunders, 3) if blunders else 0.0,
        "analysis_longest_game_s": round(max(result.seconds for result in results), 3),
        "quick": 1 if args.quick else 0,
    }
    print()
    print_table(["figure", "value"], list(figures.items()))
    print(f"\n{time.perf_counter() - started:.0f} s of wall-clock time"
          + (" (--quick: rough figures)" if args.quick else ""))
    if args.json:
        write_report(args.json, figures)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
