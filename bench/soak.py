"""A soak (issue 10, load): many concurrent games for minutes, people-as-scripts and bots mixed, and a Swiss
round of 256 players starting at once in the middle of it.

The script starts what it measures (as bench/live.py does, whose helpers it uses): Daphne processes and
Celery workers on PostgreSQL (a fresh `<name>_bench` database; by default `durak_soak_bench`) and Redis
(REDIS_URL, by default db 8, emptied first: give it a database nobody else uses). It keeps `--games` games going for `--minutes`: a share of them bot against bot (played by the
workers), the rest two scripted WebSocket clients each, thinking `--think-ms` between moves; a game that
ends is replaced by a new one. Halfway, a Swiss tournament of `--swiss` bot entrants (registered before the
soak's clock starts) starts: its first round is paired and every game dealt at once, while the soak goes on.

Every 5 s it samples the resident memory of each process (Daphne, workers and their children, PostgreSQL,
Redis) and the CPU time each used; at the end it prints throughput, latency of people's moves (sent to
the next version's view), errors, memory over time, the Swiss round's pairing and completion times, and
which process used the CPU (what limits the machine).

    python bench/soak.py                                   # 300 games, 10 minutes, Swiss of 256
    python bench/soak.py --quick                           # 20 games, 1 minute, Swiss of 16
    python bench/soak.py --games 300 --minutes 10 --servers 2 --workers 2 --json soak.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import parse_args, print_table, write_report
from bench.live import (
    Tally, bench_environment, cpu_seconds, create_games, percentile, play_seat, prepare_services, start_daphne,
)

SAMPLE_EVERY_S = 5.0


@dataclass
class Watch:
    """Processes by role, and what they use over time."""

    roles: dict[str, list[int]] = field(default_factory=dict)
    rss_mb: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    cpu_s: dict[str, float] = field(default_factory=dict)
    cpu_start: dict[str, dict[int, float]] = field(default_factory=dict)

    def pids(self) -> dict[str, list[int]]:
        found = {role: list(pids) for role, pids in self.roles.items()}
        # Worker pools fork children; PostgreSQL runs a process per connection.
        for role, pids in list(found.items()):
            for pid in list(pids):
                found[role] += _children(pid)
        found["postgresql"] = _by_name("postgres")
        found["redis"] = _by_name("redis-server")
        return found

    def sample(self, at: float) -> None:
        """Memory now, and CPU time used since the first sample (PostgreSQL and Redis may be shared with
        other work on the machine: their share is what they used meanwhile, whoever asked)."""
        for role, pids in self.pids().items():
            rss = sum(_rss_kb(pid) for pid in pids) / 1024
            self.rss_mb.setdefault(role, []).append((at, rss))
            used = {pid: cpu_seconds(pid) for pid in pids}
            first = role not in self.cpu_start
            start = self.cpu_start.setdefault(role, {})
            for pid, seconds in used.items():
                start.setdefault(pid, seconds if first else 0.0)
            self.cpu_s[role] = max(
                self.cpu_s.get(role, 0.0), sum(seconds - start.get(pid, 0.0) for pid, seconds in used.items())
            )


def _children(pid: int) -> list[int]:
    result = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(line) for line in result.stdout.split()]


def _by_name(name: str) -> list[int]:
    result = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True)
    return [int(line) for line in result.stdout.split()]


def _rss_kb(pid: int) -> int:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _bot_game(number: int) -> int:
    from accounts.models import User
    from games import services
    from games.engine import Rules
    from games.models import Game

    owner = User.objects.create_user(username=f"soak-owner-{number}-{time.monotonic_ns()}", password=None)
    with services.lobby_batch():  # one lobby message, not two (bench/live.py, create_games)
        table = services.table_create(owner=owner, rules=Rules(), seats=2, name=f"soak bots {number}", bot_pace="instant")
        services.table_fill_bots(table=table, level=("easy", "medium")[number % 2])
    return int(Game.objects.get(table=table).pk)


def _first_traceback(log: str) -> str:
    """The log's first traceback, its middle cut so that where it ended and what was raised show."""
    lines = log[log.index("Traceback") :].splitlines()
    end = next((index for index, line in enumerate(lines[1:], 1) if line and not line.startswith(" ")), len(lines) - 1)
    block = lines[: end + 1]
    if len(block) > 24:
        block = block[:4] + ["  ..."] + block[-19:]
    return "\n".join(block)


