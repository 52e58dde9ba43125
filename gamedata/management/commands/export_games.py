"""``manage.py export_games --month YYYY-MM``: write a month's open game data file (gamedata.services)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import filesizeformat

from gamedata.services import GameDataError, data_dir, month_parse, monthly_export_make


class Command(BaseCommand):
    help = "Write the finished public games of a month (UTC) as one gzip-compressed JSON Lines file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--month", required=True, help="the month, YYYY-MM (UTC); it must be over")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            month = month_parse(options["month"])
        except GameDataError as error:
            raise CommandError(f"--month: {error}") from None
        export = monthly_export_make(month=month)
        self.stdout.write(
            f"{data_dir() / export.file_name}: {export.games} games, {filesizeformat(export.bytes)}, "
            f"sha256 {export.sha256}"
        )
