"""A whole tournament run through the real services, for `manage.py simulate_tournament` and the tests.

Bots enter (their seeding ratings drawn from the seed), the tournament starts, and round after round is
paired by tournaments.services. Then either the bots play every game through games.services (each move
as a bot task would make it, the finalisation as its task would run it), or, with ``fast``, each game's
result is drawn from the ratings (Elo's expected score; at a table, rating plus noise orders the players)
and scored through the same services without dealing. Withdrawals and late entries can be mixed in.

Everything happens in one transaction that is rolled back at the end: the database is left as it was,
and the tasks the services schedule after their commits are never sent (the loop drives the games
itself). What comes back is DESIGN.md's "Tournament simulation output" (tournaments.selectors.tournament_export).
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from accounts.models import BotLevel, User
from accounts.roles import Role
from accounts.services import bot_account_ensure, user_role_grant, user_sign_up
from games import services as game_services
from games.models import GameStatus
from ratings.elo import expected_score
from tournaments import selectors, services
from tournaments.models import (
    DuplicateScoring, Entrant, Format, MatchGame, MatchGameStatus, Pairing, PairingEntrant, PairingStatus, Seating, Tournament,
    TournamentStatus,
)
from tournaments.scoring import game_seating

DRAW_RATE = 0.05  # heads-up Durak draws (both out in the same bout) are rare
TABLE_NOISE = 250.0
MOVES_A_GAME_AT_MOST = 5000


@dataclass(frozen=True)
class SimulationOptions:
    format: str = Format.SWISS
    players: int = 16
    rounds: int = 5
    seating: str = Seating.HEADS_UP
    table_size: int = 4
    team_size: int = 2
    games_per_pairing: int = 1
    seed: int = 1
    fast: bool = False
    withdrawals: int = 0  # entrants who withdraw, each before a random round after the first
    late_entries: int = 0  # entrants who join a Swiss before a random round after the first
    duplicate: bool = False  # duplicate rounds (issue 37): the bots play every game, --fast does not apply
    duplicate_scoring: str = DuplicateScoring.TIEBREAK


class _RollBack(Exception):
    """Raised to leave the simulation's transaction without keeping anything."""


def simulate(
    options: SimulationOptions,
    *,
    progress: Callable[[str], None] | None = None,
    inspect: Callable[[Tournament], None] | None = None,
) -> dict[str, Any]:
    """Run the tournament and return its export; the database is left unchanged. ``inspect`` is called with
    the finished tournament before everything is rolled back (bench/pairing.py reads its pages)."""
    exported: dict[str, Any] = {}
    try:
        with transaction.atomic():
            event = _run(options, progress or (lambda message: None))
            exported = selectors.tournament_export(tournament=event)
            if inspect is not None:
                inspect(event)
            raise _RollBack
    except _RollBack:
        pass
    return exported


def _director() -> User:
    user = user_sign_up(
        username=f"simulation-{secrets.token_hex(4)}", email="", password=secrets.token_urlsafe(24),
        preferred_language="en",
    )  # fmt: skip
    return user_role_grant(user=user, role=Role.TOURNAMENT_DIRECTOR)


