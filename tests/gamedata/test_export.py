"""The open game data's monthly file (gamedata.services, manage.py export_games): which games go in, each line
read back as a record that replays to the stored result and equals the game's record download, the file's
gzip, size and SHA-256 as its row says, a second export replacing the first, and a bad --month refused."""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.services import user_data_export_opt_out_set
from gamedata.models import MonthlyExport
from gamedata.services import EXTRA_KEYS, RECORD_KEYS, monthly_export_make
from games import services as game_services
from games.engine.records import replay_json
from games.models import Game, GameStatus, Seat
from games.selectors import game_record_json
from ratings.models import RatingChange
from tests.games.factories import latest_game, person, table
from tests.gamedata.helpers import MONTH, at, finished_at, finished_game, lines_of
from tests.ratings.helpers import play_out
from tests.tournaments.factories import bots, director, enter, play_games, tournament
from tournaments import services as tournament_services
from tournaments.models import MatchGame

pytestmark = pytest.mark.django_db


def _tournament_game(*, private: bool) -> Game:
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(2))
    tournament_services.tournament_start(tournament=event, by=chief)
    play_games(event)
    if private:
        event.registration_code = "invited-only"
        event.save(update_fields=["registration_code"])
    game = MatchGame.objects.get(pairing__tournament=event).game
    assert game.status == GameStatus.FINISHED
    return game


@pytest.fixture
def month_of_games() -> dict[str, Any]:
    """Games of every kind, moved into MONTH or just outside it: those the file must hold, in the order they
    finished, and those it must leave out."""
    anna, boris, vera = person("gd-anna"), person("gd-boris"), person("gd-vera")
    dora = person("gd-dora")
    rated = finished_at(finished_game([anna, boris], rated=True), at(10))
    assert RatingChange.objects.filter(rated_game__game=rated).count() == 2
    included = [
        finished_at(finished_game([anna], bots=[1]), at(1, 0, 0, 0)),  # the month's first moment
        finished_at(finished_game([anna, boris], bots=[2], rules={"preset": "perevodnoy"}), at(5)),
        rated,
        finished_at(finished_game([boris, vera], gives_up=1), at(20)),  # given up: the engine has not ended it
        finished_at(_tournament_game(private=False), at(25)),
        finished_at(finished_game([vera], bots=[1]), at(31, 23, 59, 59, 999_999)),  # its last moment
    ]
    running_table = table(anna, seats=2, turn_seconds=900)
    game_services.table_join(table=running_table, user=anna)
    game_services.table_join(table=running_table, user=boris)
    running = latest_game(running_table)
    assert running.status == GameStatus.PLAYING
    # A game being played whose row claims a finish in the month: never exported.
    Game.objects.filter(pk=running.pk).update(finished=at(12))
    user_data_export_opt_out_set(user=dora, opt_out=True)
    left_out = {
        "private table": finished_at(finished_game([anna, boris], private=True), at(11)),
        "password": finished_at(finished_game([anna, vera], password="secret-word"), at(12)),
        "opted out": finished_at(finished_game([anna, dora]), at(13)),
        "opted out, with a bot": finished_at(finished_game([dora], bots=[1]), at(14)),
        "private tournament": finished_at(_tournament_game(private=True), at(15)),
        "month before": finished_at(finished_game([boris], bots=[1]), at(29, 23, 59, 59, 999_999, month=2)),
        "month after": finished_at(finished_game([vera], bots=[1]), at(1, 0, 0, 0, month=4)),
        "running": running,
    }
    return {"included": included, "left_out": left_out, "rated": rated}


def _expected_seats(game: Game) -> list[dict[str, Any]]:
    changes = {change.seat: change for change in RatingChange.objects.filter(rated_game__game=game)}
    seats = []
    for seat in Seat.objects.filter(table=game.table).select_related("user").order_by("number"):
        assert seat.user is not None
        change = changes.get(seat.number)
        seats.append({
            "seat": seat.number, "name": seat.user.public_name, "bot": seat.user.is_bot,
            "bot_level": seat.user.bot_level or None,
            "rating": None if change is None else {
                "pool": change.rated_game.pool.slug, "before": change.shown_before, "after": change.shown_after,
                "provisional": change.provisional,
            },
        })  # fmt: skip
    return seats


