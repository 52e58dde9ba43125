"""Live play under load: N concurrent 2-player games, every seat a scripted WebSocket client.

Figures (DESIGN.md, Benchmarks): games, games_finished, actions_per_s, p50_ms, p95_ms, p99_ms, errors.

The script starts what it measures: Daphne and Celery worker(s) on PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/durak; the script uses a fresh database `<name>_bench` beside it) and
Redis (REDIS_URL, default redis://127.0.0.1:6379/7; the script empties that Redis database first, so
give it one nobody else uses). It creates 2N players and N tables through games.services (the game
starts as the second player sits down), then opens one WebSocket per seat. Each client answers every
view in which the game waits for its seat with a random legal action and the view's `seq`, after a
think time (`--think-ms`, default 1000, drawn between half and one and a half times that: players
think; with 0 every game fires moves back to back and the run measures saturation, where latency is
the number of games divided by the server's throughput). The latency of a move is the time from
sending it to receiving the view of the next version; think time is not part of it. An error is a
`game.error` message, a socket that fails, or a game that does not finish within the time allowed.

By default two Daphne processes serve the games (a game's two seats on one of them, as behind a balancer
that keeps a game's players together) and one Celery worker of two processes takes the games and bots
queues. Besides the figures the table shows the CPU time the servers, the workers and the clients spent
per action, the moves the turn timer played (the clients answer within 1.5 s, so each is a turn that ran
out before its player was connected or shown it; how many were a game's first turn), and the machine's load
average before and after: on a shared machine the latencies say as much about the neighbours as about the
site.

    python bench/live.py                      # 100 games
    python bench/live.py --quick              # 10 games
    python bench/live.py --games 50 --think-ms 0 --servers 1
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPOSITORY_ROOT, parse_args, print_table, write_report

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/durak"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
GAME_TIMEOUT_S = 600
WINDOW_S = 20  # the latency table's rows


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    error_times: list[float] = field(default_factory=list)  # perf_counter() of each error
    latency_times: list[float] = field(default_factory=list)  # perf_counter() of each latency's view
    finished_games: set[int] = field(default_factory=set)
    first_action_at: float | None = None
    last_view_at: float = 0.0


def bench_environment() -> dict[str, str]:
    import environ

    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    config = environ.Env.db_url_config(database_url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise SystemExit("bench/live.py needs PostgreSQL: DATABASE_URL=postgres://...")
    bench_name = f"{config['NAME']}_bench"
    bench_url = database_url.rsplit("/", 1)[0] + "/" + bench_name
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings.local",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": bench_url,
        "REDIS_URL": os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
        "PYTHONUNBUFFERED": "1",
    }


def prepare_services(environment: dict[str, str]) -> None:
    """A fresh bench database, migrated, and an empty Redis database (no tasks left from an earlier run)."""
    import psycopg
    import redis

    url = environment["DATABASE_URL"]
    server_url, name = url.rsplit("/", 1)
    with psycopg.connect(server_url + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(environment["REDIS_URL"]).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=REPOSITORY_ROOT, env=environment, check=True,
    )  # fmt: skip


def create_games(count: int) -> list[tuple[int, list[str]]]:
    """(game id, session cookie of seat 0 and seat 1) for `count` fresh 2-player podkidnoy games."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils.module_loading import import_string

    from accounts.models import User
    from games import services
    from games.engine import Rules
    from games.models import Game

    # The backend that finds a session's user (the first may only throttle log-ins).
    backend = next(path for path in settings.AUTHENTICATION_BACKENDS if hasattr(import_string(path), "get_user"))

    def session_cookie(user: User) -> str:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

    games = []
    run = secrets.token_hex(3)
    # One lobby message for the lot, not three a game (each lists the lobby's tables): the benches'
    # clients share this process, and its CPU is theirs.
    with services.lobby_batch():
        for number in range(count):
            players = [
                User.objects.create_user(username=f"bench-{run}-{number}-{seat}", password=None) for seat in range(2)
            ]
            table = services.table_create(owner=players[0], rules=Rules(), seats=2, name=f"bench {number}")
            for player in players:
                services.table_join(table=table, user=player)
            game = Game.objects.get(table=table)
            games.append((game.pk, [session_cookie(player) for player in players]))
    return games


