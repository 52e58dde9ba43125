"""``manage.py export_trf TOURNAMENT``: a heads-up tournament's closed rounds as FIDE's Tournament Report File
(tournaments.pairing.trf), so that a FIDE pairing checker can re-pair it.

    python manage.py export_trf 12 --out cup.trf

TOURNAMENT is the tournament's id. A round still being played is left out (its boards are not all scored), and
then the ranks are by points rather than the standings' tie-breaks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import services
from tournaments.models import Tournament
from tournaments.pairing.trf import TrfError


class Command(BaseCommand):
    help = "Write a heads-up tournament's closed rounds as a FIDE TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("--out", type=Path, default=None, help="write the TRF here (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {options['tournament']}")
        try:
            text = services.tournament_trf(tournament=tournament)
        except TrfError as error:
            raise CommandError(str(error)) from None
        if options["out"] is None:
            self.stdout.write(text, ending="")
        else:
            options["out"].write_bytes(text.encode("utf-8"))
