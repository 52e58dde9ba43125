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
from django.db.models import Max

from tournaments import services
from tournaments.models import Entrant, Round, RoundStatus, Seating, Tournament
from tournaments.pairing.trf import TrfError, tournament_trf, write_trf


class Command(BaseCommand):
    help = "Write a heads-up tournament's closed rounds as a FIDE TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("--out", type=Path, default=None, help="write the TRF here (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {options['tournament']}")
        if tournament.seating == Seating.TABLES:
            raise CommandError("a TRF holds heads-up pairings only; this tournament seats tables")
        closed = Round.objects.filter(tournament=tournament, status=RoundStatus.CLOSED).aggregate(last=Max("number"))
        entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user").order_by("number"))
        last = closed["last"] or 0
        # The standings' ranks count every scored board: used when no round is being played, else points order.
        ranks = (
            {standing.entrant: standing.rank for standing in services.standings_compute(tournament=tournament)}
            if last == tournament.current_round else None
        )  # fmt: skip
        try:
            text = write_trf(
                tournament_trf(
                    tournament.name, {entrant.key: entrant.rating for entrant in entrants},
                    services._results_by_round(tournament, upto=last),
                    names={entrant.key: entrant.team_name or entrant.user.public_name for entrant in entrants},
                    ranks=ranks, planned_rounds=tournament.rounds_planned,
                )
            )  # fmt: skip
        except TrfError as error:
            raise CommandError(str(error)) from None
        if options["out"] is None:
            self.stdout.write(text, ending="")
        else:
            options["out"].write_bytes(text.encode("utf-8"))
