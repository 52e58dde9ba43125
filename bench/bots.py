"""Bot strength: a round robin of the levels and the random bot, win shares with 95 % intervals, an Elo ladder
and seconds per move.

Figures (DESIGN.md, Benchmarks), all from heads-up podkidnoy with 36 cards:
- ``winrate_heuristic_vs_random``, ``winrate_search_vs_heuristic``: the first bot's share of the decided
  games (draws left out) of that pairing; seats alternate, each deal is played from both seats.
- ``elo_heuristic``, ``elo_search``: the Elo ladder with the random bot fixed at 1,000, fitted by maximum
  likelihood (Bradley-Terry, Elo's logistic scale: P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400)))
  over every decided heads-up podkidnoy game of the round robin.
- ``elo_search_low``, ``elo_search_high``: elo_search's approximate 95 % interval (``elo_intervals``: the
  likelihood's curvature at the fit); the ladder's table prints one for every bot.
- ``winrate_search_vs_heuristic_for_1900``: the share of its decided games against the heuristic at which the
  expert would stand at 1,900, every other pairing as played (``share_needed``): how far the target is, in the
  figure a change to the search moves.
- ``s_per_move_search``: mean CPU seconds the search bot spent per move it was asked for (each worker is
  a single process on one core; CPU time, so other work on the machine does not inflate it).
"heuristic" is the medium level and "search" the expert level (search, 1 s a move at most).

The round robin: random, easy, medium, hard (search, 0.3 s a move) and expert, every pair, in four variants:
heads-up and 4 players (two seats each, alternating round the table), podkidnoy and perevodnoy. In a
4-player game a bot wins when the durak is one of the other bot's seats. Pairings of the fast bots play
1,000 games or more, pairings with a search bot fewer (the table prints every count). An all-variants
ladder is printed beside the figures' one. Games run in worker processes, one game per task.

Usage: ``python bench/bots.py [--quick] [--json PATH] [--workers=N] [--minutes=M]`` (2 workers by default;
``--minutes`` starts no game after M minutes of wall-clock time and reports the games played: the fast
bots' games come first, then every search pairing plays a like part of its count). ``--quick`` caps the search bots at
a few hundred iterations a move and plays few games: it checks that everything runs, not the figures.
"""

from __future__ import annotations

import bisect
import math
import multiprocessing
import multiprocessing.pool
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import parse_args, print_table, write_report
from games.bots import BOTS, LEVELS
from games.bots.arena import new_state, play_game
from games.bots.knowledge import ObservationPolicy
from games.bots import search as search_module
from games.bots.search import SearchBot
from games.engine._compiled import is_compiled
from games.engine.rules import preset_rules
from games.engine.simulate import wilson_interval

