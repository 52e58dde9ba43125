"""What holds the search bot back: the search against the heuristic on mirrored heads-up podkidnoy deals, as it
is, with less evidence of the other player's moves, given the other hand, and given the whole deal.

A diagnostic beside bench/bots.py, not one of DESIGN.md's figures. Five arms play the same deals (each deal
from both seats, the same seeds): ``search`` is the search bot deciding from its observation, as at a table
(the whole game's moves weighed as evidence, ``inference.Posterior``, each card's chance blended with a blind
deal's); ``chain`` is the same bot drawing the other hand from the posterior's chain of guesses as a whole
(the search before ``inference.BLEND``); ``blind`` is the same bot drawing its deals without any
evidence of the other player's moves; ``sighted`` is the same bot given an observation in which every card of
the other hand counts as seen (only the stock's order stays unknown); ``oracle`` is the same bot searching the
game's own deal every iteration (the other hand and the stock's order known: no player has that, so it is a
ceiling for this search, not a way to play). If the sighted search is not much stronger, better guesses about
the other hand (inference from his play) cannot make the search much stronger either: its limit is the worth
of its playouts.

Figures: ``winrate_<arm>`` (each arm's share of its decided games against the heuristic) and
``s_per_move_<arm>`` (CPU seconds a move asked), for the arms played; ``better_<arm>`` and ``worse_<arm>``, the
games on the same deal and seat that ended better, and worse, for each arm than for the first arm named.

Usage: ``python bench/search_probe.py [--quick] [--json PATH] [--deals=N] [--seconds=S] [--arms=A,B]
[--epsilon=E] [--others=C] [--offset=K]`` (200 deals, 0.1 CPU seconds a move and 20,000 iterations at most,
every arm; 2 worker processes). About 24 minutes on two cores with the defaults. ``--quick``: 4 deals at 0.02 s,
to check that it runs. ``--epsilon``: the share of the playouts' moves that are random (``SearchBot``'s
``epsilon``; 0, as at a table, unless given). ``--others``: UCB1's constant where the other seat chooses in the
tree (``SearchBot``'s ``others_exploration``; ``search.OTHERS_EXPLORATION``, as at a table, unless given).
``--offset``: the deals start at the K-th (0 unless given), so that another run plays other deals.
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
from games.bots import heuristic
from games.bots.arena import new_state, play_game
from games.bots.knowledge import Observation, observe
from games.bots.inference import BLEND
from games.bots.search import OTHERS_EXPLORATION, SearchBot
from games.engine.actions import Action
from games.engine.cards import deck_mask
from games.engine.rules import preset_rules
from games.engine.simulate import wilson_interval
from games.engine.state import State

ARMS = ("search", "chain", "blind", "sighted", "oracle")
ITERATIONS = 20_000


@dataclass(frozen=True)
class Task:
    arm: str
    game: int
    seconds: float
    epsilon: float = 0.0
    others: float = OTHERS_EXPLORATION
    offset: int = 0


@dataclass(frozen=True)
class Outcome:
    arm: str
    won: bool | None  # None: a draw
    seconds: float
    moves: int
    game: int = 0


def play_task(task: Task) -> Outcome:
    """Game 2k and 2k + 1 share a deal, the search's seat swapped."""
    state = new_state(preset_rules("podkidnoy"), 2, f"search-probe:{task.offset + task.game // 2}")
    seat = task.game % 2
    search = SearchBot(seconds=task.seconds, iterations=ITERATIONS, infer=task.arm != "blind",
                        epsilon=task.epsilon, others_exploration=task.others,
                        blend=0.0 if task.arm == "chain" else BLEND)

    def sighted(_observation: Observation, rng: random.Random, game: State = state) -> Action:
        return search(observe(game, seat, deck_mask(game.rules.deck)), rng)

    def oracle(observation: Observation, rng: random.Random, game: State = state) -> Action:
        return search(observation, rng, deal=lambda _rng: game.copy())

    bot = sighted if task.arm == "sighted" else oracle if task.arm == "oracle" else search
    bots = [bot, heuristic.choose] if seat == 0 else [heuristic.choose, bot]
    record = play_game(state, bots, random.Random(f"search-probe:{2 * task.offset + task.game}"), check=False)
    result = state.result
    won = None if result is None or result["durak"] is None else result["durak"] != seat
    return Outcome(task.arm, won, record.seconds[seat], record.decisions[seat], task.game)


