"""Helpers for the open game data tests: finished games at tables of every kind, moved into a chosen month."""

from __future__ import annotations

import datetime
import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accounts.models import User
from games import services as game_services
from games.models import Game
from tests.games.factories import latest_game, table_unchecked
from tests.ratings.helpers import play_out

MONTH = datetime.date(2024, 3, 1)  # a month long over, whatever the test machine's clock says


def at(day: int, hour: int = 12, minute: int = 0, second: int = 0, micro: int = 0, *, month: int = 3) -> datetime.datetime:
    return datetime.datetime(2024, month, day, hour, minute, second, micro, tzinfo=datetime.UTC)


def finished_game(
    people: Sequence[User], *, bots: Sequence[int] = (), gives_up: int | None = None, rated: bool = False,
    password: str = "", **options: Any,
) -> Game:
    """A game at a new table of `people` (easy bots at the seats in `bots`), played to the end (or given up at
    once by `people[gives_up]`) and finalised. A listed table may have a password, which `table_create`
    refuses: the export must still leave its games out."""
    seats = len(people) + len(bots)
    played_at = table_unchecked(people[0], seats=seats, rated=rated, turn_seconds=900, password=password, **options)
    humans = iter(people)
    for number in range(seats):
        if number in bots:
            game_services.table_add_bot(table=played_at, level="easy", seat=number)
        else:
            game_services.table_join(table=played_at, user=next(humans), seat=number, password=password)
    game = latest_game(played_at)
    if gives_up is not None:
        game_services.game_surrender(game_id=game.pk, user=people[gives_up])
    else:
        play_out(game)
    game_services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


def finished_at(game: Game, moment: datetime.datetime) -> Game:
    """The game as if it had ended at `moment` (its row's finish time moved; nothing else changes)."""
    Game.objects.filter(pk=game.pk).update(finished=moment)
    game.refresh_from_db()
    return game


def lines_of(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]
