"""Open game data: each month's finished public games written as one gzip-compressed JSON Lines file.

A line is the game's record exactly as its download gives it (games.selectors.game_record_json, DESIGN.md's
format) with `EXTRA_KEYS` beside the record's own keys: the replay tool reads a line as a record and ignores
them. A month holds the games finished in it (UTC) on public tables (neither private nor locked by a password)
outside private tournaments (a registration code: tournaments.models.Tournament), with none of their players
opted out (accounts.models.User.data_export_opt_out), finalised (a result stored). The games are read with
`.iterator()` and streamed through gzip, so a month is never held in memory; the file is written beside its
final name and renamed over it, so a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone, translation

from gamedata.models import MonthlyExport
from games.models import Game, GameStatus, Seat
from games.selectors import game_record_json

# The keys a line adds beside the record's own (DESIGN.md, "The game record"); none of them is a record key.
EXTRA_KEYS = ("id", "finished", "result", "seats")
# The record's keys (DESIGN.md and its compatible extensions: the game's commitment, a director's decision, an
# epaulette series): a line's extra key must never be one of them.
RECORD_KEYS = frozenset({
    "rules", "players", "hands", "stock", "trump", "first_attacker", "teams", "stake", "hidden", "hidden_trump",
    "actions", "commitment", "salt", "deck", "surrendered", "decision", "series", "redeals",
})  # fmt: skip
CHUNK = 200  # games read a query at a time
_MONTH = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})")


class GameDataError(ValueError):
    """A month that cannot be exported (malformed, or not over yet); the message says which and why."""


def month_parse(text: str, *, now: datetime.datetime | None = None) -> datetime.date:
    """The first day of the month written YYYY-MM, refused unless the month is over (UTC)."""
    match = _MONTH.fullmatch(text.strip())
    if match is None or not 1 <= int(match["month"]) <= 12 or int(match["year"]) < 1:
        raise GameDataError(f'a month is written YYYY-MM, such as 2026-11, not "{text}"')
    month = datetime.date(int(match["year"]), int(match["month"]), 1)
    try:
        _, end = month_bounds(month)
    except ValueError:  # 9999-12: no next month to end it
        raise GameDataError(f"{month:%Y-%m} is not over yet") from None
    if end > (now or timezone.now()):
        raise GameDataError(f"{month:%Y-%m} is not over yet: its games can be exported from {end:%Y-%m-%d} 00:00 UTC")
    return month


def month_bounds(month: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    """The month's first moment and the next month's, in UTC."""
    start = datetime.datetime(month.year, month.month, 1, tzinfo=datetime.UTC)
    following = datetime.datetime(month.year + month.month // 12, month.month % 12 + 1, 1, tzinfo=datetime.UTC)
    return start, following


def previous_month(now: datetime.datetime) -> datetime.date:
    """The calendar month (UTC) before the one `now` falls in."""
    today = now.astimezone(datetime.UTC).date()
    return (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)


def file_name_of(month: datetime.date) -> str:
    return f"durak_games_{month:%Y-%m}.jsonl.gz"


def data_dir() -> Path:
    return Path(settings.GAME_DATA_DIR)


def month_games(month: datetime.date) -> QuerySet[Game]:
    """The games of a month's file, in the order they finished: finished and finalised in that month (UTC), on
    a public table, outside a private tournament, no player opted out."""
    start, end = month_bounds(month)
    return (
        Game.objects.filter(
            status=GameStatus.FINISHED, finished__gte=start, finished__lt=end, result__isnull=False, deck_held=False,
            table__private=False, table__password_hash="",
        )
        .filter(Q(match_game__isnull=True) | Q(match_game__pairing__tournament__registration_code=""))
        .exclude(table__seats__user__data_export_opt_out=True)
        .select_related("table", "result", "rated_game__pool")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.select_related("user").order_by("number")),
            "rated_game__changes",
        )
        .order_by("finished", "pk")
    )  # fmt: skip


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _ratings(game: Game) -> dict[int, dict[str, Any]]:
    """Per seat, the rating before and after as the game's result panel shows them (games.aftermath)."""
    try:
        rated = game.rated_game
    except ObjectDoesNotExist:
        return {}
    if rated is None:
        return {}
    return {
        change.seat: {
            "pool": rated.pool.slug, "before": change.shown_before, "after": change.shown_after,
            "provisional": change.provisional,
        }
        for change in rated.changes.all()
    }  # fmt: skip


def game_line(game: Game) -> dict[str, Any]:
    """One line of a month's file: the game's record (game_record_json, unchanged) and EXTRA_KEYS beside it.

    Names are written in English (a bench bot's name is translated on pages)."""
    record = game_record_json(game=game)  # refuses a game being played: its record holds every hidden card
    clash = RECORD_KEYS.intersection(EXTRA_KEYS) | set(record).intersection(EXTRA_KEYS)
    if clash:
        raise RuntimeError(f"game {game.pk}: the record already has {sorted(clash)}")
    assert game.finished is not None
    ratings = _ratings(game)
    with translation.override("en"):
        seats = [
            {
                "seat": seat.number,
                "name": seat.user.public_name if seat.user is not None else None,
                "bot": seat.is_bot or bool(seat.user is not None and seat.user.is_bot),
                "bot_level": (seat.bot_level or (seat.user.bot_level if seat.user is not None else "")) or None,
                "rating": ratings.get(seat.number),
            }
            for seat in game.table.seats.all()
            if seat.number < game.players
        ]
    return {**record, "id": game.pk, "finished": _iso(game.finished), "result": game.result.to_json(), "seats": seats}


def month_lines(month: datetime.date) -> Iterator[bytes]:
    """The month's lines, encoded, one game at a time."""
    for game in month_games(month).iterator(chunk_size=CHUNK):
        yield orjson.dumps(game_line(game)) + b"\n"


class _Digesting:
    """A file being written that counts and hashes the bytes going into it (gzip's output)."""

    def __init__(self, target: IO[bytes]) -> None:
        self.target = target
        self.sha256 = hashlib.sha256()
        self.bytes = 0

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        self.bytes += len(data)
        return self.target.write(data)

    def flush(self) -> None:
        self.target.flush()


def monthly_export_make(*, month: datetime.date) -> MonthlyExport:
    """Write the month's file and its row, replacing both if they exist; running it again is harmless.

    The games are read outside any transaction (on SQLite a transaction would hold the site's write lock for
    the whole export); only the rename and the row are one short transaction. The gzip header carries no
    time and no temporary name, so the same games give the same bytes."""
    month = month.replace(day=1)
    name = file_name_of(month)
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    games = 0
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as raw:
            digesting = _Digesting(raw)
            # `filename` is the name inside the gzip header: the uncompressed file's, as gzip(1) would write it.
            with gzip.GzipFile(filename=name.removesuffix(".gz"), mode="wb", fileobj=digesting, mtime=0) as packed:
                for line in month_lines(month):
                    packed.write(line)
                    games += 1
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(temporary, 0o644)  # mkstemp's file is the owner's alone; the site serves it to anyone
        with transaction.atomic():
            # The row is locked (or created) before the rename: of two exports of one month, the row ends up
            # describing the file that stayed.
            export, _ = MonthlyExport.objects.select_for_update().get_or_create(
                month=month, defaults={"file_name": name, "games": 0, "bytes": 0, "sha256": ""}
            )
            os.replace(temporary, folder / name)
            export.file_name = name
            export.games = games
            export.bytes = digesting.bytes
            export.sha256 = digesting.sha256.hexdigest()
            export.created = timezone.now()
            export.save()
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return export
