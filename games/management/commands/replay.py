"""``manage.py replay FILE``: replay a game record and print the JSON of DESIGN.md ("The game record").

Exit status 0 when every action is legal, 1 at the first illegal action, 2 for a malformed record.
The command is a thin shell over ``games.engine.records``; it needs no database.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine.records import EXIT_MALFORMED, Replay, replay_text


class Command(BaseCommand):
    help = "Replay a game record (a file, or - for standard input) and print the result as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as record_file:
                    text = record_file.read()
        except (OSError, UnicodeDecodeError) as error:
            answer = Replay(ok=False, error=f"cannot read {path}: {error}", exit_status=EXIT_MALFORMED)
        else:
            answer = replay_text(text)
        self.stdout.write(json.dumps(answer.to_json(), ensure_ascii=False))
        if answer.exit_status:
            sys.exit(answer.exit_status)