def _bots(count: int, rng: random.Random) -> list[tuple[User, float]]:
    """Bot accounts with their drawn ratings; the stronger half plays the heuristic bot, the rest random."""
    ratings = [round(rng.gauss(1500, 200)) for _ in range(count)]
    median = sorted(ratings)[count // 2] if ratings else 0
    tag = secrets.token_hex(3)
    players = []
    for index, rating in enumerate(ratings, start=1):
        strong = rating >= median
        players.append((
            bot_account_ensure(
                username=f"sim-{tag}-{index:04d}", display_name=f"Bot {index}",
                engine="heuristic" if strong else "random", level=BotLevel.MEDIUM if strong else BotLevel.EASY,
            ),
            float(rating),
        ))  # fmt: skip
    return players


def _run(options: SimulationOptions, progress: Callable[[str], None]) -> Tournament:
    rng = random.Random(options.seed)
    director = _director()
    now = timezone.now()
    event = services.tournament_create(
        director=director, name=f"Simulation {options.seed}", starts_at=now, registration_opens=now,
        format=options.format, rounds=options.rounds, seating=options.seating, table_size=options.table_size,
        team_size=options.team_size, games_per_pairing=options.games_per_pairing, round_interval=0,
        turn_seconds=60, grace_seconds=60, duplicate=options.duplicate, duplicate_scoring=options.duplicate_scoring,
    )  # fmt: skip
    team = options.team_size if options.seating == Seating.TEAMS else 1
    late = options.late_entries if options.format == Format.SWISS else 0
    field = _bots((options.players + late) * team, rng)
    entries = [field[index : index + team] for index in range(0, len(field), team)]
    on_time, waiting = entries[: options.players], entries[options.players :]
    for members in on_time:
        _enter(event, director, members)
    services.tournament_start(tournament=event, by=director, deal_games=not options.fast)
    event.refresh_from_db()
    if event.status != TournamentStatus.RUNNING:
        raise ValueError(f"the tournament did not start: {event.status}")
    last = event.rounds_planned
    leaving = {
        entrant.pk: rng.randint(2, last)
        for entrant in rng.sample(list(Entrant.objects.filter(tournament=event)), k=min(options.withdrawals, options.players))
    } if last > 1 else {}  # fmt: skip
    joining = {index: rng.randint(2, last) for index in range(len(waiting))} if last > 1 else {}
    for number in range(1, last + 1):
        if number > 1:
            for entrant_id, before in leaving.items():
                if before == number:
                    services.entrant_withdraw(entrant=Entrant.objects.get(pk=entrant_id), by=director, reason="simulated")
            for index, before in joining.items():
                if before == number:
                    _enter(event, director, waiting[index])
            services.round_start_due(
                tournament=event, number=number, now=timezone.now() + datetime.timedelta(days=1),
                deal_games=not options.fast,
            )  # fmt: skip
        if options.fast:
            _draw_round(event, number, rng)
        else:
            _play_round(event)
        progress(f"round {number} of {last} done")
        event.refresh_from_db()
        if event.paused:
            raise ValueError(f"round {number + 1} could not be paired (see the tournament's log)")
    event.refresh_from_db()
    return event


def _enter(event: Tournament, director: User, members: list[tuple[User, float]]) -> Entrant:
    ratings = [rating for _, rating in members]
    return services.tournament_register(
        tournament=event, user=members[0][0], partners=[user for user, _ in members[1:]], by=director,
        rating=sum(ratings) / len(ratings),
        team_name=f"Team {members[0][0].public_name}" if len(members) > 1 else "",
    )  # fmt: skip


def _play_round(event: Tournament) -> None:
    """Every game of the round, the next games of a match included, moved by the bots to the end."""
    for _ in range(1_000_000):
        match_game = (
            MatchGame.objects.filter(pairing__tournament=event, status=MatchGameStatus.PLAYING)
            .select_related("game").order_by("pk").first()
        )  # fmt: skip
        if match_game is None:
            return
        game = match_game.game
        for _ in range(MOVES_A_GAME_AT_MOST):
            game.refresh_from_db()
            if game.status == GameStatus.FINISHED:
                break
            game_services.game_bot_move(game_id=game.pk, seq=game.seq)
        else:
            raise RuntimeError(f"game {game.pk} did not end")
        game_services.game_finalise(game_id=game.pk)


def _draw_round(event: Tournament, number: int, rng: random.Random) -> None:
    """Draw every waiting pairing's games from the ratings and score them."""
    table = event.seating == Seating.TABLES
    pairings = (
        Pairing.objects.filter(tournament=event, round__number=number, status=PairingStatus.WAITING)
        .prefetch_related(Prefetch("seats", queryset=PairingEntrant.objects.select_related("entrant"))).order_by("board")
    )  # fmt: skip
    for pairing in pairings:
        ratings = [seat.entrant.rating for seat in sorted(pairing.seats.all(), key=lambda seat: seat.position)]
        games = []
        for game_number in range(1, event.games_per_pairing + 1):
            seats = [position for position, _ in game_seating(len(ratings), event.team_size, game_number)]
            games.append(_draw_game(seats, ratings, rng, table=table))
        services.pairing_record_simulated(pairing=pairing, games=games)


def _draw_game(seats: list[int], ratings: list[float], rng: random.Random, *, table: bool) -> list[list[int]]:
    """The places of one game (groups of seats, best first)."""
    if table:
        order = sorted(range(len(seats)), key=lambda seat: -ratings[seats[seat]] - rng.gauss(0, TABLE_NOISE))
        return [[seat] for seat in order]
    if rng.random() < DRAW_RATE:
        return [list(range(len(seats)))]
    first_wins = rng.random() < expected_score(ratings[0], ratings[1])
    winners = [seat for seat in range(len(seats)) if (seats[seat] == 0) == first_wins]
    losers = [seat for seat in range(len(seats)) if seat not in winners]
    return [winners, losers]