def main() -> None:
    options = [arg for arg in sys.argv[1:] if not arg.startswith(("--deals", "--seconds", "--arms", "--epsilon", "--others", "--offset"))]
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "search probe", options)
    deals, seconds = (4, 0.02) if args.quick else (200, 0.1)
    arms: tuple[str, ...] = ARMS
    epsilon = 0.0
    others = OTHERS_EXPLORATION
    offset = 0
    for arg in sys.argv[1:]:
        if arg.startswith("--deals="):
            deals = int(arg.split("=", 1)[1])
        if arg.startswith("--seconds="):
            seconds = float(arg.split("=", 1)[1])
        if arg.startswith("--arms="):
            arms = tuple(arg.split("=", 1)[1].split(","))
        if arg.startswith("--epsilon="):
            epsilon = float(arg.split("=", 1)[1])
        if arg.startswith("--others="):
            others = float(arg.split("=", 1)[1])
        if arg.startswith("--offset="):
            offset = int(arg.split("=", 1)[1])
    unknown = set(arms) - set(ARMS)
    if unknown:
        raise SystemExit(f"unknown arms {sorted(unknown)}: the arms are {', '.join(ARMS)}")
    if not 0.0 <= epsilon <= 1.0:
        raise SystemExit(f"--epsilon is a share of the playouts' moves, from 0 to 1, not {epsilon:g}")
    if others < 0:
        raise SystemExit(f"--others is UCB1's constant where the other seat chooses, 0 or more, not {others:g}")
    tasks = [Task(arm, game, seconds, epsilon, others, offset) for game in range(2 * deals) for arm in arms]
    print(f"search probe: {deals} deals from both seats, {seconds:g} CPU s a move, playouts' random share "
          f"{epsilon:g}, the other seat's UCB1 constant {others:g}, {len(tasks)} games", flush=True)
    started = time.monotonic()
    outcomes: list[Outcome] = []
    with multiprocessing.Pool(2) as pool:
        for outcome in pool.imap_unordered(play_task, tasks):
            outcomes.append(outcome)
            if len(outcomes) % 50 == 0:
                print(f"  {len(outcomes)}/{len(tasks)} games, {time.monotonic() - started:,.0f} s", file=sys.stderr, flush=True)
    figures: dict[str, float] = {}
    rows = []
    for arm in arms:
        mine = [outcome for outcome in outcomes if outcome.arm == arm]
        wins = sum(1 for outcome in mine if outcome.won is True)
        decided = sum(1 for outcome in mine if outcome.won is not None)
        low, high = wilson_interval(wins, decided)
        share = wins / decided if decided else 0.0
        per_move = sum(outcome.seconds for outcome in mine) / max(1, sum(outcome.moves for outcome in mine))
        rows.append([arm, len(mine), decided, round(share, 4), f"[{low:.3f}, {high:.3f}]", round(per_move, 4)])
        figures[f"winrate_{arm}"] = round(share, 4)
        figures[f"s_per_move_{arm}"] = round(per_move, 4)
    print()
    print_table(["against the heuristic", "games", "decided", "share", "95 % interval", "CPU s a move"], rows)
    score = {None: 0.5, True: 1.0, False: 0.0}
    by_game = {(outcome.arm, outcome.game): score[outcome.won] for outcome in outcomes}
    for arm in arms[1:]:
        # The same deal and seat against the first arm: games that ended better, and worse, for this arm.
        pairs = [(by_game[(arm, game)], by_game[(arms[0], game)]) for game in range(2 * deals)]
        better = sum(1 for mine, theirs in pairs if mine > theirs)
        worse = sum(1 for mine, theirs in pairs if mine < theirs)
        print(f"{arm} against {arms[0]} on the same deals and seats: {better} games better, {worse} worse")
        figures[f"better_{arm}"], figures[f"worse_{arm}"] = better, worse
    figures.update(deals=deals, seconds=seconds, epsilon=epsilon, others_exploration=others, quick=1 if args.quick else 0)
    if args.json:
        write_report(args.json, figures)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
