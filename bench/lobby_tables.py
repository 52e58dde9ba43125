"""Benchmark of the lobby's list (games.selectors.lobby_tables): what one read of it costs a web process.

Figures:
- ``lobby_tables_ms``: CPU milliseconds of this process (``time.process_time``) for one call, the mean of
  the timed calls; ``lobby_tables_wall_ms``: the same in wall-clock time (the database's own work included).
- ``lobby_tables_queries``: the queries one call makes.
- ``lobby_tables_shown``: how many tables the list holds (games.selectors.LOBBY_TABLES at most).

The lobby is made in one transaction that is rolled back at the end, on the database of DATABASE_URL
(migrated): ``--tables`` public tables, open and being played, of two to six seats, each seat empty, a person
(with or without a display name) or a bench bot, and a few private and finished tables that are left out.

Usage: ``DATABASE_URL=postgres://... python bench/lobby_tables.py [--quick] [--json PATH] [--tables N]``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse

from bench._common import print_table, write_report

SEED = 36


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write the figures to PATH as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer timed calls")
    parser.add_argument("--tables", type=int, default=200, help="public tables in the lobby (default 200)")
    parser.add_argument("--calls", type=int, default=100, help="timed calls (default 100; --quick: 20)")
    return parser.parse_args()


def _make_lobby(tables: int) -> None:
    from accounts.bot_names import BOT_BENCH, bench_persona, english_name
    from accounts.models import User
    from games.models import Seat, Table, TableStatus

    chance = random.Random(SEED)
    owner = User.objects.create(username="bench-lobby-owner")
    people = User.objects.bulk_create(
        User(username=f"bench-lobby-{number}", display_name=f"Player {number}" if number % 2 else "")
        for number in range(400)
    )
    # The bench's bots, and a second generation of each ("Lucky Lyosha II"): their names are looked up by username.
    personas = [
        (level, persona) for level, bench in BOT_BENCH.items()
        for persona in (*bench, *(bench_persona(level, len(bench) + index) for index in range(len(bench))))
    ]  # fmt: skip
    known = set(User.objects.filter(username__in=[persona.username for _level, persona in personas]).values_list(
        "username", flat=True))  # fmt: skip
    User.objects.bulk_create(
        User(username=persona.username, display_name=english_name(persona), is_bot=True, bot_engine=persona.engine,
             bot_level=level)
        for level, persona in personas if persona.username not in known
    )  # fmt: skip
    bots = list(User.objects.filter(is_bot=True, username__in=[persona.username for _level, persona in personas]))
    rows = []
    for number in range(tables + 40):
        private = number % 25 == 3
        status = TableStatus.FINISHED if number % 30 == 7 else chance.choice([TableStatus.OPEN, TableStatus.PLAYING])
        clocked = number % 3 == 0
        rows.append(Table(
            name=f"Evening {number}" if number % 4 else "", rules={"preset": "podkidnoy", "deck": 36},
            seat_count=chance.randint(2, 6), stake=chance.choice([0, 10, 50]), private=private,
            link_token=f"bench-lobby-{number}", rated=number % 2 == 0, turn_seconds=30, owner=owner,
            clock_base=180 if clocked else None, clock_increment=2 if clocked else 0, status=status,
        ))  # fmt: skip
    made = Table.objects.bulk_create(rows)
    seats = []
    for table in made:
        guests = iter(chance.sample(people, table.seat_count))  # a person sits once at a table
        for number in range(table.seat_count):
            kind = chance.random()
            if kind < 0.35:
                seats.append(Seat(table=table, number=number, user=next(guests)))
            elif kind < 0.7:
                bot = chance.choice(bots)
                seats.append(Seat(table=table, number=number, user=bot, bot_level=bot.bot_level))
            else:
                seats.append(Seat(table=table, number=number))
    Seat.objects.bulk_create(seats)


def main() -> None:
    arguments = _arguments()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings.local")
    import django

    django.setup()
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from games.selectors import lobby_tables

    calls = 20 if arguments.quick else arguments.calls
    with transaction.atomic():
        _make_lobby(arguments.tables)
        shown = len(lobby_tables())  # warmed: the first call compiles and caches what it can
        with CaptureQueriesContext(connection) as queries:
            lobby_tables()
        cpu_started, wall_started = time.process_time(), time.perf_counter()
        for _call in range(calls):
            lobby_tables()
        cpu_ms = (time.process_time() - cpu_started) * 1000 / calls
        wall_ms = (time.perf_counter() - wall_started) * 1000 / calls
        transaction.set_rollback(True)
    figures = {
        "lobby_tables_ms": round(cpu_ms, 3),
        "lobby_tables_wall_ms": round(wall_ms, 3),
        "lobby_tables_queries": len(queries.captured_queries),
        "lobby_tables_shown": shown,
    }
    print_table(["figure", "value"], list(figures.items()))
    if arguments.json:
        write_report(arguments.json, figures)


if __name__ == "__main__":
    main()