# The entrants, weakest first: (name shown, bot name in games.bots.BOTS).
ENTRANTS = [("random", "random"), ("easy", "easy"), ("heuristic", "heuristic"), ("hard", "hard"), ("search", "search")]
SEARCHERS = {"hard", "search"}
VARIANTS = [("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 4), ("perevodnoy", 4)]
MAIN_VARIANT = ("podkidnoy", 2)
SEED = "bench-bots"

# Games per pairing, per variant: every pairing of the fast bots plays ``fast``; a pairing with a search bot
# plays ``searched[first]`` (the stronger entrant named first), the figures' pairing most.
@dataclass(frozen=True)
class Plan:
    fast: int
    searched: dict[tuple[str, str], int]


def _searched(search_vs_heuristic: int, others: int, hard: int, both: int) -> dict[tuple[str, str], int]:
    return {
        ("search", "heuristic"): search_vs_heuristic, ("search", "easy"): others, ("search", "random"): others,
        ("hard", "heuristic"): hard, ("hard", "easy"): hard, ("hard", "random"): hard, ("search", "hard"): both,
    }


# A search game costs about 10 CPU seconds (the expert's) or 3 (the hard level's); the figures' variant gets most.
# 240 games of the expert against the heuristic put elo_search within about +-58 (its 95 % interval, elo_intervals;
# 120 games gave about +-75, as wide as the gap to the target). The first 120 are the deals and seeds of the runs
# before, which played 120.
FULL_GAMES = {
    ("podkidnoy", 2): Plan(2000, _searched(240, 20, 20, 10)),
    ("perevodnoy", 2): Plan(1000, _searched(4, 4, 4, 2)),
    ("podkidnoy", 4): Plan(1000, _searched(2, 2, 2, 2)),
    ("perevodnoy", 4): Plan(1000, _searched(2, 2, 2, 2)),
}
QUICK_GAMES = {
    ("podkidnoy", 2): Plan(400, _searched(6, 2, 2, 2)),
    ("perevodnoy", 2): Plan(100, {}),
    ("podkidnoy", 4): Plan(100, {}),
    ("perevodnoy", 4): Plan(100, {}),
}
QUICK_SEARCH_ITERATIONS = 50  # --quick: a move of the search bots is capped at this many iterations


@dataclass(frozen=True)
class Task:
    variant: tuple[str, int]
    first: str
    second: str
    game: int
    quick: bool


@dataclass
class Outcome:
    task: Task
    winner: str | None  # the entrant that won, None for a draw or an unfinished game
    seconds: dict[str, float]
    moves: dict[str, int]
    longest: dict[str, float]  # the longest single move


def bot_for(name: str, quick: bool) -> ObservationPolicy:
    bot_name = dict(ENTRANTS)[name]
    bot = BOTS[bot_name]
    if isinstance(bot, SearchBot):
        # Strength per CPU second: the level's wall-clock cap (which binds only on a busy machine) is left out,
        # so that other work on the machine does not weaken the bot under test.
        return SearchBot(seconds=bot.seconds, iterations=min(bot.iterations, QUICK_SEARCH_ITERATIONS) if quick else bot.iterations)
    return bot


def play_task(task: Task) -> Outcome:
    """One game of a pairing. Game 2k and 2k + 1 share a deal, with the entrants' seats swapped."""
    preset, players = task.variant
    rules = preset_rules(preset)
    state = new_state(rules, players, f"{SEED}:{preset}:{players}:{task.first}:{task.second}:{task.game // 2}")
    names = [task.first if (seat + task.game) % 2 == 0 else task.second for seat in range(players)]
    bots = {name: bot_for(name, task.quick) for name in (task.first, task.second)}
    record = play_game(state, [bots[name] for name in names], random.Random(f"{SEED}:{task}"), check=False)
    seconds: dict[str, float] = defaultdict(float)
    moves: dict[str, int] = defaultdict(int)
    longest: dict[str, float] = defaultdict(float)
    for seat, name in enumerate(names):
        seconds[name] += record.seconds[seat]
        moves[name] += record.decisions[seat]
        longest[name] = max(longest[name], record.longest[seat])
    winner = None
    result = state.result
    if result is not None and result.durak is not None:
        loser = names[result.durak]
        winner = task.second if loser == task.first else task.first
    return Outcome(task, winner, dict(seconds), dict(moves), dict(longest))


@dataclass
class Tally:
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0

    @property
    def decided(self) -> int:
        return self.first_wins + self.second_wins


@dataclass
class Results:
    tallies: dict[tuple[tuple[str, int], str, str], Tally] = field(default_factory=lambda: defaultdict(Tally))
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    moves: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    longest: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    played: int = 0

    def add(self, outcome: Outcome) -> None:
        task = outcome.task
        tally = self.tallies[(task.variant, task.first, task.second)]
        tally.games += 1
        if outcome.winner == task.first:
            tally.first_wins += 1
        elif outcome.winner == task.second:
            tally.second_wins += 1
        for name, spent in outcome.seconds.items():
            self.seconds[name] += spent
            self.moves[name] += outcome.moves[name]
            self.longest[name] = max(self.longest[name], outcome.longest[name])


def tasks_for(quick: bool) -> list[Task]:
    games = QUICK_GAMES if quick else FULL_GAMES
    names = [name for name, _bot in ENTRANTS]
    tasks = []
    for variant in VARIANTS:
        plan = games[variant]
        for index, first in enumerate(names):
            for second in names[:index]:
                searched = {first, second} & SEARCHERS
                count = plan.searched.get((first, second), 0) if searched else plan.fast
                tasks += [Task(variant, first, second, game, quick) for game in range(count)]
    # The fast bots' games first (a few CPU milliseconds each, all of them within minutes); then every search
    # pairing advances at the same pace (a game's place is its share of its pairing's count), so that a run
    # stopped by --minutes has played a like part of each; the mirrored game of a deal follows it.
    counts: dict[tuple[tuple[str, int], str, str], int] = defaultdict(int)
    for task in tasks:
        counts[(task.variant, task.first, task.second)] += 1
    tasks.sort(key=lambda task: (bool({task.first, task.second} & SEARCHERS),
                                 (task.game // 2 * 2) / counts[(task.variant, task.first, task.second)], task.game))
    return tasks


def fit_elo(tallies: Sequence[tuple[str, str, int, int]], anchor: str, anchor_rating: float = 1000.0) -> dict[str, float]:
    """Maximum-likelihood Bradley-Terry strengths by Hunter's MM iteration (Hunter 2004, "MM algorithms for
    generalized Bradley-Terry models", eq. 3), as Elo ratings: R = anchor + 400 log10(gamma / gamma_anchor).
    Each pairing gets one virtual drawn game (half a win each) so that a perfect score stays finite.
    ``tallies`` holds (a, b, wins of a, wins of b) per pairing."""
    wins: dict[str, float] = defaultdict(float)
    played: dict[tuple[str, str], float] = defaultdict(float)
    names: set[str] = set()
    for first, second, first_wins, second_wins in tallies:
        names |= {first, second}
        wins[first] += first_wins + 0.5
        wins[second] += second_wins + 0.5
        played[(first, second)] += first_wins + second_wins + 1
        played[(second, first)] += first_wins + second_wins + 1
    gamma = {name: 1.0 for name in names}
    for _ in range(10_000):
        new = {}
        for name in names:
            denominator = sum(count / (gamma[name] + gamma[other]) for (one, other), count in played.items() if one == name)
            new[name] = wins[name] / denominator if denominator else gamma[name]
        scale = new[anchor]
        new = {name: value / scale for name, value in new.items()}
        change = max(abs(math.log(new[name] / gamma[name])) for name in names)
        gamma = new
        if change < 1e-10:
            break
    return {name: anchor_rating + 400 * math.log10(gamma[name]) for name in names}


def share_needed(tallies: Sequence[tuple[str, str, int, int]], first: str, second: str, target: float,
                 anchor: str) -> float | None:
    """The least share of ``first``'s decided games against ``second`` at which ``fit_elo`` puts ``first`` at
    ``target`` or above, every other pairing as played and the pairing's decided games as many: the fewest wins
    (a bisection, since a bot's fitted rating rises with its wins) over the decided games. None if winning every
    one of them would not reach ``target``."""
    index = next(position for position, (one, other, _wins, _losses) in enumerate(tallies)
                 if (one, other) == (first, second))
    decided = tallies[index][2] + tallies[index][3]

    def rating(wins: int) -> float:
        changed = list(tallies)
        changed[index] = (first, second, wins, decided - wins)
        return fit_elo(changed, anchor)[first]

    wins = bisect.bisect_left(range(decided + 1), target, key=rating)
    return wins / decided if 0 < decided and wins <= decided else None


def elo_intervals(tallies: Sequence[tuple[str, str, int, int]], ratings: dict[str, float], anchor: str,
                  z: float = 1.96) -> dict[str, tuple[float, float]]:
    """Approximate 95 % intervals of ``fit_elo``'s ratings: the maximum-likelihood estimate plus or minus ``z``
    standard errors, from the inverse of the observed Fisher information of the Bradley-Terry log-likelihood
    at its maximum (with the anchor held fixed and the same virtual draw per pairing as the fit). In log-strength
    theta = ln gamma the information of a pairing of n games with P(a beats b) = p adds n p (1 - p) to both
    diagonal entries and subtracts it from the two off-diagonal ones; a rating's standard error is
    400 / ln 10 times theta's. The anchor's interval is its rating alone."""
    names = sorted({name for first, second, _wins, _losses in tallies for name in (first, second)} - {anchor})
    index = {name: position for position, name in enumerate(names)}
    size = len(names)
    information = [[0.0] * size for _ in range(size)]
    for first, second, first_wins, second_wins in tallies:
        games = first_wins + second_wins + 1
        p = 1 / (1 + 10 ** ((ratings[second] - ratings[first]) / 400))
        weight = games * p * (1 - p)
        for one, other in ((first, second), (second, first)):
            if one != anchor:
                information[index[one]][index[one]] += weight
                if other != anchor:
                    information[index[one]][index[other]] -= weight
    covariance = _inverse(information)
    scale = 400 / math.log(10)
    intervals = {anchor: (ratings[anchor], ratings[anchor])}
    for name in names:
        error = scale * math.sqrt(max(covariance[index[name]][index[name]], 0.0))
        intervals[name] = (ratings[name] - z * error, ratings[name] + z * error)
    return intervals


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting (the information matrix is a few rows of a positive
    definite matrix: one row per bot)."""
    size = len(matrix)
    rows = [row[:] + [1.0 if column == line else 0.0 for column in range(size)] for line, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda line: abs(rows[line][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for line in range(size):
            if line != column and rows[line][column]:
                factor = rows[line][column]
                rows[line] = [value - factor * pivot_value for value, pivot_value in zip(rows[line], rows[column])]
    return [row[size:] for row in rows]


def run(tasks: list[Task], workers: int, minutes: float | None = None) -> Results:
    """Play ``tasks`` on ``workers`` processes. With ``minutes`` no game starts after that much wall-clock
    time; the games begun are finished and counted, and the tables say how many each pairing played."""
    results = Results()
    started = time.monotonic()
    deadline = started + 60 * minutes if minutes else math.inf
    last_report = started
    done = 0
    pending = list(reversed(tasks))
    running: list[multiprocessing.pool.AsyncResult[Outcome]] = []
    with multiprocessing.Pool(workers) as pool:
        while pending or running:
            while pending and len(running) < 2 * workers and time.monotonic() < deadline:
                running.append(pool.apply_async(play_task, (pending.pop(),)))
            if not running:
                break
            running[0].wait(0.2)
            finished = [result for result in running if result.ready()]
            running = [result for result in running if not result.ready()]
            for result in finished:
                results.add(result.get())
                done += 1
            now = time.monotonic()
            if now - last_report >= 30 or not (pending or running):
                last_report = now
                print(f"  {done:,}/{len(tasks):,} games, {now - started:,.0f} s", file=sys.stderr, flush=True)
    results.played = done
    return results


def main() -> None:
    parser_args = [arg for arg in sys.argv[1:] if not arg.startswith(("--workers", "--minutes"))]
    workers = 2
    minutes: float | None = None
    for arg in sys.argv[1:]:
        if arg.startswith("--workers="):
            workers = int(arg.split("=", 1)[1])
        if arg.startswith("--minutes="):
            minutes = float(arg.split("=", 1)[1])
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "bot benchmark", parser_args)
    tasks = tasks_for(args.quick)
    bots_compiled = not str(search_module.__file__).endswith(".py")
    print(f"bots: engine {'compiled' if is_compiled() else 'interpreted'}, bots {'compiled' if bots_compiled else 'interpreted'}; "
          f"{len(tasks):,} games on {workers} workers"
          + (f"; --quick: search capped at {QUICK_SEARCH_ITERATIONS} iterations a move" if args.quick else ""))
    for level in LEVELS.values():
        if level.bot == "search":
            print(f"  {level.name}: search, {level.seconds:g} s and {level.iterations:,} iterations a move at most")
    print("  search: the expert level\n", flush=True)
    results = run(tasks, workers, minutes)
    if results.played < len(tasks):
        print(f"\n--minutes={minutes:g}: {results.played:,} of {len(tasks):,} planned games played", flush=True)
    names = [name for name, _bot in ENTRANTS]

    for variant in VARIANTS:
        rows = []
        for (tally_variant, first, second), tally in sorted(results.tallies.items(),
                                                            key=lambda item: (names.index(item[0][1]), names.index(item[0][2]))):
            if tally_variant != variant:
                continue
            low, high = wilson_interval(tally.first_wins, tally.decided)
            first_share = tally.first_wins / tally.decided if tally.decided else 0.0
            rows.append([f"{first} vs {second}", tally.games, tally.decided, round(first_share, 4),
                         f"[{low:.3f}, {high:.3f}]"])
        print(f"\n{variant[0]}, {variant[1]} players, 36 cards")
        print_table(["pairing", "games", "decided", "first's share", "95 % interval"], rows)

    def pairings(variants: list[tuple[str, int]]) -> list[tuple[str, str, int, int]]:
        return [(first, second, tally.first_wins, tally.second_wins)
                for (variant, first, second), tally in results.tallies.items() if variant in variants]

    main_pairings = pairings([MAIN_VARIANT])
    main_ladder = fit_elo(main_pairings, anchor="random")
    main_intervals = elo_intervals(main_pairings, main_ladder, anchor="random")
    all_ladder = fit_elo(pairings(VARIANTS), anchor="random")
    print("\nElo ladder (random = 1,000)")
    print_table(["bot", "heads-up podkidnoy", "95 % interval", "all four variants", "moves", "ms/move (CPU)",
                 "longest move, ms"], [
        [name, round(main_ladder[name]), f"[{main_intervals[name][0]:,.0f}, {main_intervals[name][1]:,.0f}]",
         round(all_ladder[name]), results.moves[name],
         round(1000 * results.seconds[name] / max(1, results.moves[name]), 3), round(1000 * results.longest[name], 1)]
        for name in names
    ])

    searched = ("search", "heuristic") in {(first, second) for first, second, _wins, _losses in main_pairings}
    needed = share_needed(main_pairings, "search", "heuristic", 1900, anchor="random") if searched else None
    if needed is not None:
        print(f"\nelo_search would reach 1,900 at a share of {needed:.3f} against the heuristic, every other pairing as played")
    elif searched:
        print("\nelo_search would not reach 1,900 even with every decided game against the heuristic won, every other "
              "pairing as played")

    def winrate(first: str, second: str) -> float:
        tally = results.tallies[(MAIN_VARIANT, first, second)]
        return tally.first_wins / tally.decided if tally.decided else 0.0

    figures = {
        "winrate_heuristic_vs_random": round(winrate("heuristic", "random"), 4),
        "winrate_search_vs_heuristic": round(winrate("search", "heuristic"), 4),
        "elo_heuristic": round(main_ladder["heuristic"], 1),
        "elo_search": round(main_ladder["search"], 1),
        "elo_search_low": round(main_intervals["search"][0], 1),
        "elo_search_high": round(main_intervals["search"][1], 1),
        "s_per_move_search": round(results.seconds["search"] / max(1, results.moves["search"]), 4),
        "elo_easy": round(main_ladder["easy"], 1),
        "elo_hard": round(main_ladder["hard"], 1),
        "s_per_move_hard": round(results.seconds["hard"] / max(1, results.moves["hard"]), 4),
        "s_per_move_heuristic": round(results.seconds["heuristic"] / max(1, results.moves["heuristic"]), 6),
        "games": results.played,
        "games_planned": len(tasks),
        "quick": 1 if args.quick else 0,
        "engine_compiled": 1 if is_compiled() else 0,
        "bots_compiled": 1 if bots_compiled else 0,
    }
    if needed is not None:
        # What the expert's share against the heuristic would have to be for elo_search to reach its target.
        figures["winrate_search_vs_heuristic_for_1900"] = round(needed, 4)
    targets = [
        ("winrate_heuristic_vs_random", figures["winrate_heuristic_vs_random"] >= 0.85, ">= 0.85"),
        ("winrate_search_vs_heuristic", figures["winrate_search_vs_heuristic"] >= 0.70, ">= 0.70"),
        ("s_per_move_search", figures["s_per_move_search"] <= 1.0, "<= 1 s"),
        ("elo_search", figures["elo_search"] >= 1900, ">= 1,900"),
    ]
    print()
    for name, met, target in targets:
        print(f"{name} = {figures[name]:,}: {'meets' if met else 'MISSES'} the target {target}"
              + (" (--quick: not the real figure)" if args.quick else ""))
    if args.json:
        write_report(args.json, figures)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