def test_a_month_is_exported_game_by_game_each_line_the_games_record_replaying_to_its_result(
    data_dir: Path, month_of_games: dict[str, Any]
) -> None:
    export = monthly_export_make(month=MONTH)
    path = data_dir / "durak_games_2024-03.jsonl.gz"
    assert export.file_name == path.name and path.is_file()
    lines = lines_of(path)
    included: list[Game] = month_of_games["included"]
    assert [line["id"] for line in lines] == [game.pk for game in included]
    assert export.games == len(lines) == 6
    replayed_to_the_end = surrendered = 0
    for line in lines:
        game = Game.objects.select_related("result").get(pk=line["id"])
        record = {key: value for key, value in line.items() if key not in EXTRA_KEYS}
        # The record is the game's record download, unchanged, and the line's extra keys are none of its own.
        assert record == game_record_json(game=game)
        assert not set(EXTRA_KEYS) & RECORD_KEYS
        assert game.finished is not None
        assert line["finished"] == game.finished.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert line["result"] == game.result.to_json()
        assert line["seats"] == _expected_seats(game)
        # The whole line replays through the engine, as `manage.py replay` reads it.
        replay = replay_json(line)
        assert replay.ok, (game.pk, replay.error)
        assert replay.state is not None
        # Every line replays to its result, a surrender (the record's last action) included.
        stored = game.result
        assert replay.state.finished
        assert replay.state.result is not None and replay.state.result.to_json() == {
            "outcome": stored.outcome, "durak": stored.durak, "losing_team": stored.losing_team,
            "out_order": stored.out_order, "epaulettes": stored.epaulettes,
        }  # fmt: skip
        replayed_to_the_end += 1
        if game.surrendered is not None:
            assert line["actions"][-1] == {"seat": game.surrendered, "type": "surrender"}
            assert line["surrendered"] == game.surrendered == line["result"]["surrendered"]
            surrendered += 1
    assert (replayed_to_the_end, surrendered) == (6, 1)
    rated_line = next(line for line in lines if line["id"] == month_of_games["rated"].pk)
    assert all(seat["rating"] is not None and seat["rating"]["pool"] for seat in rated_line["seats"])
    bot_line = lines[0]
    assert [seat["bot"] for seat in bot_line["seats"]] == [False, True] and bot_line["seats"][1]["bot_level"] == "easy"


def test_the_replay_command_reads_a_line_of_the_file(data_dir: Path, month_of_games: dict[str, Any], tmp_path: Path) -> None:
    monthly_export_make(month=MONTH)
    with gzip.open(data_dir / "durak_games_2024-03.jsonl.gz", "rt", encoding="utf-8") as lines:
        first = next(lines)
    (tmp_path / "one.json").write_text(first, encoding="utf-8")
    out = io.StringIO()
    call_command("replay", str(tmp_path / "one.json"), stdout=out)
    answer = json.loads(out.getvalue())
    game = Game.objects.get(pk=json.loads(first)["id"])
    assert answer["ok"] and answer["finished"] and answer["result"]["durak"] == game.result.durak


def test_games_left_out_are_private_tables_passwords_opted_out_players_private_tournaments_other_months_and_running(
    data_dir: Path, month_of_games: dict[str, Any]
) -> None:
    monthly_export_make(month=MONTH)
    exported = {line["id"] for line in lines_of(data_dir / "durak_games_2024-03.jsonl.gz")}
    left_out = {name: game.pk for name, game in month_of_games["left_out"].items() if game.pk in exported}
    assert left_out == {}
    # The running game holds every hidden card in its record: no reader of it is given one.
    with pytest.raises(ValidationError):
        game_record_json(game=month_of_games["left_out"]["running"])


def test_a_running_game_is_never_exported_even_when_its_row_names_a_finish_in_the_month(data_dir: Path) -> None:
    anna, boris = person("gd-run-a"), person("gd-run-b")
    running_table = table(anna, seats=2, turn_seconds=900)
    game_services.table_join(table=running_table, user=anna)
    game_services.table_join(table=running_table, user=boris)
    running = latest_game(running_table)
    Game.objects.filter(pk=running.pk).update(finished=at(3))
    finished = finished_at(finished_game([anna], bots=[1]), at(4))
    export = monthly_export_make(month=MONTH)
    assert [line["id"] for line in lines_of(data_dir / export.file_name)] == [finished.pk]
    # Once it has ended (and been finalised) in the month, it is.
    play_out(running)
    game_services.game_finalise(game_id=running.pk)
    finished_at(running, at(5))
    export = monthly_export_make(month=MONTH)
    assert [line["id"] for line in lines_of(data_dir / export.file_name)] == [finished.pk, running.pk]


def test_the_file_is_gzip_and_its_row_counts_its_games_bytes_and_sha256(data_dir: Path) -> None:
    anna = person("gd-sum")
    games = [finished_at(finished_game([anna], bots=[1]), at(day)) for day in (2, 3)]
    export = monthly_export_make(month=MONTH)
    row = MonthlyExport.objects.get()
    assert row.month == MONTH and row.file_name == "durak_games_2024-03.jsonl.gz"
    data = (data_dir / row.file_name).read_bytes()
    assert data[:2] == b"\x1f\x8b"  # gzip's magic number
    # No time in the header (bytes 4 to 8), so the same games always give the same file and digest.
    assert data[4:8] == b"\0\0\0\0"
    assert row.bytes == len(data) == export.bytes
    assert row.sha256 == hashlib.sha256(data).hexdigest()
    text = gzip.decompress(data).decode("utf-8")
    assert text.endswith("\n") and text.count("\n") == row.games == len(games)
    assert [json.loads(line)["id"] for line in text.splitlines()] == [game.pk for game in games]
    # Nothing but the file is left in the folder (the temporary file was renamed).
    assert sorted(path.name for path in data_dir.iterdir()) == [row.file_name]


