"""Helpers for the ratings tests: live games played through games.services, synthetic games through
ratings.services."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from accounts.models import User
from games import services as game_services
from games.models import Game, GameStatus, Result, Seat
from games.selectors import game_view_for
from games.snapshots import state_of
from games.turns import waiting_seats
from ratings import elo
from ratings.models import RatingPool
from ratings.services import rating_apply_game
from tests.games.factories import latest_game, person, table, table_unchecked

__all__ = ["finished_game", "latest_game", "person", "play_out", "synthetic_games", "table"]

START = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def _first_legal(game: Game, seat: int) -> dict[str, object]:
    view = game_view_for(game=game, user=Seat.objects.get(table=game.table, number=seat).user)
    legal = view["view"]["legal"]
    for kind in ("take", "pass"):
        for action in legal:
            if action["type"] == kind:
                return dict(action)
    return dict(next(action for action in legal if action["type"] != "accuse"))


def play_out(game: Game) -> Game:
    """Play to the end: people make their first legal move, bot seats are moved by the bot service."""
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            return game
        seat_number = waiting_seats(state_of(game))[0]
        seat = Seat.objects.select_related("user").get(table=game.table, number=seat_number)
        if seat.is_bot:
            game_services.game_bot_move(game_id=game.pk, seq=game.seq)
        else:
            assert seat.user is not None
            game_services.game_submit_action(
                game_id=game.pk, user=seat.user, action=_first_legal(game, seat_number), seq=game.seq
            )
    raise AssertionError("the game did not end")


def finished_game(
    people: Sequence[User], *, rated: bool = True, rules: dict[str, object] | None = None, bots: Sequence[int] = (),
    loser: int | None = None,
) -> tuple[Game, Result]:
    """A game at a new table of ``people`` (bots at the seats in ``bots``), finished and finalised: by
    ``loser`` giving up at once, or else played out. A rated table may have cheating rules, which
    ``table_create`` refuses: the ratings must still leave its game alone."""
    seats = len(people) + len(bots)
    at = table_unchecked(people[0], seats=seats, rated=rated, rules=rules)
    humans = iter(people)
    for number in range(seats):
        if number in bots:
            game_services.table_add_bot(table=at, level="easy", seat=number)
        else:
            game_services.table_join(table=at, user=next(humans), seat=number)
    game = latest_game(at)
    if loser is not None:
        game_services.game_surrender(game_id=game.pk, user=people[loser])
    else:
        play_out(game)
    result = game_services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game, result


def random_outcome(rng: random.Random, seats: int, teams: bool) -> elo.Outcome:
    """A random finish at a table of ``seats``: a draw now and then, players out together, one durak."""
    if rng.random() < 0.08:
        team_groups = ((0, 2), (1, 3)) if teams else ()
        return elo.Outcome(places=(tuple(range(seats)),), teams=team_groups)
    if teams:
        winning = rng.randrange(2)
        groups = ((0, 2), (1, 3))
        return elo.Outcome(places=(groups[winning], groups[1 - winning]), teams=groups)
    order = list(range(seats))
    rng.shuffle(order)
    durak = order.pop()
    places: list[list[int]] = []
    for seat in order:
        if places and rng.random() < 0.25:
            places[-1].append(seat)
        else:
            places.append([seat])
    places.append([durak])
    return elo.Outcome(places=tuple(tuple(group) for group in places))


def synthetic_games(
    pool: RatingPool, players: Sequence[User], count: int, *, seed: int, seats: tuple[int, int] = (2, 2),
    teams: bool = False, prefix: str = "synthetic",
) -> list[tuple[tuple[int, ...], elo.Outcome]]:
    """Rate ``count`` random games of ``pool`` through the service; returns (user ids, outcome) per game."""
    rng = random.Random(seed)
    played = []
    for number in range(count):
        size = rng.randint(*seats)
        table_players = rng.sample(list(players), size)
        outcome = random_outcome(rng, size, teams)
        epaulettes = None
        if len(outcome.places) > 1 and rng.random() < 0.1:
            loser = outcome.places[-1][0]
            epaulettes = {"seat": None if teams else loser, "by": outcome.places[0][0], "rank": "6",
                          "cards": ["6H", "6D"]}
        rating_apply_game(
            pool=pool, game_key=f"{prefix}:{pool.slug}:{number}", players=table_players, outcome=outcome,
            played_at=START + datetime.timedelta(minutes=number), epaulettes=epaulettes,
        )
        played.append((tuple(player.pk for player in table_players), outcome))
    return played
