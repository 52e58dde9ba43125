"""Fill a fresh site with what a visitor needs to try it: an administrator, a bench of bots, and
tournaments (tournaments.demo): one of bots being played, the next open for registration."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import BotLevel
from accounts.services import admin_account_ensure, bot_account_ensure
from tournaments.demo import demo_tournaments_ensure

DEMO_ADMIN_USERNAME = "admin"

# (username, display name, engine, level); engines are the policies of games/bots.
DEMO_BOTS: tuple[tuple[str, str, str, BotLevel], ...] = (
    ("bot-random", "Random Rita", "random", BotLevel.EASY),
    ("bot-heuristic", "Heuristic Hugo", "heuristic", BotLevel.MEDIUM),
    ("bot-search", "Search Sonya", "search", BotLevel.HARD),
    ("bot-search-expert", "Expert Evgeny", "search", BotLevel.EXPERT),
)


class Command(BaseCommand):
    help = "Create the demo administrator (with a new password, printed), the demo bots and tournaments. Safe to repeat."

    def handle(self, *args: Any, **options: Any) -> None:
        password = secrets.token_urlsafe(12)
        admin = admin_account_ensure(username=DEMO_ADMIN_USERNAME, email="admin@localhost", password=password)
        for username, display_name, engine, level in DEMO_BOTS:
            bot_account_ensure(username=username, display_name=display_name, engine=engine, level=level)
        # A championship of bots that plays itself, and the next one open for registration; the
        # administrator directs them.
        for line in demo_tournaments_ensure(director=admin):
            self.stdout.write(line)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {len(DEMO_BOTS)} bots.\n"
                f"Administrator: username {DEMO_ADMIN_USERNAME!r}, password {password!r} (new at every start)"
            )
        )