def _finished(game_ids: list[int]) -> tuple[set[int], int]:
    """Which of the games have their result, and how many moves the games made."""
    from django.db import connection

    from games.models import Game

    try:
        rows = list(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq", "result__pk"))
        return {pk for pk, _seq, result in rows if result is not None}, sum(seq for _pk, seq, _r in rows)
    finally:
        connection.close()


def _timer_moves(game_ids: list[int], origin: float) -> list[float]:
    """When (seconds after `origin`, a time.time()) the turn timer or the autopilot moved for a person in
    these games: each is a move the script was too late for (the view reached it after the turn's time)."""
    from django.db import connection
    from django.db.models import Q

    from games.models import ActionLog

    try:
        moves = ActionLog.objects.filter(Q(by_timer=True) | Q(by_autopilot=True), game_id__in=game_ids)
        return sorted(at.timestamp() - origin for at in moves.values_list("at", flat=True))
    finally:
        connection.close()


def _register_swiss(entrants: int) -> tuple[int, int]:
    """A Swiss of `entrants` bot accounts, registered before the soak: (tournament id, its director's id)."""
    from django.db import connection
    from django.utils import timezone

    from accounts.models import BotLevel, User
    from accounts.roles import Role
    from accounts.services import bot_account_ensure, user_role_grant
    from tournaments import services as tournaments

    try:
        stamp = time.monotonic_ns()
        director = User.objects.create_user(username=f"soak-director-{stamp}", password=None)
        user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
        tournament = tournaments.tournament_create(
            director=director, name=f"Soak Swiss {stamp}", starts_at=timezone.now() + datetime.timedelta(hours=1),
            rounds=3, turn_seconds=60, bots_allowed=True,
        )  # fmt: skip
        for number in range(entrants):
            bot = bot_account_ensure(
                username=f"soak-bot-{stamp}-{number}", display_name=f"Bot {number}", engine="heuristic",
                level=BotLevel.MEDIUM,
            )  # fmt: skip
            tournaments.tournament_register(tournament=tournament, user=bot, by=director)
        return int(tournament.pk), int(director.pk)
    finally:
        connection.close()


def _start_swiss(tournament_id: int, director_id: int) -> float:
    """Its director starts the Swiss: seconds to pair round 1 and deal every game of it."""
    from django.db import connection

    from accounts.models import User
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    try:
        director = User.objects.get(pk=director_id)
        started = time.perf_counter()
        tournaments.tournament_start(tournament=Tournament.objects.get(pk=tournament_id), by=director)
        return time.perf_counter() - started
    finally:
        connection.close()


def _round_done(tournament_id: int) -> tuple[int, int]:
    from django.db import connection

    from tournaments.models import MatchGame

    try:
        games = MatchGame.objects.filter(pairing__tournament_id=tournament_id, pairing__round__number=1)
        return games.filter(game__result__isnull=False).count(), games.count()
    finally:
        connection.close()


async def soak(urls: list[str], known: argparse.Namespace, watch: Watch) -> dict[str, float | int]:
    import bench.live

    bench.live.HANDSHAKES = asyncio.Semaphore(8)  # players arrive a few at a time (bench/live.py)
    tally = Tally()
    rng = random.Random(11)
    bot_games = round(known.games * known.bot_share)
    people_games = known.games - bot_games
    started_games: list[int] = []
    bot_ids: list[int] = []
    numbers = iter(range(10**9))
    people_ids: list[int] = []
    people_tasks: set[asyncio.Task[None]] = set()

    async def new_people_games(count: int) -> None:
        if count <= 0:
            return
        for game_id, cookies in await asyncio.to_thread(create_games, count):
            started_games.append(game_id)
            people_ids.append(game_id)
            url = urls[game_id % len(urls)]
            for cookie in cookies:
                task = asyncio.create_task(
                    play_seat(url, url.replace("ws://", "http://"), cookie, game_id, tally,
                              random.Random(rng.random()), known.think_ms / 1000)
                )  # fmt: skip
                people_tasks.add(task)
                task.add_done_callback(people_tasks.discard)

    async def new_bot_game() -> None:
        game_id = await asyncio.to_thread(_bot_game, next(numbers))
        started_games.append(game_id)
        bot_ids.append(game_id)

    # The Swiss's entrants register before the clock starts; halfway its director starts it.
    registered = await asyncio.to_thread(_register_swiss, known.swiss) if known.swiss else None
    for start in range(0, people_games, 10):
        await new_people_games(min(10, people_games - start))
    for _ in range(bot_games):
        await new_bot_game()
    # The soak's minutes count from when every game is going (dealing 300 games takes a while).
    deadline = time.monotonic() + known.minutes * 60
    first_sample = time.monotonic()
    origin_perf, origin_wall = time.perf_counter(), time.time()
    swiss: dict[str, float | int] = {}
    swiss_start: asyncio.Task[float] | None = None
    swiss_started_at = 0.0
    next_sample = 0.0
    reported_errors = 0
    while time.monotonic() < deadline:
        now = time.monotonic()
        if now >= next_sample:
            watch.sample(now - first_sample)
            next_sample = now + SAMPLE_EVERY_S
            print(
                f"  {now - first_sample:5.0f} s: {len(people_tasks) // 2} people's and {len(bot_ids)} bot games running, "
                f"{len(tally.finished_games)} finished, {tally.actions} people's moves, {len(tally.errors)} errors",
                flush=True,
            )
            for error, at in list(zip(tally.errors, tally.error_times))[reported_errors : reported_errors + 3]:
                print(f"  error at {at - origin_perf:.0f} s:", error, flush=True)
            reported_errors = len(tally.errors)
        if registered is not None and swiss_start is None and now >= deadline - known.minutes * 30:
            # On a thread of its own: the soak goes on sampling and replacing games meanwhile.
            swiss_start = asyncio.create_task(asyncio.to_thread(_start_swiss, *registered))
            swiss_started_at = time.monotonic()
        if registered is not None and swiss_start is not None and swiss_start.done() and "swiss_round_s" not in swiss:
            swiss["swiss_pair_and_deal_s"] = round(swiss_start.result(), 1)
            done, total = await asyncio.to_thread(_round_done, registered[0])
            swiss["swiss_games"] = total
            if total and done == total:
                swiss["swiss_round_s"] = round(time.monotonic() - swiss_started_at, 1)
        # Keep the number of running games: replace each that ended.
        finished_bots, _moves = await asyncio.to_thread(_finished, bot_ids)
        for game_id in finished_bots:
            bot_ids.remove(game_id)
            tally.finished_games.add(game_id)
            await new_bot_game()
        # A few at a time, so that each game's players open their sockets soon after it is dealt (its first
        # turn's timer runs from the deal), as players do who sat down in the lobby.
        missing = people_games - len(people_tasks) // 2
        for start in range(0, missing, 5):
            await new_people_games(min(5, missing - start))
        await asyncio.sleep(1.0)
    watch.sample(time.monotonic() - first_sample)
    for task in list(people_tasks):
        task.cancel()
    _finished_ids, bot_moves = await asyncio.to_thread(_finished, list(set(started_games)))
    timer_moves = await asyncio.to_thread(_timer_moves, people_ids, origin_wall)
    minutes = known.minutes
    print("\npeople's moves by minute of the soak (latency from sending to the next version's view):")
    by_minute: dict[int, list[float]] = {}
    for latency, at in zip(tally.latencies_ms, tally.latency_times):
        by_minute.setdefault(int((at - origin_perf) // 60), []).append(latency)
    print_table(
        ["minute", "moves", "p50_ms", "p99_ms", "max_ms", "errors", "timer_moves"],
        [[minute, len(values), round(percentile(values, 0.5)), round(percentile(values, 0.99)), round(max(values)),
          sum(1 for at in tally.error_times if int((at - origin_perf) // 60) == minute),
          sum(1 for at in timer_moves if int(at // 60) == minute)]
         for minute, values in sorted(by_minute.items())],
    )  # fmt: skip
    print()
    return {
        "soak_games_running": known.games,
        "soak_minutes": minutes,
        "soak_games_finished": len(tally.finished_games),
        "soak_actions_per_s": round((bot_moves) / (minutes * 60), 1),
        "soak_people_moves": tally.actions,
        "soak_p50_ms": round(percentile(tally.latencies_ms, 0.50), 1),
        "soak_p95_ms": round(percentile(tally.latencies_ms, 0.95), 1),
        "soak_p99_ms": round(percentile(tally.latencies_ms, 0.99), 1),
        "soak_max_ms": round(max(tally.latencies_ms, default=0.0), 1),
        "soak_errors": len(tally.errors),
        "soak_people_timer_moves": len(timer_moves),
        **swiss,
    }


def main() -> None:
    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--games", type=int)
    extra.add_argument("--minutes", type=float)
    extra.add_argument("--swiss", type=int)
    extra.add_argument("--bot-share", type=float, default=1 / 3, help="share of the games played bot against bot")
    extra.add_argument("--servers", type=int, default=2, help="Daphne processes")
    extra.add_argument("--workers", type=int, default=2, help="Celery worker processes (concurrency 2 each)")
    extra.add_argument("--think-ms", type=float, default=1000.0)
    known, rest = extra.parse_known_args()
    args = parse_args(__doc__.splitlines()[0], rest)
    known.games = known.games or (20 if args.quick else 300)
    known.minutes = known.minutes or (1.0 if args.quick else 10.0)
    known.swiss = known.swiss if known.swiss is not None else (16 if args.quick else 256)

    # Beside bench/live.py, not on top of it: a database and a Redis database of its own by default.
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_soak")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/8")
    environment = bench_environment()
    os.environ.update(environment)
    prepare_services(environment)
    import django

    django.setup()
    from tests import processes

    watch = Watch()
    with contextlib.ExitStack() as stack:
        servers = [start_daphne(stack, environment) for _ in range(known.servers)]
        urls = [url for url, _running in servers]
        watch.roles["daphne"] = [running.process.pid for _url, running in servers]
        workers = []
        for number in range(known.workers):
            command = [
                sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--loglevel=WARNING",
                "-Q", "games,bots,tournaments,analysis", "--concurrency", "2", "-n", f"soak-{number}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ]  # fmt: skip
            workers.append(stack.enter_context(processes.started(command, environment=environment, name="soak-worker")))
        watch.roles["celery"] = [worker.process.pid for worker in workers]
        time.sleep(5)  # the workers connect
        figures = asyncio.run(soak(urls, known, watch))
        logs = [running.log() for _url, running in servers] + [worker.log() for worker in workers]
    tracebacks = [_first_traceback(log) for log in logs if "Traceback" in log]
    figures["server_tracebacks"] = sum(log.count("Traceback") for log in logs)

    print(
        f"soak: {known.games} games at once ({known.bot_share:.0%} bot against bot) for {known.minutes:g} min; "
        f"{known.servers} Daphne, {known.workers} Celery workers; Swiss of {known.swiss} halfway"
    )
    print_table(["figure", "value"], [[name, value] for name, value in figures.items()])
    print()
    rows = []
    for role, series in watch.rss_mb.items():
        values = [rss for _at, rss in series]
        rows.append([role, round(values[0], 1), round(max(values), 1), round(values[-1], 1),
                     round(watch.cpu_s.get(role, 0.0), 1)])  # fmt: skip
    print_table(["process", "rss_start_mb", "rss_max_mb", "rss_end_mb", "cpu_s"], rows)
    total_cpu = sum(watch.cpu_s.values()) or 1.0
    busiest = max(watch.cpu_s, key=lambda role: watch.cpu_s[role])
    print(f"\nCPU: {busiest} used {watch.cpu_s[busiest] / total_cpu:.0%} of the CPU the site used "
          f"({total_cpu:.0f} s of {os.cpu_count()} cores x {known.minutes * 60:.0f} s).")  # fmt: skip
    for role, series in watch.rss_mb.items():
        figures[f"rss_max_mb_{role}"] = round(max(rss for _at, rss in series), 1)
        figures[f"cpu_share_{role}"] = round(watch.cpu_s.get(role, 0.0) / total_cpu, 3)
    for excerpt in tracebacks[:2]:
        print("\nfirst server traceback:\n" + excerpt)
    if args.json:
        write_report(args.json, figures)


if __name__ == "__main__":
    main()
