"""`manage.py ratings_recompute [--pool SLUG]`: replay every rated game in order and rewrite the ratings."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.models import RatingPool
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Replay every rated game of a pool (default: of every pool) in order and rewrite the ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pool", metavar="SLUG", help="only this pool")

    def handle(self, *args: Any, **options: Any) -> None:
        pool = None
        if options["pool"]:
            pool = RatingPool.objects.filter(slug=options["pool"]).first()
            if pool is None:
                known = ", ".join(RatingPool.objects.values_list("slug", flat=True))
                raise CommandError(f"no pool {options['pool']!r}; the pools are: {known}")

        def progress(one: RatingPool, done: int, total: int) -> None:
            self.stdout.write(f"{one.slug}: {done}/{total} games")

        started = time.perf_counter()
        summary = ratings_recompute(pool=pool, progress=progress)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"Recomputed {summary.games} games of {summary.pools} pools for {summary.players} players "
            f"in {seconds:.1f} s; rewritten: {summary.changes_rewritten} rating changes, "
            f"{summary.ratings_rewritten} ratings."
        )