async def play_seat(
    url: str, origin: str, cookie: str, game_id: int, tally: Tally, rng: random.Random, think_s: float
) -> None:
    import websockets

    acted_seq = -1
    sent_at: dict[int, float] = {}
    try:
        # Players arrive a few at a time, as they do: Daphne drops a handshake that its application has not
        # accepted within 5 s, and 200 at once queue behind each other's session lookups.
        async with HANDSHAKES:
            socket = await websockets.connect(
                f"{url}/ws/game/{game_id}/", additional_headers={"Cookie": cookie}, origin=origin,  # type: ignore[arg-type]
                open_timeout=60, max_size=2**22,
            )  # fmt: skip
        async with socket:
            async for raw in socket:
                message = json.loads(raw)
                now = time.perf_counter()
                if message["type"] == "game.error":
                    tally.errors.append(f"game {game_id}: {message['code']} {message['message']}")
                    tally.error_times.append(now)
                    continue
                if message["type"] != "game.view":
                    continue
                seq = message["seq"]
                tally.last_view_at = now
                for answered in [s for s in sent_at if s < seq]:
                    tally.latencies_ms.append((now - sent_at.pop(answered)) * 1000)
                    tally.latency_times.append(now)
                if message["status"] == "finished":
                    if message["result"] is not None:
                        tally.finished_games.add(game_id)
                        return
                    continue
                seat = message["seat"]
                legal = message["view"].get("legal") or []
                if seat in message["waiting"] and legal and seq > acted_seq:
                    acted_seq = seq
                    action = rng.choice(legal)
                    if think_s:
                        await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
                    sent_at[seq] = time.perf_counter()
                    if tally.first_action_at is None:
                        tally.first_action_at = sent_at[seq]
                    tally.actions += 1
                    await socket.send(json.dumps({"type": "action", "action": action, "seq": seq}))
    except Exception as error:
        tally.errors.append(f"game {game_id}: {type(error).__name__}: {error}")
        tally.error_times.append(time.perf_counter())


HANDSHAKES: asyncio.Semaphore


async def play_all(urls: list[str], games: list[tuple[int, list[str]]], tally: Tally, think_s: float) -> None:
    global HANDSHAKES
    HANDSHAKES = asyncio.Semaphore(8)
    rng = random.Random(7)
    clients = []
    for index, (game_id, cookies) in enumerate(games):
        url = urls[index % len(urls)]  # a game's two players on one server: as behind a sticky balancer
        for cookie in cookies:
            clients.append(play_seat(url, url.replace("ws://", "http://"), cookie, game_id, tally,
                                     random.Random(rng.random()), think_s))
    try:
        await asyncio.wait_for(asyncio.gather(*clients), timeout=GAME_TIMEOUT_S)
    except TimeoutError:
        tally.errors.append(f"games still running after {GAME_TIMEOUT_S} s")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by a process and its live descendants (Linux /proc)."""
    total, pending = 0.0, [pid]
    tick = os.sysconf("SC_CLK_TCK")
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as children:
                    pending.extend(int(child) for child in children.read().split())
        except (OSError, ValueError, IndexError):
            continue  # gone, or not Linux: the figure is a guide, not a result
    return total


def timer_moves_played() -> tuple[int, int]:
    """The moves the turn timer played in the run (the bench's database is fresh), and how many of them were
    a game's first turn: the players' clients answer within 1.5 s, so each is a turn that ran out while a
    player was not yet connected or not yet shown it (games.lag)."""
    from games.models import ActionLog

    timed = ActionLog.objects.filter(by_timer=True)
    return timed.count(), timed.filter(seq=0).count()


def start_daphne(stack: contextlib.ExitStack, environment: dict[str, str]) -> tuple[str, Any]:
    """A Daphne process on a free port: its ws:// URL and its RunningProcess."""
    from durak_site.management.commands.run_site import daphne_command
    from tests import processes

    port = processes.free_port()
    command = daphne_command("127.0.0.1", port)
    running = stack.enter_context(processes.started(command, environment=environment, name="bench-daphne"))
    deadline = time.monotonic() + 60
    while not processes._port_open(port):
        if running.process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"Daphne did not start:\n{running.log()[-3000:]}")
        time.sleep(0.1)
    return f"ws://127.0.0.1:{port}", running


