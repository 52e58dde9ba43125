"""``manage.py simulate``: bots play many games; prints each seat's win, durak and draw shares with
95 % intervals and the games per second, and with --json writes the same figures."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import get_policy
from games.engine.errors import MalformedRecord
from games.engine.records import Record
from games.engine.rules import PRESETS, Rules
from games.engine.simulate import simulate


class Command(BaseCommand):
    help = "Play games between engine bots and report how each seat fares."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--preset", default="podkidnoy", choices=list(PRESETS))
        parser.add_argument("--rules", default="{}", help='more options as JSON, e.g. \'{"deck": 24}\'')
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--bots", default="random", help="one bot per seat, comma-separated (or one for all)")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", default=None, help="makes the run reproducible (default: a random seed)")
        parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
        parser.add_argument("--record-dir", type=Path, default=None, help="save every game's record here")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            extra = json.loads(options["rules"])
            rules = Rules.from_dict({"preset": options["preset"], **extra})
        except (ValueError, TypeError, MalformedRecord) as error:
            raise CommandError(f"bad rules: {error}") from None
        players = options["players"]
        if not 2 <= players <= rules.max_players:
            raise CommandError(f"a {rules.deck}-card game takes 2 to {rules.max_players} players")
        if rules.teams and players != 2 * rules.team_size:
            raise CommandError(f"teams {rules.teams} need {2 * rules.team_size} players")
        names = [name.strip() for name in options["bots"].split(",") if name.strip()]
        if len(names) == 1:
            names *= players
        if len(names) != players:
            raise CommandError(f"--bots names {len(names)} bots for {players} seats")
        try:
            policies = [get_policy(name) for name in names]
        except ValueError as error:
            raise CommandError(str(error)) from None
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        seed = options["seed"] or secrets.token_hex(8)

        record_dir: Path | None = options["record_dir"]
        on_record = None
        if record_dir is not None:
            record_dir.mkdir(parents=True, exist_ok=True)
            width = len(str(games))

            def on_record(number: int, record: Record) -> None:
                path = record_dir / f"game-{number + 1:0{width}d}.json"
                path.write_text(json.dumps(record.to_json()) + "\n", encoding="utf-8")

        step = max(1, games // 50)

        def on_progress(done: int, seconds: float) -> None:
            if done % step == 0 or done == games:
                rate = done / seconds if seconds else 0.0
                self.stderr.write(f"\r  {done:,}/{games:,} games ({100 * done // games}%), {rate:,.0f} games/s",
                                  ending="")
                if done == games:
                    self.stderr.write("")

        result = simulate(rules, players, names, policies, games, seed, on_record=on_record, on_progress=on_progress)
        summary = {"seed": seed, **result.summary()}
        self.stdout.write(f"{games:,} games, {players} players, seed {seed}: "
                          f"{summary['games_per_s']:,.0f} games/s, {summary['actions_per_game']:.1f} actions a game")
        self.stdout.write(f"{'seat':>4}  {'bot':<10} {'win':>22}  {'durak':>22}  {'draw':>22}")
        for row in summary["seats"]:
            cells = [f"{row[name]:6.1%} [{row[name + '_ci95'][0]:5.1%}, {row[name + '_ci95'][1]:5.1%}]"
                     for name in ("win", "durak", "draw")]
            self.stdout.write(f"{row['seat']:>4}  {row['bot']:<10} " + "  ".join(f"{cell:>22}" for cell in cells))
        if result.unfinished:
            self.stdout.write(f"{result.unfinished} games stopped unfinished after the action cap")
        if options["json"] is not None:
            options["json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