def test_an_empty_month_is_a_valid_empty_file(data_dir: Path) -> None:
    export = monthly_export_make(month=MONTH)
    assert export.games == 0 and lines_of(data_dir / export.file_name) == []


def test_exporting_again_replaces_the_file_and_the_row(data_dir: Path) -> None:
    anna = person("gd-again")
    first = finished_at(finished_game([anna], bots=[1]), at(7))
    call_command("export_games", "--month", "2024-03", stdout=io.StringIO())
    before = MonthlyExport.objects.get()
    assert before.games == 1
    # The same games give the same bytes (no time in the gzip header).
    call_command("export_games", "--month", "2024-03", stdout=io.StringIO())
    assert MonthlyExport.objects.get().sha256 == before.sha256
    second = finished_at(finished_game([anna], bots=[1]), at(8))
    out = io.StringIO()
    call_command("export_games", "--month", "2024-03", stdout=out)
    after = MonthlyExport.objects.get()
    assert MonthlyExport.objects.count() == 1 and after.pk == before.pk
    assert after.games == 2 and after.sha256 != before.sha256 and after.created >= before.created
    path = data_dir / after.file_name
    assert [line["id"] for line in lines_of(path)] == [first.pk, second.pk]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == after.sha256 and path.stat().st_size == after.bytes
    assert sorted(entry.name for entry in data_dir.iterdir()) == [after.file_name]
    assert "2 games" in out.getvalue() and after.sha256 in out.getvalue()


@pytest.mark.parametrize(
    ("month", "words"),
    [
        ("2024-13", "YYYY-MM"),
        ("2024-00", "YYYY-MM"),
        ("2024-3", "YYYY-MM"),
        ("March 2024", "YYYY-MM"),
        ("2024-03-01", "YYYY-MM"),
        ("", "YYYY-MM"),
        ("9999-12", "9999-12 is not over yet"),
        ("٢٠٢٤-٠٣", "YYYY-MM"),  # digits, but not ASCII ones
    ],
)
def test_a_bad_month_is_refused_with_a_clear_error_and_nothing_is_written(data_dir: Path, month: str, words: str) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("export_games", "--month", month, stdout=io.StringIO())
    assert words in str(refused.value) and "--month" in str(refused.value)
    assert MonthlyExport.objects.count() == 0 and not data_dir.exists()


def test_a_month_not_over_yet_is_refused(data_dir: Path) -> None:
    this_month = timezone.now().astimezone(datetime.UTC).strftime("%Y-%m")
    with pytest.raises(CommandError, match=f"{this_month} is not over yet"):
        call_command("export_games", "--month", this_month, stdout=io.StringIO())
    assert MonthlyExport.objects.count() == 0


def test_the_month_is_required() -> None:
    with pytest.raises(CommandError, match="--month"):
        call_command("export_games", stdout=io.StringIO())


def test_the_games_are_read_a_chunk_at_a_time_with_a_fixed_number_of_queries_a_chunk(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The month is streamed (`.iterator()` in chunks, never a list of its games) and a game costs no query of
    its own: the queries grow with the chunks, not with the games."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gamedata import services as gamedata_services

    anna, boris = person("gd-q-a"), person("gd-q-b")
    for day in range(1, 7):
        finished_at(finished_game([anna, boris], rated=day % 2 == 0) if day < 5 else finished_game([anna], bots=[1]),
                    at(day))  # fmt: skip

    def reads(chunk: int) -> tuple[int, int]:
        """(queries reading the seats, every query reading a game's data) of an export read `chunk` at a time."""
        monkeypatch.setattr(gamedata_services, "CHUNK", chunk)
        with CaptureQueriesContext(connection) as captured:
            assert monthly_export_make(month=MONTH).games == 6
        selects = [query["sql"] for query in captured.captured_queries if query["sql"].startswith("SELECT")]
        reading = [sql for sql in selects if "gamedata_monthlyexport" not in sql]
        return sum(sql.startswith('SELECT "games_seat"') for sql in reading), len(reading)

    # One query for the games (a cursor read chunk by chunk), then for each chunk its seats with their players
    # and, when the chunk holds a rated game, its rating changes: never a query of one game.
    seats, total = reads(100)
    assert seats == 1 and total <= 3  # (PostgreSQL may fold the rating changes' prefetch differently)
    seats, total = reads(2)
    assert seats == 3 and total <= 1 + 2 * 3
    seats, total = reads(1)
    assert seats == 6 and total <= 1 + 2 * 6