def main() -> None:
    import argparse

    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--games", type=int)
    extra.add_argument("--servers", type=int, default=2,
                       help="Daphne processes (the games are spread over them, a game's seats on one)")
    extra.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    extra.add_argument("--concurrency", type=int, default=2, help="pool processes of each Celery worker")
    extra.add_argument("--think-ms", type=float, default=1000.0, help="a player's mean think time")
    known, rest = extra.parse_known_args()
    args = parse_args(__doc__.splitlines()[0], rest)
    count = known.games or (10 if args.quick else 100)

    environment = bench_environment()
    os.environ.update(environment)
    prepare_services(environment)

    from tests import processes

    load_before = os.getloadavg()
    with contextlib.ExitStack() as stack:
        servers = [start_daphne(stack, environment) for _ in range(known.servers)]
        workers = []
        for number in range(known.workers):
            command = [
                sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--loglevel=WARNING",
                "-Q", "games,bots", "--concurrency", str(known.concurrency), "-n", f"bench-{number}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ]  # fmt: skip
            workers.append(stack.enter_context(processes.started(command, environment=environment, name="bench-worker")))
        games = create_games(count)
        tally = Tally()
        server_cpu = [cpu_seconds(running.process.pid) for _, running in servers]
        worker_cpu = [cpu_seconds(running.process.pid) for running in workers]
        client_cpu = time.process_time()
        started = time.perf_counter()
        asyncio.run(play_all([url for url, _ in servers], games, tally, known.think_ms / 1000))
        wall_s = time.perf_counter() - started
        client_cpu = time.process_time() - client_cpu
        server_cpu = [cpu_seconds(running.process.pid) - before for (_, running), before in zip(servers, server_cpu)]
        worker_cpu = [cpu_seconds(running.process.pid) - before for running, before in zip(workers, worker_cpu)]
        logs = [running.log() for running in [*(r for _, r in servers), *workers]]
        tracebacks = sum(log.count("Traceback") for log in logs)
        first_traceback = next((log[log.index("Traceback") :][:8000] for log in logs if "Traceback" in log), "")
    load_after = os.getloadavg()

    active_s = max(1e-9, tally.last_view_at - (tally.first_action_at or tally.last_view_at))
    unfinished = count - len(tally.finished_games)
    figures: dict[str, float | int] = {
        "games": count,
        "games_finished": len(tally.finished_games),
        "actions_per_s": round(tally.actions / active_s, 1),
        "p50_ms": round(percentile(tally.latencies_ms, 0.50), 1),
        "p95_ms": round(percentile(tally.latencies_ms, 0.95), 1),
        "p99_ms": round(percentile(tally.latencies_ms, 0.99), 1),
        "errors": len(tally.errors) + unfinished,
    }
    print(f"{count} concurrent 2-player games over WebSockets; {known.servers} Daphne, {known.workers} Celery "
          f"worker(s) of {known.concurrency}, PostgreSQL, Redis; think {known.think_ms:.0f} ms; "
          f"{tally.actions} actions in {wall_s:.1f} s; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after (1 min; {os.cpu_count()} CPUs, shared)")
    rows: list[list[object]] = [[name, value] for name, value in figures.items()]
    if tally.latencies_ms:
        rows.append(["mean_ms", round(statistics.fmean(tally.latencies_ms), 1)])
        rows.append(["max_ms", round(max(tally.latencies_ms), 1)])
    per_action = 1000 / max(1, tally.actions)
    rows.append(["cpu_ms_per_action_servers", round(sum(server_cpu) * per_action, 2)])
    rows.append(["cpu_ms_per_action_workers", round(sum(worker_cpu) * per_action, 2)])
    rows.append(["cpu_ms_per_action_clients", round(client_cpu * per_action, 2)])
    rows.append(["server_tracebacks", tracebacks])
    timer_moves, first_turns = timer_moves_played()
    rows.append(["timer_moves", timer_moves])
    rows.append(["timer_moves_first_turn", first_turns])
    print_table(["figure", "value"], rows)
    if tally.latencies_ms and tally.first_action_at is not None:
        print(f"\nlatency by {WINDOW_S} s of play (from the first action sent to the view answering it):")
        windows: dict[int, list[float]] = {}
        for latency, at in zip(tally.latencies_ms, tally.latency_times):
            windows.setdefault(int((at - tally.first_action_at) // WINDOW_S), []).append(latency)
        print_table(
            ["from_s", "actions", "p50_ms", "p99_ms", "max_ms"],
            [[window * WINDOW_S, len(values), round(percentile(values, 0.5)), round(percentile(values, 0.99)),
              round(max(values))] for window, values in sorted(windows.items())],
        )  # fmt: skip
    for error in tally.errors[:10]:
        print("error:", error)
    if first_traceback:
        print("first server traceback:", first_traceback, sep="\n")
    if args.json:
        write_report(args.json, figures)


if __name__ == "__main__":
    main()
