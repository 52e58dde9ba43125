"""Fill a fresh site with what a visitor needs to try it: an administrator, a bench of bots, tournaments
(tournaments.demo): one of bots being played, the next open for registration, and a rated history.

The administrator's new password is printed and written to DEMO_PASSWORD_FILE (git-ignored, readable by its
owner only), where `make run` reads it to print it again once the server has started."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Max

from accounts.bot_names import BOT_BENCH, BotPersona, english_name
from accounts.models import BotLevel
from accounts.services import admin_account_ensure, bot_account_ensure
from games.models import Game
from tournaments.demo import demo_tournaments_ensure

DEMO_ADMIN_USERNAME = "admin"
DEMO_PASSWORD_FILE = ".demo-admin-password"  # in the project's folder; README.md names it


def demo_password_path() -> Path:
    """DEMO_PASSWORD_FILE in the project's folder (the test settings name another place: DEMO_ADMIN_PASSWORD_FILE)."""
    return Path(getattr(settings, "DEMO_ADMIN_PASSWORD_FILE", "") or Path(settings.BASE_DIR) / DEMO_PASSWORD_FILE)


def write_password_file(path: Path, password: str) -> None:
    """The password alone on its line, in a file only its owner may read."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(f"{password}\n")
    os.chmod(path, 0o600)  # an older file keeps its mode through O_CREAT


# The first bot of each level's bench (accounts.bot_names), the account a table seats first; the bench's others
# are created when a table seats a second bot of a level.
DEMO_BOTS: tuple[tuple[BotLevel, BotPersona], ...] = tuple(
    (BotLevel(level), bench[0]) for level, bench in BOT_BENCH.items()
)


def error_pages_hint() -> str:
    """Where to see the site's own 404 page (templates/404.html): a game that does not exist. With DEBUG on (the
    default of `make run`, durak_site.settings.local) Django shows its debug page there instead."""
    missing = (Game.objects.aggregate(most=Max("pk"))["most"] or 0) + 1000
    return (
        f"A missing game, for the site's 404 page: /play/game/{missing}/ "
        "(start with DEBUG=false make run to see the site's own 403, 404 and 500 pages instead of Django's debug pages)"
    )


class Command(BaseCommand):
    help = (
        "Create the demo administrator (with a new password, printed), the demo bots and tournaments. Safe to repeat."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--password-file",
            type=Path,
            default=None,
            help=f"where to write the administrator's password (default: {DEMO_PASSWORD_FILE} in the project)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        password = secrets.token_urlsafe(12)
        admin = admin_account_ensure(username=DEMO_ADMIN_USERNAME, email="admin@localhost", password=password)
        password_file = options["password_file"] or demo_password_path()
        write_password_file(password_file, password)
        for level, persona in DEMO_BOTS:
            bot_account_ensure(
                username=persona.username, display_name=english_name(persona), engine=persona.engine, level=level
            )
        # A championship of bots that plays itself, and the next one open for registration; the
        # administrator directs them.
        for line in demo_tournaments_ensure(director=admin):
            self.stdout.write(line)
        self.stdout.write(error_pages_hint())
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {len(DEMO_BOTS)} bots.\n"
                f"Administrator: username {DEMO_ADMIN_USERNAME!r}, password {password!r} (new at every start; "
                f"also in {password_file})"
            )
        )
