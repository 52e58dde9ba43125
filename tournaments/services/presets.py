"""Creating an event as the create page's presets describe it: a tournament, and with a Swiss qualifier its
round-robin final in the same act (the final is an ordinary tournament whose ``qualifier`` is the Swiss, so
tournaments.services.rounds._qualify enters the Swiss's best when it ends)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from tournaments.models import Format, Tournament
from tournaments.services.create import tournament_create


@transaction.atomic
def tournament_create_staged(
    *, director: User, final_size: int = 0, final_starts_at: datetime.datetime | None = None, **arguments: Any
) -> tuple[Tournament, Tournament | None]:
    """Create the tournament (tournament_create's arguments) and, when ``final_size`` is given, the
    round-robin final of its best ``final_size``, starting at ``final_starts_at`` or when the Swiss ends.
    Both or neither: a refusal of either leaves nothing behind."""
    tournament = tournament_create(director=director, **arguments)
    if not final_size:
        return tournament, None
    if tournament.format != Format.SWISS:
        raise ValidationError(gettext("Only a Swiss qualifies for a final."))
    if final_starts_at is None or final_starts_at <= tournament.starts_at:
        raise ValidationError(gettext("The final starts after the Swiss."))
    final = tournament_create(
        director=director, name=gettext("%(name)s: final") % {"name": tournament.name}, description=tournament.description,
        rules=tournament.rules if tournament.rating_pool is None else None, rating_pool=tournament.rating_pool,
        format=Format.ROUND_ROBIN, seating=tournament.seating, team_size=tournament.team_size,
        games_per_pairing=max(2, tournament.games_per_pairing), points_win=tournament.points_win,
        points_draw=tournament.points_draw, registration_opens=tournament.registration_opens,
        registration_closes=min(tournament.registration_closes, final_starts_at), starts_at=final_starts_at,
        round_interval=tournament.round_interval, turn_seconds=tournament.turn_seconds,
        clock_base=tournament.clock_base, clock_increment=tournament.clock_increment,
        grace_seconds=tournament.grace_seconds, no_show=tournament.no_show, auto_advance=tournament.auto_advance,
        analyse_games=tournament.analyse_games, duplicate=tournament.duplicate,
        duplicate_scoring=tournament.duplicate_scoring,
        bots_allowed=tournament.bots_allowed, qualifier=tournament, qualify_count=final_size,
    )  # fmt: skip
    return tournament, final
