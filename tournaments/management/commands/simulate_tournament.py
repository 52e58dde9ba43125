"""``manage.py simulate_tournament``: a whole tournament of bots through the real services (or, with --fast,
with results drawn from the ratings), written as DESIGN.md's "Tournament simulation output".

    python manage.py simulate_tournament --format swiss --players 64 --rounds 7 --seating heads-up --seed 1 --json out.json

The database is left as it was (tournaments.simulation runs in a transaction it rolls back); on SQLite
that transaction holds the write lock while it runs, so a site served from the same file waits.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import DuplicateScoring, Format, Seating
from tournaments.simulation import SimulationOptions, simulate


class Command(BaseCommand):
    help = "Run a whole tournament of bots through the services and write its pairings, results and standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=Format.values, default=Format.SWISS)
        parser.add_argument("--players", type=int, default=16, help="entrants (teams count as one)")
        parser.add_argument("--rounds", type=int, default=5, help="Swiss rounds (a round robin has its own)")
        parser.add_argument("--seating", choices=Seating.values, default=Seating.HEADS_UP)
        parser.add_argument("--table-size", type=int, default=4, help="players at a table (tables: 3 to 6)")
        parser.add_argument("--team-size", type=int, default=2, help="players in a team (teams: 2 or 3)")
        parser.add_argument("--games", type=int, default=1, help="games per pairing, first attack alternating")
        parser.add_argument("--seed", type=int, default=1, help="draws the ratings (and with --fast the results)")
        parser.add_argument("--fast", action="store_true", help="draw each game's result from the ratings")
        parser.add_argument("--withdrawals", type=int, default=0, help="entrants who withdraw during the event")
        parser.add_argument("--late-entries", type=int, default=0, help="entrants who join a Swiss late")
        parser.add_argument("--duplicate", action="store_true",
                            help="duplicate rounds: every board of a round plays the same deals, seats rotated")
        parser.add_argument("--duplicate-scoring", choices=DuplicateScoring.values, default=DuplicateScoring.TIEBREAK,
                            help="rank by points with the duplicate total as a tie-break, or by the duplicate total")
        parser.add_argument("--json", type=Path, default=None, help="write the tournament here (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("--players must be at least 2")
        settings = SimulationOptions(
            format=options["format"], players=options["players"], rounds=options["rounds"],
            seating=options["seating"], table_size=options["table_size"], team_size=options["team_size"],
            games_per_pairing=options["games"], seed=options["seed"], fast=options["fast"],
            withdrawals=options["withdrawals"], late_entries=options["late_entries"],
            duplicate=options["duplicate"], duplicate_scoring=options["duplicate_scoring"],
        )  # fmt: skip
        if settings.duplicate and settings.fast:
            raise CommandError("--duplicate scores the cards the bots were dealt: it cannot be drawn with --fast")
        # One line a game about its (un)rated table says nothing here; the level is put back afterwards.
        ratings_log = logging.getLogger("ratings.services")
        level = ratings_log.level
        ratings_log.setLevel(logging.WARNING)
        started = time.perf_counter()
        try:
            exported = simulate(settings, progress=lambda message: self.stderr.write(message))
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        except ValueError as error:
            raise CommandError(str(error)) from None
        finally:
            ratings_log.setLevel(level)
        text = json.dumps(exported, ensure_ascii=False, indent=1)
        if options["json"] is None:
            self.stdout.write(text)
        else:
            options["json"].write_text(text + "\n", encoding="utf-8")
        self.stderr.write(
            f"{len(exported['entrants'])} entrants, {len(exported['rounds'])} rounds in "
            f"{time.perf_counter() - started:.1f} s"
        )
